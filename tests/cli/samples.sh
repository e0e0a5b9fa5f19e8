#!/bin/sh
# Every sample in traces/ holds the same events: each converts to the same
# CSV, byte for byte.
S="$T/../traces"
$SR convert "$S/sample.csv" "$W/ref.csv" 2>/dev/null || echo "FAIL samples: sample.csv does not convert"
for f in sample.csv.zst sample.jsonl sample.jsonl.zst sample.swt sample.swt.zst; do
	if $SR convert "$S/$f" "$W/$f.csv" 2>"$W/err" && cmp -s "$W/ref.csv" "$W/$f.csv"; then
		echo "ok samples: $f reads to the same events as sample.csv"
	else
		echo "FAIL samples: $f differs from sample.csv: $(head -c 300 "$W/err")"
	fi
done
n=$(tail -n +2 "$W/ref.csv" | wc -l)
[ "$n" -eq 3958 ] && echo "ok samples: 3958 events" || echo "FAIL samples: $n events, expected 3958"
