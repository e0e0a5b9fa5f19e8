# Helpers shared by the validation cases (sourced by each case.sh).
#
# A case prints one line per metric on standard output:
#
#   CASE METRIC KIND MEASURED PREDICTED [VERDICT...]
#
# KIND is what the numbers are: delta_pct (a speed delta, in %, positive
# when faster), kb_s (KB/s), s (seconds), cs (centiseconds), us
# (microseconds), pct (a rate in %, such as a hit rate), lock_pct (a
# lock's share of the tasks' time, against a profile's % of cycles under
# it; lock_pct_max: a lock the profile does not list, its smallest line
# the bound), kib (a size in KiB), cv (a coefficient of variation) or
# ratio.  PREDICTED is "-" when
# the model cannot predict it; MEASURED is "-" when nothing was published
# for it (a study's prediction; a VERDICT must then say so); VERDICT (the rest of the line) is given
# only when the case decides it (e.g. "not modelled: readahead"); otherwise
# tests/validation/run.sh applies the bands.  Anything on standard error is
# shown; a non-zero exit status is a script error.
#
# Environment: SR (the swapreplay binary), V (this folder), W (a scratch
# folder of the case's own, the working directory).
set -eu
: "${SR:?}" "${V:?}" "${W:?}"
cd "$W"

# pnum FILE POLICY KEY: a number of POLICY's block in a JSON report
# (docs/REPORT.md: one policy starts on a line '    {"name": ...').
pnum() {
	awk -v n="$2" -v k="$3" '
		/^    \{"name": / { on = index($0, "    {\"name\": \"" n "\",") == 1 }
		on {
			s = $0
			if (match(s, "\"" k "\": -?[0-9][0-9.e+-]*")) {
				v = substr(s, RSTART, RLENGTH)
				sub(/^"[^"]*": /, "", v)
				print v
				exit
			}
		}' "$1"
}

# need VALUE WHAT: fail the case when a figure is missing.
need() {
	if [ -z "$1" ]; then
		echo "validation: $CASE: no $2 in the report" >&2
		exit 1
	fi
}

# delta A B: the speed delta of makespan B against makespan A, in %
# (A / B - 1, as docs/MODEL.md defines delta_pct), 3 decimals.
delta() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a / b - 1) * 100 }'
}

# kbs PAGES MAKESPAN_NS: pages x 4 KiB over the makespan, in KB/s (1 KB =
# 1024 bytes here, as the kernel's vmstat counts kB), no decimals.
kbs() {
	awk -v p="$1" -v m="$2" 'BEGIN { printf "%.0f", p * 4 / (m / 1e9) }'
}

# share FILE POLICY LOCK TASKS: POLICY's waits for LOCK (the report's
# waits_ns: si_lock, lru_lock, swap_cache_lock) as a share of its TASKS'
# time over the makespan, in %, 2 decimals: what a profile of busy tasks
# counts as cycles spinning on that lock.
share() {
	_w=$(pnum "$1" "$2" "$3")
	_m=$(pnum "$1" "$2" makespan_ns)
	need "$_w" "$3 waits"
	awk -v w="$_w" -v m="$_m" -v t="$4" 'BEGIN { printf "%.2f", 100 * w / (t * m) }'
}

# row METRIC KIND MEASURED PREDICTED [VERDICT...]
row() {
	echo "$CASE $*"
}
