#!/bin/sh
# The plots (docs/REPORT.md, "Plots"), looked at as a person would look at
# them: each chart is drawn from a known input, an SVG is rendered to a PNG
# by another program (rsvg-convert, librsvg2-bin), and its pixels and the
# tool's own PNG's (pngtopnm, netpbm) must be the chart's size, not blank,
# and show each series' colour; the labels are read back as text from the
# same chart drawn as a PDF (pdftotext, poppler-utils: cairo's SVG writes
# text as glyph outlines, its PDF keeps the characters); the curves and
# bars are counted in the SVG (cairo writes each as a path: a curve a
# stroke 2 wide, a bar or a legend's swatch a fill, in a colour of the
# palette of src/plot/chart.c, never a grey).  Then the refusals.
R=$(cd "$T/.." && pwd)
. "$T/cli/lib/need.sh"
ok=1
need rsvg-convert librsvg2-bin plot || ok=0
need pdftotext poppler-utils plot || ok=0
need pngtopnm netpbm plot || ok=0
[ $ok = 1 ] || exit 0

SAMPLE=$R/traces/sample.swt.zst
# The palette of src/plot/chart.c, in its order.
PALETTE="0 114 178  213 94 0  0 158 115  204 121 167  230 159 0  86 180 233  148 103 189  140 86 75  188 189 34  23 190 207"

# look PNG: "WIDTH HEIGHT INKED COLOURS": the image's size, the share of
# its pixels that are not white (per mille) and how many of the palette's
# colours it shows (in 20 pixels or more, each channel within 12).
look() {
	pngtopnm -plain "$1" 2>/dev/null | awk -v pal="$PALETTE" '
	BEGIN { np = split(pal, p, " ") / 3 }
	function pixel(r, g, b,   k) {
		px++
		if (r < 245 || g < 245 || b < 245)
			inked++
		for (k = 0; k < np; k++)
			if (r - p[3*k+1] <= 12 && p[3*k+1] - r <= 12 && g - p[3*k+2] <= 12 &&
			    p[3*k+2] - g <= 12 && b - p[3*k+3] <= 12 && p[3*k+3] - b <= 12)
				c[k]++
	}
	{
		for (i = 1; i <= NF; i++) {
			tok++
			if (tok == 2) w = $i
			else if (tok == 3) h = $i
			else if (tok > 4) {
				v[(tok - 5) % 3] = $i
				if ((tok - 5) % 3 == 2)
					pixel(v[0], v[1], v[2])
			}
		}
	}
	END {
		for (k = 0; k < np; k++)
			if (c[k] >= 20)
				cols++
		printf "%d %d %d %d\n", w, h, px ? int(1000 * inked / px) : 0, cols
	}'
}

# curves SVG / fills SVG: the paths stroked 2 wide / filled, in a colour
# that is not a grey (r = g = b), one a line.
curves() {
	grep -o '<path style="fill:none;stroke-width:2;[^"]*stroke:rgb([^)]*)' "$1" |
		sed 's/.*stroke:rgb(//' | awk -F, '!($1 == $2 && $2 == $3)'
}
fills() {
	grep -o '<path style=" *stroke:none;fill-rule:[a-z]*;fill:rgb([^)]*)' "$1" |
		sed 's/.*fill:rgb(//' | awk -F, '!($1 == $2 && $2 == $3)'
}
# text PDF: the PDF's text on one line, spaces squeezed (pdftotext gives
# the words of a label turned upright a line each).
text() {
	pdftotext -raw "$1" - 2>/dev/null | tr '\n' ' ' | tr -s ' '
}

# check NAME WANT GOT: a line for it.
check() {
	if [ "$2" = "$3" ]; then
		echo "ok plot: $1"
	else
		echo "FAIL plot: $1: got [$3], expected [$2]"
	fi
}

# has NAME FILE STRING...: the PDF's text holds every STRING, as a line's part.
has() {
	name=$1 f=$2
	shift 2
	text "$f" >"$W/text"
	miss=""
	for s in "$@"; do
		grep -qF -- "$s" "$W/text" || miss="$miss [$s]"
	done
	if [ -z "$miss" ]; then
		echo "ok plot: $name"
	else
		echo "FAIL plot: $name: not in the PDF's text:$miss; it has: $(cut -c1-400 "$W/text")"
	fi
}

# ---- replay --plot: swap-in latency and device utilisation ----------------
# The sample on 2s-pmem2 (its header's machine) with four policies: three
# place every swap-out on pmem0 and decide alike, page-nid-strict on pmem1
# (README.md's table): four curves, and a bar per policy on its device
# (the others' are 0 % and draw nothing).
P=reclaimer-nid,page-nid,page-nid-strict,hybrid
$SR "$SAMPLE" -p $P -f json -o "$W/r.json" --plot="$W/r.svg" 2>"$W/err"
check "replay --plot=FILE.svg: status 0, the report too" "0 yes" "$? $(test -s "$W/r.json" && echo yes)"
check "replay --plot=FILE.svg is an SVG of 800 x 820 px" 'width="800px" height="820px"' \
	"$(grep -o 'width="[0-9]*px" height="[0-9]*px"' "$W/r.svg" | head -1)"
check "replay plot: four curves, one per policy, in four colours" "4 4" \
	"$(curves "$W/r.svg" | wc -l) $(curves "$W/r.svg" | sort -u | wc -l)"
# Fills: the two legends' swatches (8) and the four bars.
check "replay plot: four utilisation bars (and the legends' 8 swatches)" 12 "$(fills "$W/r.svg" | wc -l)"
rsvg-convert -f png -o "$W/r-svg.png" "$W/r.svg" 2>"$W/err"
set -- $(look "$W/r-svg.png")
check "replay plot's SVG renders (rsvg-convert) at 800 x 820" "800 820" "$1 $2"
[ "${3:-0}" -ge 30 ] && echo "ok plot: replay plot's SVG is not blank ($3 per mille inked)" ||
	echo "FAIL plot: replay plot's SVG renders nearly blank: $3 per mille inked"
check "replay plot's SVG shows the four policies' colours" 4 "${4:-}"
$SR "$SAMPLE" -p $P -o "$W/r.txt" --plot="$W/r.png" 2>"$W/err"
check "replay --plot=FILE.png: status 0" 0 $?
set -- $(look "$W/r.png")
check "replay --plot=FILE.png: 800 x 820, inked, the four colours" "800 820 yes 4" \
	"$1 $2 $([ "${3:-0}" -ge 30 ] && echo yes || echo "no ($3)") $4"
$SR "$SAMPLE" -p $P -o "$W/r.txt" --plot="$W/r.pdf" 2>"$W/err"
check "replay --plot=FILE.pdf: status 0, a PDF" "0 %PDF" "$? $(head -c 4 "$W/r.pdf")"
has "replay plot's labels: title, axes with units, decade ticks, legend, devices" "$W/r.pdf" \
	"Swap-in latency and device utilisation by policy" \
	"swap-in latency (simulated; log scale)" "cumulative share of swap-ins (%)" \
	"1 µs" "10 µs" "100 µs" "busy (% of the run)" \
	"reclaimer-nid (baseline)" "page-nid-strict" "same curve as reclaimer-nid" \
	"pmem0" "pmem1" "predictions, not measurements"
$SR "$SAMPLE" -p $P -o "$W/r2.txt" --plot="$W/r2.pdf" 2>"$W/err"
cmp -s "$W/r.pdf" "$W/r2.pdf" && echo "ok plot: a plot depends only on its inputs (two PDFs, the same bytes)" ||
	echo "FAIL plot: two replays of the same trace drew different PDFs"
cmp -s "$W/r.txt" "$W/r2.txt" && $SR "$SAMPLE" -p $P | cmp -s - "$W/r.txt" &&
	echo "ok plot: the report is the same with --plot" ||
	echo "FAIL plot: --plot changed the report"

# ---- stat --plot: the timeline ----------------------------------------------
# Two vmstat logs: one curve each in each panel (swap-out, swap-in).
V=$T/data/vmstat
$SR stat "$V/plain.log" "$V/timestamp.log" --plot="$W/t.svg" >"$W/t.txt" 2>"$W/err"
check "stat --plot=FILE.svg: status 0, stat's text as without it" "0 yes" \
	"$? $($SR stat "$V/plain.log" "$V/timestamp.log" 2>/dev/null | cmp -s - "$W/t.txt" && echo yes)"
check "stat plot: two curves per panel, one per trace, in two colours" "4 2" \
	"$(curves "$W/t.svg" | wc -l) $(curves "$W/t.svg" | sort -u | wc -l)"
rsvg-convert -f png -o "$W/t-svg.png" "$W/t.svg" 2>"$W/err"
set -- $(look "$W/t-svg.png")
check "stat plot's SVG renders at 800 x 650, inked, the two traces' colours" "800 650 yes 2" \
	"$1 $2 $([ "${3:-0}" -ge 20 ] && echo yes || echo "no ($3)") $4"
$SR stat --timeline=0.5 "$V/plain.log" --plot="$W/t.png" >/dev/null 2>"$W/err"
set -- $(look "$W/t.png")
check "stat --timeline --plot=FILE.png: 800 x 650, inked, one trace's colour" "800 650 yes 1" \
	"$1 $2 $([ "${3:-0}" -ge 20 ] && echo yes || echo "no ($3)") $4"
$SR stat --timeline "$V/plain.log" --plot="$W/t.pdf" >/dev/null 2>"$W/err"
has "stat plot's labels: title, both panels' rates with a unit, time axis, the trace" "$W/t.pdf" \
	"Swap-out and swap-in over time" "swap-out (MiB/s)" "swap-in (MiB/s)" \
	"time from the first bucket (s)" "plain.log" "buckets of 1 s" "no replay"

# ---- plot: a sweep's rows -----------------------------------------------------
# Rows of known deltas: two traces on two machines, the baseline and two
# policies: a bar per machine and policy (4), a dot per row but the
# baseline's (8), a legend of two.
# A row as a sweep writes it (every field of its identity and figures: plot
# reads rows with the sweep's own reader, src/sweep/rows.c).
ident() { # TRACE MACHINE POLICY: a row's unit and identity
	printf '{"unit": 0, "tool_version": "0.1.0", "trace": "%s", "trace_hash": null, "machine": "%s", "machine_hash": null, "machine_source": "-m", "machine_path": null, "policy": "%s", "policy_hash": null, "baseline": "reclaimer-nid", "baseline_hash": null, "slots_cache": true, "kernel": "6.6", "readahead": "auto;page-cluster=3;window=adaptive;holes=skip;memory=0", "reorder_window": 65536, "uncertainty": 0, "uncertainty_range": null, "input_format": "auto", "max_errors": 0, "plug": true, "node_map": null' "$@"
}
row() { # TRACE MACHINE POLICY DELTA
	ident "$1" "$2" "$3"
	printf ', "status": "ok", "events": 10, "throughput_kib_s": 100.0, "delta_pct": %s, "makespan_ns": 1000, "swapouts": 5, "swapins": 5, "unmatched_swapins": 0, "swap_full": 0, "moved_out_pct": 0.000, "swapin_lat_ns": {"mean": 100, "p50": 100, "p90": 100, "p99": 100}, "schema": "swapreplay-sweep/2"}\n' "$4"
}
{
	for t in a.swt b.swt; do
		for m in 2s-nvme2 2s-pmem2; do
			row $t $m reclaimer-nid 0
			row $t $m page-nid-strict -$(( ${#m} + ${#t} ))
			row $t $m hybrid 3.5
		done
	done
} >"$W/rows.jsonl"
$SR plot "$W/rows.jsonl" -o "$W/s.svg" 2>"$W/err"
check "plot RESULT -o FILE.svg: status 0" 0 $?
check "plot: four bars and two legend swatches, in two colours" "6 2" \
	"$(fills "$W/s.svg" | wc -l) $(fills "$W/s.svg" | sort -u | wc -l)"
check "plot: a dot per trace, policy and machine (8)" 8 \
	"$(grep -c 'fill:rgb(100%,100%,100%);fill-opacity:1;stroke-width:1;' "$W/s.svg")"
rsvg-convert -f png -o "$W/s-svg.png" "$W/s.svg" 2>"$W/err"
set -- $(look "$W/s-svg.png")
check "plot's SVG renders at 800 x 540, inked, two policies' colours" "800 540 yes 2" \
	"$1 $2 $([ "${3:-0}" -ge 20 ] && echo yes || echo "no ($3)") $4"
# A real sweep: the sample on two machines, four policies.
$SR sweep "$SAMPLE" -m 2s-pmem2,2s-nvme2 -p $P -o "$W/sweep.jsonl" >/dev/null 2>&1
$SR plot "$W/sweep.jsonl" -o "$W/s.png" 2>"$W/err"
set -- $(look "$W/s.png")
check "plot of a sweep -o FILE.png: status 0, 800 x 540, inked" "800 540 yes" \
	"$1 $2 $([ "${3:-0}" -ge 20 ] && echo yes || echo "no ($3)")"
$SR plot "$W/sweep.jsonl" -o "$W/s.pdf" 2>"$W/err"
has "plot's labels: title with the baseline, delta axis, machines, policies" "$W/s.pdf" \
	"Throughput delta against reclaimer-nid, by machine" "throughput delta (%; + faster)" \
	"2s-pmem2" "2s-nvme2" "page-nid-strict" "hybrid" "1 trace x 2 machines" "-10 %"
# The sweep measured each delta's timing noise (--noise=auto, the
# default): a band of +- it on each dot, and the deltas within it (on
# 2s-nvme2 page-nid-strict and hybrid, -0.25 % within +-1.69 %, on
# kernel 6.2: on the default 6.6 none is, docs/MODEL.md E3) hollow, the
# others filled, said in the footer; with --noise=0, none of it.
$SR sweep "$SAMPLE" -m 2s-pmem2,2s-nvme2 -p $P --kernel=6.2 -o "$W/sweepk.jsonl" >/dev/null 2>&1
$SR sweep "$SAMPLE" -m 2s-pmem2,2s-nvme2 -p $P --noise=0 -o "$W/sweep0.jsonl" >/dev/null 2>&1
$SR plot "$W/sweepk.jsonl" -o "$W/sk.pdf" 2>>"$W/err"
$SR plot "$W/sweep0.jsonl" -o "$W/s0.pdf" 2>>"$W/err"
$SR plot "$W/sweepk.jsonl" -o "$W/sn.svg" 2>>"$W/err"
$SR plot "$W/sweep0.jsonl" -o "$W/s0.svg" 2>>"$W/err"
has "plot of a sweep with --noise: its footer says what the bands and hollow dots are" "$W/sk.pdf" \
	"grey bands: +- each delta's timing noise; hollow dots: no difference (within noise) (2 of 6)"
text "$W/s0.pdf" >"$W/text0"
check "plot of a sweep with --noise: hollow dots within the noise, filled beyond; none of it with --noise=0" \
	"2 4 0 6 no" \
	"$(grep -c 'fill:rgb(100%,100%,100%);fill-opacity:1;stroke-width:1;' "$W/sn.svg") $(grep -c 'fill:rgb(15%,15%,15%);fill-opacity:1;stroke-width:1;' "$W/sn.svg") $(grep -c 'fill:rgb(15%,15%,15%);fill-opacity:1;stroke-width:1;' "$W/s0.svg") $(grep -c 'fill:rgb(100%,100%,100%);fill-opacity:1;stroke-width:1;' "$W/s0.svg") $(grep -q 'timing noise' "$W/text0" && echo yes || echo no)"
set -- $(look "$W/s.png")
check "plot with --noise: the PNG still renders, inked" "800 540 yes" \
	"$1 $2 $([ "${3:-0}" -ge 20 ] && echo yes || echo "no ($3)")"
# Rows in error (a trace that is missing) are left out and said so.
$SR sweep "$SAMPLE" "$W/missing.csv" -m 2s-nvme2 -p hybrid -o "$W/mixed.jsonl" >/dev/null 2>&1
$SR plot "$W/mixed.jsonl" -o "$W/m.pdf" 2>"$W/err"
check "plot with rows in error: status 0, said on stderr and in the chart" "0 yes yes" \
	"$? $(grep -q '2 of 4 rows are in error' "$W/err" && echo yes) $(text "$W/m.pdf" | grep -q '2 rows in error left out' && echo yes)"

# A trace with no swap activity: its rows have no delta, left out and said so.
{
	cat "$W/rows.jsonl"
	ident quiet.log 2s-nvme2 hybrid
	printf ', "status": "no swap activity", "events": 0, "schema": "swapreplay-sweep/2"}\n'
} >"$W/quiet.jsonl"
$SR plot "$W/quiet.jsonl" -o "$W/q.pdf" 2>"$W/err"
check "plot with a row of no swap activity: status 0, said on stderr and in the chart" "0 yes yes" \
	"$? $(grep -q '1 of 13 rows are of traces with no swap activity' "$W/err" && echo yes) $(text "$W/q.pdf" | grep -q '1 of traces with no swap activity left out' && echo yes)"

# ---- plot: a row per identity, a setting per chart ------------------------------
# A row given again (a file and a subset of it) is counted once: the chart
# is the file's alone, byte for byte, and the doubles are said.
head -n 3 "$W/sweep.jsonl" >"$W/sub.jsonl"
$SR plot "$W/sweep.jsonl" -o "$W/one.svg" 2>"$W/err"
$SR plot "$W/sweep.jsonl" "$W/sub.jsonl" -o "$W/two.svg" 2>"$W/err"
check "plot FILE SUBSET: status 0, the chart of FILE alone, the doubles said" "0 yes yes" \
	"$? $(cmp -s "$W/one.svg" "$W/two.svg" && echo yes) $(grep -q '3 rows were given more than once' "$W/err" && echo yes)"
# The same identity with another delta: refused, naming both rows.
{ cat "$W/sweep.jsonl"; sed -n 2p "$W/sweep.jsonl" | sed 's/"delta_pct": [^,]*/"delta_pct": 99.5/'; } >"$W/other.jsonl"
n=$(($(wc -l <"$W/sweep.jsonl") + 1))
$SR plot "$W/other.jsonl" -o "$W/o.svg" 2>"$W/err"
check "plot of two rows of one identity, other figures: status 3, both named, no chart" "3 yes no" \
	"$? $(grep -qF "other.jsonl:$n: the result of the same trace, machine, policy and options as $W/other.jsonl:2, with other figures" "$W/err" && echo yes) $(test -e "$W/o.svg" && echo yes || echo no)"
# Rows of another kernel (a run's setting): refused, saying which setting.
$SR sweep "$SAMPLE" -m 2s-nvme2 -p hybrid --kernel=6.15 -o "$W/k615.jsonl" >/dev/null 2>&1
$SR plot "$W/sweep.jsonl" "$W/k615.jsonl" -o "$W/k.svg" 2>"$W/err"
check "plot of rows of two kernels: status 3, the setting named, no chart" "3 yes no" \
	"$? $(grep -qF "k615.jsonl:1: a row of other settings than $W/sweep.jsonl:1's (kernel 6.15, not recorded): plot the rows of one setting at a time" "$W/err" && echo yes) $(test -e "$W/k.svg" && echo yes || echo no)"
# One machine name of two descriptions (another machine_hash): refused.
sed -n 1p "$W/sweep.jsonl" | sed 's/"machine_hash": "fnv1a64:[0-9a-f]*"/"machine_hash": "fnv1a64:0000000000000000"/' >"$W/mh.jsonl"
$SR plot "$W/sweep.jsonl" "$W/mh.jsonl" -o "$W/mh.svg" 2>"$W/err"
check "plot of one machine name with two hashes: status 3, said" "3 yes" \
	"$? $(grep -q "mh.jsonl:1: machine 2s-pmem2 with machine_hash fnv1a64:0000000000000000, not fnv1a64:[0-9a-f]* as at $W/sweep.jsonl:1: two machines of one name in one chart" "$W/err" && echo yes)"

# ---- plot reads rows as --resume and merge do: src/sweep/rows.c's reader ---------
# CSV rows are plotted (plot refused them: "CSV rows: plot reads JSON
# lines"): the chart of a sweep's CSV rows is its JSON lines' byte for
# byte, from standard input too, and a row given in both formats is one row.
$SR sweep "$SAMPLE" -m 2s-pmem2,2s-nvme2 -p $P -f csv -o "$W/sweep.csv" >/dev/null 2>&1
$SR plot "$W/sweep.csv" -o "$W/csv.svg" 2>"$W/err"
rc=$?
$SR plot - -o "$W/stdin.svg" <"$W/sweep.csv" 2>>"$W/err"
$SR plot "$W/sweep.jsonl" "$W/sweep.csv" -o "$W/both.svg" 2>"$W/err2"
check "plot of CSV rows: status 0, the JSON rows' chart (a file, stdin); both formats: each row once" \
	"0 yes yes yes yes" "$rc $(cmp -s "$W/one.svg" "$W/csv.svg" && echo yes) $(cmp -s "$W/one.svg" "$W/stdin.svg" && echo yes) $(cmp -s "$W/one.svg" "$W/both.svg" && echo yes) $(grep -q '8 rows were given more than once' "$W/err2" && echo yes)"
# A row the reader refuses is refused by plot and merge alike, with the
# same FILE:LINE: message: a figure missing, a field of the identity
# missing or not of its kind, a status of none of the three, a schema of
# another version (plot took all but the first, or called them "not a
# sweep's result row").
n=0 k=0
for e in 's/"makespan_ns": [0-9]*, //' 's/"tool_version": "[^"]*", //' 's/"plug": true/"plug": "yes"/' \
	's/"status": "ok"/"status": "fine"/' 's/"schema": "[^"]*"/"schema": "swapreplay-sweep\/1"/'; do
	k=$((k + 1))
	sed "2$e" "$W/sweep.jsonl" >"$W/bad$k.jsonl"
	$SR merge "$W/bad$k.jsonl" -o "$W/bad$k.m.jsonl" 2>"$W/merr"
	mrc=$?
	$SR plot "$W/bad$k.jsonl" -o "$W/bad$k.svg" 2>"$W/err"
	prc=$?
	m=$(sed -n "s|.*bad$k.jsonl:2: ||p" "$W/merr")
	[ $mrc = 3 ] && [ $prc = 3 ] && [ -n "$m" ] && [ "$(cat "$W/err")" = "swapreplay: $W/bad$k.jsonl:2: $m" ] &&
		[ ! -e "$W/bad$k.svg" ] && n=$((n + 1)) || echo "  (bad$k: merge $mrc [$(cat "$W/merr")], plot $prc [$(cat "$W/err")])"
done
check "plot and merge refuse the same 5 bad rows, status 3, with the same FILE:LINE: message" "5" "$n"
# A last row cut short: said alike (plot called it "not a sweep's result row").
head -c $(($(wc -c <"$W/sweep.jsonl") - 20)) "$W/sweep.jsonl" >"$W/cut.jsonl"
$SR merge "$W/cut.jsonl" -o "$W/cut.m.jsonl" 2>"$W/merr"
$SR plot "$W/cut.jsonl" -o "$W/cut.svg" 2>"$W/err"
check "plot and merge of a last row cut short: status 3, FILE:8: a row cut short, both" "3 yes yes" \
	"$? $(grep -qF "$W/cut.jsonl:8: a row cut short (a sweep killed while writing it)" "$W/err" && echo yes) $(grep -qF "$W/cut.jsonl:8: a row cut short (a sweep killed while writing it)" "$W/merr" && echo yes)"
# Rows of the generations before (JSON without machine_source,
# machine_path, uncertainty_range, node_map, the noise fields and
# kernel_modelled; CSV
# under the header of the first rows of /2), which merge takes, are
# plotted: the same chart as of rows without noise replicas (--noise=0:
# such rows were replayed without).
$SR sweep "$SAMPLE" -m 2s-pmem2,2s-nvme2 -p $P -f csv --noise=0 -o "$W/sweep0.csv" >/dev/null 2>&1
sed 's/, "machine_source": [^,]*, "machine_path": [^,]*,/,/; s/, "uncertainty_range": null//; s/, "node_map": null//; s/, "noise": "0", "noise_jitter_ns": null//; s/, "noise_replicas": 0, "delta_noise_pct": null, "delta_in_noise": null//; s/, "kernel_modelled": "[^"]*"//' \
	"$W/sweep0.jsonl" >"$W/gen0.jsonl"
added=' machine_source machine_path uncertainty_range node_map delta_pct_min delta_pct_max agree noise noise_jitter_ns noise_replicas delta_noise_pct delta_in_noise kernel_modelled '
awk -F, -v OFS=, -v a="$added" 'NR == 1 { for (i = 1; i <= NF; i++) if (index(a, " " $i " ")) x[i] = 1 }
	{ s = ""; for (i = 1; i <= NF; i++) if (!(i in x)) s = s (s == "" ? "" : OFS) $i; print s }' \
	"$W/sweep0.csv" >"$W/gen0.csv"
$SR merge "$W/gen0.jsonl" -o "$W/gen0.m.jsonl" 2>"$W/merr" &&
	$SR merge "$W/gen0.csv" -o "$W/gen0.m.csv" 2>>"$W/merr"
mrc=$?
$SR plot "$W/gen0.jsonl" -o "$W/gen0.svg" 2>"$W/err" &&
	$SR plot "$W/gen0.csv" -o "$W/gen0c.svg" 2>>"$W/err"
check "rows of the first generation of /2 (JSON, CSV): merge takes them, plot draws them as the newest" \
	"0 0 0 0 yes yes" "$mrc $? $(grep -c 'node_map\|machine_source\|noise\|kernel_modelled' "$W/gen0.jsonl") $(head -1 "$W/gen0.csv" | grep -c 'node_map\|machine_source\|noise\|kernel_modelled') $(cmp -s "$W/s0.svg" "$W/gen0.svg" && echo yes) $(cmp -s "$W/s0.svg" "$W/gen0c.svg" && echo yes)"
# A sweep's rows in error whose machine was never known (a trace missing,
# no -m: "machine": null) are rows in error, left out and said (plot
# refused the file: "a row without its 'machine'").
$SR sweep "$SAMPLE" "$W/gone.csv" -p hybrid -o "$W/nullm.jsonl" >/dev/null 2>&1
$SR plot "$W/nullm.jsonl" -o "$W/nullm.svg" 2>"$W/err"
check "plot of a sweep's rows in error of a machine never known: status 0, left out, said" "0 yes yes" \
	"$? $(grep -q '"machine": null' "$W/nullm.jsonl" && echo yes) $(grep -q '2 of 4 rows are in error' "$W/err" && echo yes)"

# ---- labels: UTF-8 cut between characters, any byte shown -----------------------
# cairo draws valid UTF-8 only (else no chart at all, issue 29): labels are
# cut on characters, never within one, and a byte that is no UTF-8 (a
# Latin-1 file name) is shown as \xHH.  A 330-byte path of two-byte
# characters, its legend and title cut at 255 bytes before.
E=$(printf '\303\251')
rep() { # STRING N: STRING N times
	i=0
	while [ $i -lt $2 ]; do printf '%s' "$1"; i=$((i + 1)); done
}
long=$(rep "$E" 100)
f330="$long/a$(rep "$E" 62).log" # 200 + 1 + 1 + 124 + 4 = 330 bytes
mkdir -p "$W/$long"
cp "$V/plain.log" "$W/$f330"
(cd "$W" && $SR stat "$f330" "$V/plain.log" --plot="$W/u.pdf" >/dev/null 2>"$W/err")
check "stat --plot of a 330-byte UTF-8 path: status 0, a PDF" "0 %PDF" "$? $(head -c 4 "$W/u.pdf" 2>/dev/null)"
has "stat plot of a long UTF-8 path: its legend keeps its end, whole characters" "$W/u.pdf" \
	"$E$E$E.log" "plain.log"
lat="$W/caf$(printf '\351').log"
cp "$V/plain.log" "$lat"
$SR stat "$lat" --plot="$W/l.pdf" >/dev/null 2>"$W/err"
check "stat --plot of a Latin-1 file name: status 0" 0 $?
has "stat plot of a Latin-1 file name: its byte shown as \\xe9" "$W/l.pdf" 'caf\xe9.log'
# Rows of a long UTF-8 machine name (three-byte characters) and policy name.
M=$(i=0; while [ $i -lt 90 ]; do printf '\342\202\254'; i=$((i + 1)); done)
{
	row a.swt "$M" reclaimer-nid 0
	row a.swt "$M" "p-$long$long" -2.5
} >"$W/utf.jsonl"
$SR plot "$W/utf.jsonl" -o "$W/utf.pdf" 2>"$W/err"
check "plot of rows with long UTF-8 machine and policy names: status 0, a PDF" "0 %PDF" \
	"$? $(head -c 4 "$W/utf.pdf" 2>/dev/null)"
has "plot of long UTF-8 names: both shown, cut with an ellipsis" "$W/utf.pdf" \
	"$(printf '\342\202\254\342\202\254')" "$E$E$E" "…"
$SR plot "$W/utf.jsonl" -o "$W/utf.png" 2>"$W/err"
check "plot of long UTF-8 names as PNG: status 0" 0 $?

# ---- values an axis cannot reach -------------------------------------------------
# Deltas of +-1e308 (issue 29: a "-nan %" tick label, the span overflowing):
# the axis stays finite, up to +-1e300 (CHART_VALUE_MAX), with short tick
# labels; the deltas beyond are drawn at its end, and the footer says so.
{
	row a.swt 2s-nvme2 reclaimer-nid 0
	row a.swt 2s-nvme2 hybrid 1e308
	row b.swt 2s-nvme2 hybrid -1e308
	row a.swt 2s-nvme2 page-nid-strict 5
} >"$W/huge.jsonl"
$SR plot "$W/huge.jsonl" -o "$W/huge.pdf" 2>"$W/err"
check "plot of deltas of 1e308: status 0, no nan nor inf in its labels" "0 0" \
	"$? $(text "$W/huge.pdf" | grep -ci 'nan\|inf')"
has "plot of deltas of 1e308: the axis's ends, the clipping said" "$W/huge.pdf" \
	"1e+300 %" "-1e+300 %" "0 %" "2 deltas beyond 1e+300 % drawn at the axis's end"
$SR plot "$W/huge.jsonl" -o "$W/huge.svg" 2>"$W/err"
check "plot of deltas of 1e308 as SVG: no coordinate nan nor inf" 0 \
	"$(grep -ci 'nan\|inf' "$W/huge.svg")"

# ---- refusals -------------------------------------------------------------------
$SR "$SAMPLE" --plot="$W/x.jpg" >"$W/out" 2>"$W/err"
check "replay --plot=FILE.jpg: refused, status 2, nothing written" "2 no no" \
	"$? $(test -s "$W/out" && echo yes || echo no) $(test -e "$W/x.jpg" && echo yes || echo no)"
grep -qF "replay: '$W/x.jpg': a plot is an .svg, .png or .pdf file, told by its name" "$W/err" &&
	echo "ok plot: a wrong extension's message names the three" ||
	echo "FAIL plot: a wrong extension's message: $(cat "$W/err")"
$SR stat "$V/plain.log" --plot=- >/dev/null 2>"$W/err"
check "stat --plot=- (no extension): status 2" "2 yes" "$? $(grep -q 'a plot is an .svg' "$W/err" && echo yes)"
$SR plot "$W/rows.jsonl" -o "$W/x.gif" 2>"$W/err"
check "plot -o FILE.gif: status 2" 2 $?
$SR plot "$W/rows.jsonl" 2>"$W/err"
check "plot without -o: status 2" "2 yes" "$? $(grep -q 'needs -o FILE.svg' "$W/err" && echo yes)"
$SR "$SAMPLE" -o "$W/same.svg" --plot="$W/same.svg" >/dev/null 2>"$W/err"
check "replay -o F --plot=F: refused, status 2" "2 yes" "$? $(grep -q 'name the same file' "$W/err" && echo yes)"
$SR plot "$W/r.json" -o "$W/c.svg" 2>"$W/err"
check "plot of a replay report: status 3, FILE:1: not a sweep's row" "3 yes" \
	"$? $(grep -qF "$W/r.json:1: not a sweep's result row" "$W/err" && echo yes)"
cp "$W/s.svg" "$W/s.before"
$SR plot "$SAMPLE" -o "$W/s.svg" 2>"$W/err"
check "plot of a trace: status 3, and the plot there before stays" "3 yes" \
	"$? $(cmp -s "$W/s.svg" "$W/s.before" && echo yes)"
