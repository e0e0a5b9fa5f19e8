#!/bin/sh
# --uncertainty: the delta over perturbed machines.
S="$T/../traces/sample.swt.zst"
$SR "$S" -p page-nid-strict -u 6 -f json >"$W/a.json" 2>"$W/err" &&
	$SR "$S" -p page-nid-strict -u 6 -f json >"$W/b.json" 2>>"$W/err"
if cmp -s "$W/a.json" "$W/b.json"; then
	echo "ok uncertainty: seeded, the same report twice"
else
	echo "FAIL uncertainty: two runs differ: $(cat "$W/err")"
fi
# The baseline against itself: always 0, every variant agrees.
grep -q '"uncertainty": {"variants": 6, "range_pct": 25, "delta_pct_min": 0.000, "delta_pct_max": 0.000, "agree": 6}' "$W/a.json" &&
	echo "ok uncertainty: the baseline's own range is 0 and all 6 agree" ||
	echo "FAIL uncertainty: baseline entry: $(grep uncertainty "$W/a.json" | head -1)"
# page-nid-strict on the sample's PMem machine: the nominal delta lies
# inside its range.
awk '/"name": "page-nid-strict"/ { p = 1 } p && /"delta_pct"/ { match($0, /"delta_pct": -?[0-9.]+/); d = substr($0, RSTART + 13, RLENGTH - 13) }
     p && /"uncertainty"/ { match($0, /"delta_pct_min": -?[0-9.]+/); lo = substr($0, RSTART + 17, RLENGTH - 17);
                            match($0, /"delta_pct_max": -?[0-9.]+/); hi = substr($0, RSTART + 17, RLENGTH - 17); exit }
     END { if (lo + 0 <= d + 0 && d + 0 <= hi + 0 && lo + 0 < hi + 0) print "ok uncertainty: nominal " d " within [" lo ", " hi "]";
           else print "FAIL uncertainty: nominal " d " not within [" lo ", " hi "]" }' "$W/a.json"
# Markdown and CSV carry the range; without -u they do not.
$SR "$S" -p page-nid-strict -u 3 -f markdown | grep -q '| delta range | agree |' &&
	echo "ok uncertainty: markdown has the range columns" || echo "FAIL uncertainty: markdown columns"
$SR "$S" -p page-nid-strict -u 3 --noise=0 -f csv | head -1 | grep -q ',variants,delta_pct_min,delta_pct_max,agree,caveats$' &&
	echo "ok uncertainty: csv has the range columns" || echo "FAIL uncertainty: csv columns"
$SR "$S" -p page-nid-strict -f csv | head -1 | grep -q 'variants' &&
	echo "FAIL uncertainty: csv has range columns without -u" || echo "ok uncertainty: no range columns without -u"
$SR "$S" -u 201 2>/dev/null; [ $? -eq 2 ] && echo "ok uncertainty: -u 201 is a usage error" ||
	echo "FAIL uncertainty: -u 201 accepted"
