/* SPDX-License-Identifier: MIT */
/*
 * JSON lines traces, parsed with jansson: one object per line, keys named as
 * the CSV columns.  Blank lines are skipped; unknown keys are ignored (listed
 * in the reader's stats); null stands for an absent optional field.
 * jansson's integers are signed 64-bit, so numbers above 2^63-1 are refused.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "trace/reader_impl.h"
#include "common/diag.h"
#include "trace/fields.h"

static int jsonl_probe(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i < n && p[i] == '{';
}

static enum sr_err jsonl_open(struct sr_reader *r, struct sr_diag *d)
{
	(void)d;
	r->may_vaddr = 1; /* any line may have one */
	/* Any line may be a task op too, but a CSV written from JSON lines on
	 * standard output gets no child column for that: as it always did,
	 * unless the first events have task ops (cmd_convert.c). */
	r->may_tasks = 0;
	/* Nor a reclaim or fault column, for the same reason. */
	r->may_reclaim = 0;
	r->may_fault = 0;
	r->may_memcg = 0;
	return SR_OK;
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "real number";
	case JSON_TRUE:
	case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* Set field f of ev from JSON value v; 0 or -1 with msg. */
static int set_field(struct sr_event *ev, enum sr_field f, json_t *v, char *msg,
		     size_t msz)
{
	char txt[32];
	int n;

	if (json_is_null(v)) {
		if (sr_field_required(f)) {
			snprintf(msg, msz, "missing value of a required field (%s, null)",
				 sr_field_names[f]);
			return -1;
		}
		return 0;
	}
	if (f == SR_F_OP || f == SR_F_RECLAIM || f == SR_F_FAULT) {
		if (!json_is_string(v)) {
			snprintf(msg, msz, "wrong type, expected a string (%s, %s)",
				 sr_field_names[f], type_name(v));
			return -1;
		}
		return sr_field_set_text(ev, f, json_string_value(v),
					 json_string_length(v), msg, msz);
	}
	if (!json_is_integer(v)) {
		snprintf(msg, msz, "wrong type, expected an integer (%s, %s)",
			 sr_field_names[f], type_name(v));
		return -1;
	}
	/* One text path for every format: the same ranges, the same messages. */
	n = snprintf(txt, sizeof(txt), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	return sr_field_set_text(ev, f, txt, (size_t)n, msg, msz);
}

static enum sr_err jsonl_next(struct sr_reader *r, struct sr_event *ev, int *eof,
			      struct sr_diag *d)
{
	const char *line, *key;
	size_t len;
	json_t *root, *v;
	json_error_t jerr;
	enum sr_err err;
	char msg[400];
	int have[SR_F_COUNT] = { 0 };
	int f, cr;
	json_t *path = NULL;

	*eof = 0;
	for (;;) {
		err = sr_reader_line(r, &line, &len, &cr, d);
		if (err)
			return err;
		if (!line) {
			*eof = 1;
			return SR_OK;
		}
		if (!is_blank(line, len))
			break;
	}
	sr_reader_at_line(r, d);
	r->record_error = 1;
	root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (strstr(jerr.text, "too big"))
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "number over 2^63-1, the JSON lines limit (column %d)",
					   jerr.column);
		{
			/* Each line is parsed alone: jansson's "end of file" is
			 * the end of the line. */
			char text[JSON_ERROR_TEXT_LENGTH + 8];
			const char *at = strstr(jerr.text, "end of file");

			if (at)
				snprintf(text, sizeof(text), "%.*send of line%s",
					 (int)(at - jerr.text), jerr.text,
					 at + strlen("end of file"));
			else
				snprintf(text, sizeof(text), "%s", jerr.text);
			return sr_diag_set(d, SR_ERR_FORMAT, "JSON syntax error at column %d: %s",
					   jerr.column, text);
		}
	}
	if (!json_is_object(root)) {
		err = sr_diag_set(d, SR_ERR_FORMAT,
				  "wrong type, expected an object per line (line, %s)",
				  type_name(root));
		goto out;
	}
	sr_event_init(ev);
	json_object_foreach(root, key, v) {
		f = sr_field_lookup(key, strlen(key));
		if (f < 0) {
			sr_reader_note_unknown(r, key, strlen(key));
			continue;
		}
		if (f == SR_F_MEMCG_PATH) {
			/* Named once the event is whole. */
			if (!json_is_null(v) && !json_is_string(v)) {
				err = sr_diag_set(d, SR_ERR_FORMAT,
						  "wrong type, expected a string (memcg_path, %s)",
						  type_name(v));
				goto out;
			}
			path = json_is_null(v) ? NULL : v;
			continue;
		}
		if (set_field(ev, f, v, msg, sizeof(msg))) {
			err = sr_diag_set(d, SR_ERR_FORMAT, "%s", msg);
			goto out;
		}
		have[f] = !json_is_null(v);
	}
	for (f = 0; f < SR_F_COUNT; f++) {
		if (sr_field_required(f) && !have[f]) {
			err = sr_diag_set(d, SR_ERR_FORMAT, "missing required field (%s)",
					  sr_field_names[f]);
			goto out;
		}
	}
	/* What the op asks of the other fields (each value was checked). */
	if (SR_UNLIKELY(!sr_event_valid(ev)) && sr_event_check(ev, msg, sizeof(msg))) {
		err = sr_diag_set(d, SR_ERR_FORMAT, "%s", msg);
		goto out;
	}
	if (SR_UNLIKELY(path != NULL)) {
		int rc = sr_memcgs_set(r->memcgs, ev->memcg, json_string_value(path),
				       json_string_length(path), msg, sizeof(msg));

		if (rc) {
			err = sr_diag_set(d, rc == -2 ? SR_ERR_NOMEM : SR_ERR_FORMAT, "%s", msg);
			goto out;
		}
	}
	err = SR_OK;
	r->record_error = 0;
out:
	json_decref(root);
	return err;
}

const struct sr_reader_ops sr_reader_jsonl_ops = {
	.format = SR_FMT_JSONL,
	.probe = jsonl_probe,
	.open = jsonl_open,
	.next = jsonl_next,
	.close = NULL,
};
