/* SPDX-License-Identifier: MIT */
/*
 * vmstat logs read as a coarse trace (traces/FORMAT.md, "vmstat logs").
 *
 * The output of `vmstat N` (procps), with or without -t (a date and time
 * after the columns), -n (one header) and -w (wide columns); headers
 * repeated anywhere.  Columns are found by name in the column header
 * ("r b swpd free ... si so ..."), so -a (inact/active) and newer procps
 * (a "gu" column) read as well.  The first data line is the average since
 * boot and is skipped.  Each later line's si and so become swap-in and
 * swap-out events of one 4 KiB page, spread evenly over the interval that
 * ends at that line (from the -t timestamps, else --vmstat-interval,
 * sr_read_opts.vmstat_interval_ns, apart).  How many: procps-ng's vmstat
 * (3.3 and 4, new_format() in its vmstat.c) prints
 *     si = (pswpin delta x KiB per page + D / 2) / D
 * where D is its delay (the N of `vmstat N`), not the time that passed, so
 * the pages of a line are si x D / 4 whatever the gap between its
 * timestamps: these have whole seconds, and a gap of D + 1 comes whenever
 * vmstat's drift (a few ms per line) crosses a second (tests/live/run.sh
 * once counted 98,153 pages out where pswpout had moved by 75,236).  D is
 * --vmstat-interval when given, else with -t the smallest gap among the
 * first VM_LOOKAHEAD (the lines are read that far ahead to find it), else
 * 1 s.  Fractions of a page are carried to the next interval, so no KiB
 * is lost to rounding.
 *
 * Every event: pid cpu_nid + 1 (one task per CPU node), or with
 * vmstat_tasks the next of its CPU node's tasks in turn; cpu unknown,
 * cpu_nid and page_nid from the options, dev -1, no offset (the swap-ins
 * are unmatched), one page, no latency.  The nodes are cpu_node and
 * mem_node, or come from mixes (cpu_mix, mem_mix): the (cpu node, memory
 * node) pairs, of weight cpu fraction x memory fraction, share out each
 * op's events, so that after any number t of them each pair's count c is
 * within one of its share w t (next_pair()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "trace/reader_impl.h"
#include "common/diag.h"
#include "common/parse.h"

__extension__ typedef unsigned __int128 vm_u128;

#define VM_MAX_COLS 64
#define VM_MAX_RATE (1ull << 40)        /* KiB/s: 1 PiB/s, far above any device */
#define VM_MAX_PAGES (1ull << 32)       /* pages one line may give */
#define VM_DEFAULT_INTERVAL_NS 1000000000ull
#define NS_PER_S 1000000000ull
#define VM_LOOKAHEAD 8                 /* gaps between -t timestamps read to find the delay */
#define VM_MIX_TOLERANCE 1e-6          /* on the sum of a mix's fractions */
#define VM_MAX_PAIRS (SR_NODE_MIX_MAX * SR_NODE_MIX_MAX)

/* Names procps vmstat gives its columns (all layouts); anything else at the
 * end of the column header is the -t time zone. */
static const char *const known_cols[] = {
	"r", "b", "swpd", "free", "buff", "cache", "inact", "active", "si", "so",
	"bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st", "gu", NULL,
};

struct vm_state {
	int have_header;
	int ncols;            /* numeric columns expected in a data line */
	int col_si, col_so;
	uint64_t header_line;
	int has_ts;           /* -1 not known yet, then 0 or 1 */
	int started;          /* the since-boot line has been seen */
	uint64_t data_lines;  /* data lines seen (the since-boot one included) */
	uint64_t prev_ns;     /* time of the previous data line read */
	vm_u128 carry[2];     /* KiB x ns not yet a whole page, by op */

	/* vmstat's delay D (0 while not known) and the lines read but not yet
	 * handed out while it is being found: the smallest gap so far, and
	 * how many gaps have been seen. */
	uint64_t delay_ns, min_gap_ns;
	unsigned gaps;
	struct vm_line {
		uint64_t rate[2];   /* KiB/s by op */
		uint64_t t_ns;
	} pend[VM_LOOKAHEAD + 1];
	unsigned npend;
	uint64_t open_ns;     /* where the next interval handed out begins */

	/* The interval being handed out. */
	uint64_t start_ns, len_ns;
	uint64_t n[2], j[2];  /* events by op: to give, given */

	/* The nodes: ncpu x nmem pairs, cpu-major (pair p: cpu p / nmem,
	 * memory p % nmem), pair p of weight w[p]; one pair without mixes. */
	unsigned ncpu, nmem, npairs;
	uint16_t cpu_nid[SR_NODE_MIX_MAX], mem_nid[SR_NODE_MIX_MAX];
	double w[VM_MAX_PAIRS];
	uint32_t tbase[SR_NODE_MIX_MAX], tn[SR_NODE_MIX_MAX]; /* tasks of CPU node c: pids
							      * tbase + 1 .. tbase + tn */
	uint64_t tnext[SR_NODE_MIX_MAX];  /* events given to CPU node c's tasks */
	uint64_t given[2];            /* events handed out, by op */
	uint64_t cnt[2][VM_MAX_PAIRS]; /* of them, by op and pair */
	double due[2][VM_MAX_PAIRS];   /* (cnt + 1) / w (next_pair()) */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Split line into at most max tokens; returns how many (max + 1 if more). */
static int split(const char *s, size_t len, const char **tok, size_t *tl, int max)
{
	size_t i = 0;
	int n = 0;

	for (;;) {
		while (i < len && is_space(s[i]))
			i++;
		if (i == len)
			return n;
		if (n == max)
			return max + 1;
		tok[n] = s + i;
		while (i < len && !is_space(s[i]))
			i++;
		tl[n] = (size_t)(s + i - tok[n]);
		n++;
	}
}

static int tok_is(const char *t, size_t tl, const char *s)
{
	return tl == strlen(s) && memcmp(t, s, tl) == 0;
}

static int known_col(const char *t, size_t tl)
{
	int i;

	for (i = 0; known_cols[i]; i++)
		if (tok_is(t, tl, known_cols[i]))
			return 1;
	return 0;
}

/* The line above the column header: "procs ---memory--- ..." (-w:
 * "--procs-- ---...memory..."). */
static int is_banner(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && is_space(s[i]))
		i++;
	while (i < len && s[i] == '-')
		i++;
	return len - i >= 5 && memcmp(s + i, "procs", 5) == 0;
}

/* The column header: "r b swpd ..." (or "r b swpd" with -a: "r b swpd free inact"). */
static int is_colhdr(const char **tok, const size_t *tl, int n)
{
	return n >= 3 && tok_is(tok[0], tl[0], "r") && tok_is(tok[1], tl[1], "b");
}

static int vmstat_probe(const unsigned char *p, size_t n)
{
	const char *s = (const char *)p;
	const char *tok[4];
	size_t tl[4], i = 0, ll;
	int nt;

	if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < n && (p[i] == '\n' || p[i] == '\r' || is_space((char)p[i])))
		i++;
	for (ll = i; ll < n && p[ll] != '\n'; ll++)
		;
	if (is_banner(s + i, ll - i)) {
		const char *m = s + i;

		/* "procs" and "memory" on one line */
		for (; m + 6 <= s + ll; m++)
			if (memcmp(m, "memory", 6) == 0)
				return 1;
		return 0;
	}
	nt = split(s + i, ll - i, tok, tl, 4);
	return nt >= 4 && tok_is(tok[0], tl[0], "r") && tok_is(tok[1], tl[1], "b") &&
	       tok_is(tok[2], tl[2], "swpd") && tok_is(tok[3], tl[3], "free");
}

/* Check a node mix (or the single node when it has no entries) and set
 * nid[] and frac[] from it, the fractions normalised; *n gets the count. */
static enum sr_err set_nodes(const struct sr_node_mix *m, unsigned single, const char *opt,
			     uint16_t *nid, double *frac, unsigned *n, struct sr_diag *d)
{
	double sum = 0;
	unsigned i, k;

	if (m->n == 0) {
		if (single >= SR_MAX_NODES)
			return sr_diag_set(d, SR_ERR_INVAL, "node %u over %d (--%s)", single,
					   SR_MAX_NODES - 1, opt);
		nid[0] = (uint16_t)single;
		frac[0] = 1;
		*n = 1;
		return SR_OK;
	}
	if (m->n > SR_NODE_MIX_MAX)
		return sr_diag_set(d, SR_ERR_INVAL, "node mix of %u entries, more than %d (--%s)",
				   m->n, SR_NODE_MIX_MAX, opt);
	for (i = 0; i < m->n; i++) {
		if (m->node[i] >= SR_MAX_NODES)
			return sr_diag_set(d, SR_ERR_INVAL, "node mix: node %u over %d (--%s)",
					   m->node[i], SR_MAX_NODES - 1, opt);
		for (k = 0; k < i; k++)
			if (m->node[k] == m->node[i])
				return sr_diag_set(d, SR_ERR_INVAL, "node mix: node %u given twice (--%s)",
						   m->node[i], opt);
		if (!(m->frac[i] > 0 && m->frac[i] <= 1))
			return sr_diag_set(d, SR_ERR_INVAL,
					   "node mix: fraction %g of node %u not above 0 and at most 1 (--%s)",
					   m->frac[i], m->node[i], opt);
		sum += m->frac[i];
	}
	if (!(fabs(sum - 1) <= VM_MIX_TOLERANCE))
		return sr_diag_set(d, SR_ERR_INVAL, "node mix: the fractions add up to %.9g, not 1 (--%s)",
				   sum, opt);
	for (i = 0; i < m->n; i++) {
		nid[i] = (uint16_t)m->node[i];
		frac[i] = m->frac[i] / sum;
	}
	*n = m->n;
	return SR_OK;
}

/* When a pair of weight w with c events falls a whole event behind its
 * share: (c + 1) / w (never, for a weight rounded to 0). */
static double due(uint64_t c, double w)
{
	return w > 0 ? (double)(c + 1) / w : HUGE_VAL;
}

/*
 * The tasks of each CPU node: n in all, shared by the largest-remainder
 * rule in proportion to the CPU nodes' fractions cf, at least one each;
 * n = 0: one per node.
 */
static enum sr_err share_tasks(struct vm_state *st, uint32_t n, const double *cf,
			       struct sr_diag *d)
{
	double rest[SR_NODE_MIX_MAX];
	uint32_t given = 0, base = 0;
	unsigned c;

	if (n > SR_VMSTAT_MAX_TASKS)
		return sr_diag_set(d, SR_ERR_INVAL, "%u tasks, at most %u (--tasks)", n,
				   SR_VMSTAT_MAX_TASKS);
	if (n && n < st->ncpu)
		return sr_diag_set(d, SR_ERR_INVAL,
				   "%u task(s) for %u CPU nodes: at least one per node (--tasks)", n,
				   st->ncpu);
	for (c = 0; c < st->ncpu; c++) {
		double want = n ? (double)n * cf[c] : 1;

		st->tn[c] = want < 1 ? 1 : (uint32_t)want;
		rest[c] = want - (double)st->tn[c];
		given += st->tn[c];
	}
	while (n && given < n) {
		unsigned best = 0;

		for (c = 1; c < st->ncpu; c++)
			if (rest[c] > rest[best])
				best = c;
		st->tn[best]++;
		rest[best] -= 1;
		given++;
	}
	for (c = 0; c < st->ncpu; c++) {
		st->tbase[c] = base;
		base += st->tn[c];
	}
	return SR_OK;
}

static enum sr_err vmstat_open(struct sr_reader *r, struct sr_diag *d)
{
	double cf[SR_NODE_MIX_MAX], mf[SR_NODE_MIX_MAX];
	struct vm_state *st;
	enum sr_err err;
	unsigned c, m;

	st = calloc(1, sizeof(*st));
	if (!st)
		return sr_diag_set(d, SR_ERR_NOMEM, "out of memory");
	err = set_nodes(&r->opts.cpu_mix, r->opts.cpu_node, "cpu-node", st->cpu_nid, cf,
			&st->ncpu, d);
	if (!err)
		err = set_nodes(&r->opts.mem_mix, r->opts.mem_node, "mem-node", st->mem_nid, mf,
				&st->nmem, d);
	if (err) {
		free(st);
		return err;
	}
	st->npairs = st->ncpu * st->nmem;
	for (c = 0; c < st->ncpu; c++)
		for (m = 0; m < st->nmem; m++) {
			unsigned p = c * st->nmem + m;

			st->w[p] = cf[c] * mf[m];
			st->due[0][p] = st->due[1][p] = due(0, st->w[p]);
		}
	err = share_tasks(st, r->opts.vmstat_tasks, cf, d);
	if (err) {
		free(st);
		return err;
	}
	st->has_ts = -1;
	r->priv = st;
	return SR_OK;
}

/*
 * The pair of event t (from 1) of op: among the pairs below their share
 * (c < w t, so that c stays at most ceil(w t)), the one whose count would
 * soonest fall a whole event behind (the smallest (c + 1) / w, the time
 * at which w t reaches c + 1); the first of equals.  This is earliest
 * deadline first over the pairs' next events, which keeps every count
 * from floor(w t) to ceil(w t) (Tijdeman's chairman assignment; the rule
 * "the pair furthest behind" does not: with fractions 0.2, 0.2, 0.6 on
 * both sides, it leaves the pair of weight 0.12 at 1 event after 17, where
 * its share is 2.04).
 */
static unsigned next_pair(struct vm_state *st, int op)
{
	double t = (double)(st->given[op] + 1), best_due = 0;
	unsigned p, best = st->npairs;

	for (p = 0; p < st->npairs; p++)
		if (st->w[p] * t > (double)st->cnt[op][p] &&
		    (best == st->npairs || st->due[op][p] < best_due)) {
			best_due = st->due[op][p];
			best = p;
		}
	if (best == st->npairs) {
		/* Some pair is below its share as the weights add up to 1;
		 * should rounding say otherwise, the one furthest behind. */
		double lag, best_lag = 0;

		for (p = 0; p < st->npairs; p++) {
			lag = st->w[p] * t - (double)st->cnt[op][p];
			if (p == 0 || lag > best_lag) {
				best_lag = lag;
				best = p;
			}
		}
	}
	st->cnt[op][best]++;
	st->given[op]++;
	st->due[op][best] = due(st->cnt[op][best], st->w[best]);
	return best;
}

static void vmstat_close(struct sr_reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned dd)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	return 1;
}

static unsigned dnum(const char *t, size_t n)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = v * 10 + (unsigned)(t[i] - '0');
	return v;
}

/* "YYYY-MM-DD" "HH:MM:SS" as vmstat -t prints them: 1 if they look like a
 * date and a time (even an impossible one), else 0. */
static int looks_like_ts(const char *dt, size_t dl, const char *tm, size_t tml)
{
	return dl == 10 && dt[4] == '-' && dt[7] == '-' && digits(dt, 4) &&
	       digits(dt + 5, 2) && digits(dt + 8, 2) && tml == 8 && tm[2] == ':' &&
	       tm[5] == ':' && digits(tm, 2) && digits(tm + 3, 2) && digits(tm + 6, 2);
}

/* Seconds since the epoch, the time taken as UTC; -1 if impossible. */
static int64_t parse_ts(const char *dt, const char *tm)
{
	unsigned y = dnum(dt, 4), mo = dnum(dt + 5, 2), dd = dnum(dt + 8, 2);
	unsigned h = dnum(tm, 2), mi = dnum(tm + 3, 2), s = dnum(tm + 6, 2);
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (y < 1970 || y > 2200 || mo < 1 || mo > 12 || dd < 1 || dd > mdays[mo - 1] ||
	    h > 23 || mi > 59 || s > 60)
		return -1;
	return days_from_civil(y, mo, dd) * 86400 + h * 3600 + mi * 60 + s;
}

static enum sr_err rec_error(struct sr_reader *r, struct sr_diag *d, const char *fmt,
			     const char *a, size_t al) SR_PRINTF(3, 0);

/* A bad data line: skippable under --max-errors.  fmt has one %.*s. */
static enum sr_err rec_error(struct sr_reader *r, struct sr_diag *d, const char *fmt,
			     const char *a, size_t al)
{
	char m[400];

	snprintf(m, sizeof(m), fmt, (int)(al > 40 ? 40 : al), a);
	sr_reader_at_line(r, d);
	r->record_error = 1;
	return sr_diag_set(d, SR_ERR_FORMAT, "%s", m);
}

static enum sr_err colhdr(struct sr_reader *r, struct vm_state *st, const char **tok,
			  const size_t *tl, int nt, struct sr_diag *d)
{
	int i, si = -1, so = -1, ncols = nt;

	if (nt > VM_MAX_COLS) {
		sr_reader_at_line(r, d);
		return sr_diag_set(d, SR_ERR_FORMAT, "column header with more than %d columns",
				   VM_MAX_COLS);
	}
	if (!known_col(tok[nt - 1], tl[nt - 1]))
		ncols--; /* the time zone of -t */
	for (i = 0; i < ncols; i++) {
		if (tok_is(tok[i], tl[i], "si"))
			si = i;
		else if (tok_is(tok[i], tl[i], "so"))
			so = i;
	}
	if (si < 0 || so < 0) {
		sr_reader_at_line(r, d);
		return sr_diag_set(d, SR_ERR_FORMAT,
				   "column header without the si and so columns (not the output of plain vmstat: -d, -D, -m, -s and -p logs hold no swap rates)");
	}
	st->have_header = 1;
	st->header_line = r->line;
	st->ncols = ncols;
	st->col_si = si;
	st->col_so = so;
	return SR_OK;
}

/* A data line: check it and set up the interval it closes. */
static enum sr_err data_line(struct sr_reader *r, struct vm_state *st, const char **tok,
			     const size_t *tl, int nt, struct sr_diag *d)
{
	static const char *const opname[2] = { "so", "si" };
	uint64_t rate[2], t_ns, gap_ns, bound_ns;
	int has_ts = 0, nnum = nt, i, op;

	if (nt >= 2 && looks_like_ts(tok[nt - 2], tl[nt - 2], tok[nt - 1], tl[nt - 1])) {
		has_ts = 1;
		nnum -= 2;
	}
	if (nnum != st->ncols) {
		char m[160];

		snprintf(m, sizeof(m), "%d values, the column header (line %llu) has %d%s (\"%%.*s\")",
			 nnum, (unsigned long long)st->header_line, st->ncols,
			 has_ts ? " and a date and time" : "");
		return rec_error(r, d, m, tok[0], tl[nt - 1] + (size_t)(tok[nt - 1] - tok[0]));
	}
	if (st->has_ts >= 0 && has_ts != st->has_ts)
		return rec_error(r, d, has_ts ? "a date and time where earlier lines have none (\"%.*s\")" :
				 "no date and time where earlier lines have one (-t) (\"%.*s\")",
				 tok[0], tl[nt - 1] + (size_t)(tok[nt - 1] - tok[0]));
	for (i = 0; i < nnum; i++) {
		if (!digits(tok[i], tl[i]) || tl[i] > 19) {
			char m[96];

			snprintf(m, sizeof(m), "not a whole number (column %d, \"%%.*s\")", i + 1);
			return rec_error(r, d, m, tok[i], tl[i]);
		}
	}
	for (op = 0; op < 2; op++) {
		int c = op == SR_OP_OUT ? st->col_so : st->col_si;

		if (sr_parse_u64(tok[c], tl[c], VM_MAX_RATE, &rate[op])) {
			char m[96];

			snprintf(m, sizeof(m), "%s over 2^40 KiB/s (%s, \"%%.*s\")", opname[op], opname[op]);
			return rec_error(r, d, m, tok[c], tl[c]);
		}
	}
	if (has_ts) {
		int64_t s = parse_ts(tok[nt - 2], tok[nt - 1]);

		if (s < 0)
			return rec_error(r, d, "not a date and time from 1970 to 2200 (\"%.*s\")",
					 tok[nt - 2], tl[nt - 2] + 1 + tl[nt - 1]);
		t_ns = (uint64_t)s * NS_PER_S;
	} else {
		uint64_t iv = r->opts.vmstat_interval_ns ? r->opts.vmstat_interval_ns :
			      VM_DEFAULT_INTERVAL_NS;

		if (st->data_lines > (UINT64_MAX / 2) / iv)
			return rec_error(r, d, "too many lines for the interval%.*s", "", 0);
		t_ns = st->data_lines * iv;
	}
	if (st->started && t_ns <= st->prev_ns)
		return rec_error(r, d, "time not after the previous line's (\"%.*s\")",
				 tok[nnum], tl[nt - 1] + (size_t)(tok[nt - 1] - tok[nnum]));
	st->has_ts = has_ts;
	st->data_lines++;
	if (!st->started) {
		/* The first line: averages since boot, not an interval. */
		st->started = 1;
		st->prev_ns = st->open_ns = t_ns;
		if (!has_ts || r->opts.vmstat_interval_ns)
			st->delay_ns = r->opts.vmstat_interval_ns ? r->opts.vmstat_interval_ns :
				       VM_DEFAULT_INTERVAL_NS;
		return SR_OK;
	}
	gap_ns = t_ns - st->prev_ns;
	if (!st->delay_ns && (!st->gaps || gap_ns < st->min_gap_ns))
		st->min_gap_ns = gap_ns;
	/* The delay, when not known yet, will be at most this gap. */
	bound_ns = st->delay_ns > gap_ns ? st->delay_ns : gap_ns;
	for (op = 0; op < 2; op++) {
		vm_u128 pages = ((vm_u128)rate[op] * bound_ns) / ((vm_u128)4 * NS_PER_S);

		if (pages > VM_MAX_PAGES) {
			char m[128];

			snprintf(m, sizeof(m), "%s over %.0f s is more than 2^32 pages in one interval (%s, \"%%.*s\")",
				 opname[op], (double)bound_ns / 1e9, opname[op]);
			return rec_error(r, d, m, tok[op == SR_OP_OUT ? st->col_so : st->col_si],
					 tl[op == SR_OP_OUT ? st->col_so : st->col_si]);
		}
	}
	if (!st->delay_ns && ++st->gaps >= VM_LOOKAHEAD)
		st->delay_ns = st->min_gap_ns;
	st->pend[st->npend].rate[0] = rate[0];
	st->pend[st->npend].rate[1] = rate[1];
	st->pend[st->npend].t_ns = t_ns;
	st->npend++;
	st->prev_ns = t_ns;
	return SR_OK;
}

/* Hand out the oldest line read: rate x delay KiB by op, over the time
 * from the line before it to its own. */
static void next_interval(struct vm_state *st)
{
	const struct vm_line *l = &st->pend[0];
	int op;

	for (op = 0; op < 2; op++) {
		vm_u128 kib_ns = (vm_u128)l->rate[op] * st->delay_ns + st->carry[op];
		vm_u128 pages = kib_ns / ((vm_u128)4 * NS_PER_S);

		st->carry[op] = kib_ns - pages * ((vm_u128)4 * NS_PER_S);
		st->n[op] = (uint64_t)pages;
		st->j[op] = 0;
	}
	st->start_ns = st->open_ns;
	st->len_ns = l->t_ns - st->open_ns;
	st->open_ns = l->t_ns;
	st->npend--;
	memmove(&st->pend[0], &st->pend[1], st->npend * sizeof(st->pend[0]));
}

/* Time of event j of n spread evenly over the interval: the middle of the
 * j-th of n equal parts. */
static uint64_t ev_time(const struct vm_state *st, uint64_t j, uint64_t n)
{
	return st->start_ns + (uint64_t)(((vm_u128)(2 * j + 1) * st->len_ns) / (2 * (vm_u128)n));
}

static void set_derived(struct sr_reader *r)
{
	int cmix = r->opts.cpu_mix.n > 0, mmix = r->opts.mem_mix.n > 0;

	char tasks[64];

	if (r->opts.vmstat_tasks)
		snprintf(tasks, sizeof(tasks), "%u tasks taking the events in turn",
			 r->opts.vmstat_tasks);
	else
		snprintf(tasks, sizeof(tasks), "%s", cmix ? "one task per CPU node" : "one task");
	snprintf(r->stats.derived, sizeof(r->stats.derived),
		 "derived from a vmstat log: coarse (si/so spread evenly over each interval, %s%s, no devices or offsets)",
		 tasks,
		 cmix && mmix ? ", CPU and memory nodes from a mix" :
		 cmix ? ", CPU nodes from a mix" : mmix ? ", memory nodes from a mix" : "");
}

static enum sr_err vmstat_next(struct sr_reader *r, struct sr_event *ev, int *eof,
			       struct sr_diag *d)
{
	struct vm_state *st = r->priv;
	const char *tok[VM_MAX_COLS + 4];
	size_t tl[VM_MAX_COLS + 4];
	const char *line;
	size_t len;
	enum sr_err err;
	int cr, nt;

	*eof = 0;
	for (;;) {
		int more_out = st->j[0] < st->n[0], more_in = st->j[1] < st->n[1];

		if (more_out || more_in) {
			int op;
			unsigned p;
			uint64_t t_out = more_out ? ev_time(st, st->j[0], st->n[0]) : UINT64_MAX;
			uint64_t t_in = more_in ? ev_time(st, st->j[1], st->n[1]) : UINT64_MAX;

			op = t_out <= t_in ? SR_OP_OUT : SR_OP_IN;
			sr_event_init(ev);
			ev->ts_ns = op == SR_OP_OUT ? t_out : t_in;
			ev->op = (uint8_t)op;
			p = st->npairs > 1 ? next_pair(st, op) : 0;
			ev->cpu_nid = st->cpu_nid[p / st->nmem];
			ev->page_nid = st->mem_nid[p % st->nmem];
			if (r->opts.vmstat_tasks) {
				unsigned c = p / st->nmem;

				ev->pid = st->tbase[c] + (uint32_t)(st->tnext[c]++ % st->tn[c]) + 1;
			} else {
				ev->pid = (uint32_t)ev->cpu_nid + 1;
			}
			st->j[op]++;
			if (!r->stats.derived[0])
				set_derived(r);
			return SR_OK;
		}
		if (st->npend && st->delay_ns) {
			next_interval(st);
			continue;
		}
		err = sr_reader_line(r, &line, &len, &cr, d);
		if (err)
			return err;
		if (!line) {
			if (st->npend) {
				/* Fewer gaps than the look-ahead: the
				 * smallest of them. */
				st->delay_ns = st->min_gap_ns;
				continue;
			}
			*eof = 1;
			return SR_OK;
		}
		if (is_banner(line, len))
			continue;
		nt = split(line, len, tok, tl, VM_MAX_COLS + 3);
		if (nt == 0)
			continue;
		if (is_colhdr(tok, tl, nt)) {
			if (nt > VM_MAX_COLS + 2)
				nt = VM_MAX_COLS + 1;
			err = colhdr(r, st, tok, tl, nt, d);
			if (err)
				return err;
			continue;
		}
		if (!st->have_header) {
			sr_reader_at_line(r, d);
			return sr_diag_set(d, SR_ERR_FORMAT,
					   "a line before the column header (\"r b swpd free ...\"): not a vmstat log");
		}
		if (nt > VM_MAX_COLS + 2)
			return rec_error(r, d, "more values than any vmstat column header (\"%.*s\")",
					 tok[0], tl[0]);
		err = data_line(r, st, tok, tl, nt, d);
		if (err)
			return err;
	}
}

const struct sr_reader_ops sr_reader_vmstat_ops = {
	.format = SR_FMT_VMSTAT,
	.probe = vmstat_probe,
	.open = vmstat_open,
	.next = vmstat_next,
	.close = vmstat_close,
};
