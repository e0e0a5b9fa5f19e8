#!/bin/sh
# The validation suite: every case of tests/validation/c*/ and s*/ (one per
# published measurement, the project VALIDATION.md: C1..C7), one table.
#
#   sh tests/validation/run.sh [--markdown]
#
# Runs each case's case.sh (see lib.sh for what it prints), applies the
# bands and prints one table: case, metric, unit, measured, predicted,
# error, verdict (--markdown: the same as a Markdown table, for README.md);
# and writes the same as JSON to $VALIDATION_JSON (default
# build/validation.json): a list of objects with case, metric, kind,
# measured, predicted, error_pct, error_unit, sign_ok, verdict (numbers as
# JSON numbers, null where they do not apply).
#
# Bands (issue 13): a delta passes when its sign is right and it is within
# max(2 points, 25 % of the measured delta) of it; an absolute (throughput,
# time, latency) when within 30 %; a lock's share of the tasks' time
# (lock_pct, issue 34: against a published profile's % of cycles under
# that lock) when within max(5 points, 30 % of it), and a lock the profile
# does not list (lock_pct_max: its measured figure is the smallest line
# the profile lists) when at most that; otherwise "outside band".  The sign of a
# delta within +-1 % is "no difference" (the report's --uncertainty uses
# the same 1 %), so -0.07 % measured and +0.001 % predicted agree.  Error:
# for a delta, predicted - measured in points; for an absolute, predicted /
# measured - 1 in %.  A case may decide its own verdict ("not modelled:
# ...", with predicted "-").
#
# Environment: SWAPREPLAY (default build/swapreplay), VALIDATION_JSON.
# Exit status 0 when every case ran, whatever the verdicts; 1 when a case
# script failed or printed a malformed line.  Needs sh and awk only.
set -u
V=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$V/../.." && pwd)
SR=${SWAPREPLAY:-$ROOT/build/swapreplay}
case $SR in /*) ;; *) SR=$(cd "$(dirname "$SR")" && pwd)/$(basename "$SR") ;; esac
JSON=${VALIDATION_JSON:-$ROOT/build/validation.json}
FORMAT=text
[ "${1:-}" = "--markdown" ] && FORMAT=markdown
if [ ! -x "$SR" ]; then
	echo "validation: no swapreplay binary at $SR (make build/swapreplay)" >&2
	exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM
export SR V

rows=$scratch/rows
: >"$rows"
status=0
for c in "$V"/c*/ "$V"/s*/; do
	[ -f "$c/case.sh" ] || continue
	name=$(basename "$c")
	W=$scratch/$name
	mkdir -p "$W"
	export W
	if ! sh "$c/case.sh" >"$W/.out" 2>"$W/.err"; then
		echo "validation: $name/case.sh failed:" >&2
		sed 's/^/    /' "$W/.err" | head -20 >&2
		status=1
		continue
	fi
	[ -s "$W/.err" ] && sed "s/^/validation: $name: /" "$W/.err" >&2
	cat "$W/.out" >>"$rows"
	# Every report the case made: no device busier than the simulated
	# time, to a calendar's bucket (1 ms: an hdd's; work is a quantity in
	# a bucket, and the first may be booked from its start), and no
	# request served without contention (the core plays each simulation
	# in simulated time: docs/MODEL.md, "The core").
	for j in "$W"/*.json; do
		[ -f "$j" ] || continue
		if ! awk -v f="$name/$(basename "$j")" '
		/"makespan_ns": / { s = $0; sub(/.*"makespan_ns": /, "", s); sub(/[^0-9.].*/, "", s); ms = s + 0 }
		/"stale_requests": / { s = $0; sub(/.*"stale_requests": /, "", s); sub(/[^0-9].*/, "", s)
			if (s + 0 > 0) { printf "validation: %s: %s requests served without contention\n", f, s; bad = 1 } }
		/"utilization": [0-9.]+, "busy_ns": / { s = $0; sub(/.*"busy_ns": /, "", s); sub(/[^0-9.].*/, "", s)
			if (s + 0 > ms + 1e6) { printf "validation: %s: a device busy %s ns in a makespan of %s ns\n", f, s, ms; bad = 1 } }
		END { exit bad }' "$j" >&2; then
			status=1
		fi
	done
done

mkdir -p "$(dirname "$JSON")"
awk -v fmt="$FORMAT" -v json="$JSON.tmp" '
function abs(x) { return x < 0 ? -x : x }
function sgn(x) { return x > 1 ? 1 : x < -1 ? -1 : 0 }
function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?$/ }
function unit(k) {
	return k == "delta_pct" ? "delta %" : k == "kb_s" ? "KB/s" : k == "s" ? "s" : \
	       k == "cs" ? "cs" : k == "us" ? "us" : k == "pct" ? "%" : k == "kib" ? "KiB" : \
	       k == "cv" ? "CV" : k == "ratio" ? "ratio" : k == "lock_pct" ? "% time" : \
	       k == "lock_pct_max" ? "% time <=" : ""
}
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
NF < 5 || !(isnum($4) || $4 == "-") || !(isnum($5) || $5 == "-") || unit($3) == "" ||
($4 == "-" && NF < 6) {
	printf "validation: malformed line from case %s: %s\n", $1, $0 > "/dev/stderr"
	bad = 1
	next
}
{
	n++
	C[n] = $1; M[n] = $2; K[n] = $3; MS[n] = $4; PR[n] = $5
	given = ""
	for (i = 6; i <= NF; i++) given = given (i > 6 ? " " : "") $i
	E[n] = ""; EU[n] = ""; S[n] = ""
	if ($5 == "-") {
		VD[n] = given != "" ? given : "not modelled"
	} else if ($4 == "-") {
		VD[n] = given
	} else if ($3 == "delta_pct") {
		e = $5 - $4
		E[n] = sprintf("%+.2f", e); EU[n] = "points"
		ok = sgn($5) == sgn($4)
		S[n] = ok ? "true" : "false"
		band = 0.25 * abs($4); if (band < 2) band = 2
		VD[n] = ok && abs(e) <= band ? "pass" : "outside band"
	} else if ($3 == "lock_pct" || $3 == "lock_pct_max") {
		e = $5 - $4
		E[n] = sprintf("%+.2f", e); EU[n] = "points"
		band = 0.30 * abs($4); if (band < 5) band = 5
		VD[n] = ($3 == "lock_pct" ? abs(e) <= band : $5 <= $4) ? "pass" : "outside band"
	} else {
		e = ($4 != 0) ? ($5 / $4 - 1) * 100 : 0
		E[n] = sprintf("%+.1f", e); EU[n] = "percent"
		VD[n] = abs(e) <= 30 ? "pass" : "outside band"
	}
	if (given != "" && $5 != "-") VD[n] = given
	if (VD[n] == "pass") npass++
	else if (VD[n] == "outside band") nout++
	else if (VD[n] ~ /^not modelled/) nnot++
	else nother++
}
END {
	hdr = "Error: deltas in points (predicted - measured), absolutes in % (predicted / measured - 1)"
	if (fmt == "markdown") {
		print "| case | metric | unit | measured | predicted | error | verdict |"
		print "|---|---|---|---:|---:|---:|---|"
		for (i = 1; i <= n; i++)
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", C[i], M[i], unit(K[i]), MS[i], \
			       PR[i], E[i] == "" ? "" : E[i] (EU[i] == "points" ? " pt" : " %"), VD[i]
		print ""
		printf "%d metrics: %d pass, %d outside band, %d not modelled%s.  %s.\n", n, npass, nout, nnot, \
		       nother ? sprintf(", %d not a check", nother) : "", hdr
	} else {
		printf "%-4s %-28s %-8s %12s %12s %10s  %s\n", "case", "metric", "unit", "measured", "predicted", "error", "verdict"
		for (i = 1; i <= n; i++)
			printf "%-4s %-28s %-8s %12s %12s %10s  %s\n", C[i], M[i], unit(K[i]), MS[i], PR[i], \
			       E[i] == "" ? "-" : E[i] (EU[i] == "points" ? " pt" : " %"), VD[i]
		printf "%d metrics: %d pass, %d outside band, %d not modelled%s\n", n, npass, nout, nnot, \
		       nother ? sprintf(", %d not a check", nother) : ""
		print hdr
	}
	printf "[" > json
	for (i = 1; i <= n; i++) {
		sep = i > 1 ? "," : ""
		pr = PR[i] == "-" ? "null" : PR[i] + 0
		er = E[i] == "" ? "null" : E[i] + 0
		eu = EU[i] == "" ? "null" : jstr(EU[i])
		so = S[i] == "" ? "null" : S[i]
		printf("%s\n  {\"case\": %s, \"metric\": %s, \"kind\": %s, \"measured\": %s, \"predicted\": %s, " \
		       "\"error_pct\": %s, \"error_unit\": %s, \"sign_ok\": %s, \"verdict\": %s}", \
		       sep, jstr(C[i]), jstr(M[i]), jstr(K[i]), MS[i] == "-" ? "null" : MS[i] + 0, pr, er, eu, so,
		       jstr(VD[i])) > json
	}
	print "\n]" > json
	exit bad
}' "$rows" || status=1
if [ -f "$JSON.tmp" ]; then
	mv "$JSON.tmp" "$JSON"
fi
exit $status
