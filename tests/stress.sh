#!/bin/sh
# make stress: hostile and huge inputs.  Each check prints "ok NAME" or
# "FAIL NAME: why"; the last line counts them.  Peak memory is measured with
# GNU time.  Takes a few minutes.
set -u
SR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# run NAME WANT_STATUS MAX_KIB CMD: status and peak memory of CMD
run() {
	name=$1 want=$2 maxk=$3
	shift 3
	/usr/bin/time -f '%M %e' -o "$W/time" sh -c "$*" >"$W/out" 2>"$W/err"
	rc=$?
	kib=$(cut -d' ' -f1 "$W/time" | tail -1)
	sec=$(cut -d' ' -f2 "$W/time" | tail -1)
	if [ "$rc" = "$want" ] && [ "$kib" -le "$maxk" ]; then
		ok "$name (status $rc, $kib KiB, $sec s)"
	else
		bad "$name: status $rc (want $want), $kib KiB (at most $maxk), $(head -c 300 "$W/err")"
	fi
}
command -v /usr/bin/time >/dev/null || { echo "stress: needs GNU time (apt-get install time)"; exit 1; }

H='ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns'

# A line of 8 MB (an unknown column's value) is read; memory follows the line.
{ echo "$H,note"; printf '1,out,1,0,0,0,0,1,1,0,'; head -c 8000000 /dev/zero | tr '\0' x; echo; } >"$W/long.csv"
run "8 MB line" 0 100000 "$SR stat $W/long.csv"
# A line of 200 MB is refused at 64 MiB without holding it all.
{ echo "$H"; head -c 200000000 /dev/zero | tr '\0' 7; } | zstd -q -1 -c >"$W/huge-line.csv.zst"
run "200 MB line refused" 3 300000 "$SR stat $W/huge-line.csv.zst"
grep -q "line longer than" "$W/err" && ok "200 MB line: says why" || bad "200 MB line: $(cat "$W/err")"

# A decompression bomb: 2 GB of zeros in a few kilobytes, streamed.
head -c 2000000000 /dev/zero | zstd -q -19 -c >"$W/bomb.zst"
echo "bomb: $(wc -c <"$W/bomb.zst") bytes"
run "decompression bomb (binary forced)" 3 300000 "$SR stat --input-format=swt $W/bomb.zst"
run "decompression bomb (auto)" 3 300000 "$SR stat $W/bomb.zst"

# Values at the top of their ranges.
{ echo "$H"; echo "1,out,4294967295,4294967295,0,1,2147483647,18446744073709551615,512,18446744073709551615";
  echo "18446744073709551615,in,4294967295,4294967295,1,0,2147483647,18446744073709551615,1,0"; } >"$W/top.csv"
run "top of ranges: stat" 0 20000 "$SR stat $W/top.csv"
run "top of ranges: convert to swt" 0 20000 "$SR convert $W/top.csv $W/top.swt"
run "top of ranges: machine lacks the device" 3 20000 "$SR $W/top.csv -m 2s-pmem2"
{ echo "$H"; echo "1,out,1,1,1023,1023,0,1,1,0"; } >"$W/node.csv"
run "node 1023: read" 0 20000 "$SR stat $W/node.csv"
run "node 1023: not on a 2-node machine" 3 20000 "$SR $W/node.csv -m 2s-pmem2"

# A million distinct tasks, one swap-out and one swap-in each.
awk -v h="$H" 'BEGIN { print h; for (i = 0; i < 1000000; i++) { printf "%d,out,%d,%d,0,1,0,%d,1,0\n", 2*i, i, i % 64, i; printf "%d,in,%d,%d,0,1,0,%d,1,0\n", 2*i+1, i, i % 64, i } }' |
	zstd -q -c >"$W/pids.csv.zst"
run "a million tasks: stat" 0 200000 "$SR stat $W/pids.csv.zst"
run "a million tasks: replay" 0 1500000 "$SR $W/pids.csv.zst -m 2s-pmem2 -f csv"

# A machine with thousands of devices, a distance matrix of the wrong shape.
awk 'BEGIN { printf "{\"nodes\":[{\"cpus\":1}],\"devices\":["; for (i = 0; i < 5000; i++) printf "%s{\"name\":\"d%d\",\"class\":\"nvme\"}", i ? "," : "", i; print "]}" }' >"$W/many.json"
run "5000 devices refused" 3 50000 "$SR machines $W/many.json"
echo '{"nodes":[{"cpus":1},{"cpus":1}],"distance":[[10,20,30]],"devices":[{"name":"a","class":"nvme"}]}' >"$W/dist.json"
run "distance of the wrong shape refused" 3 20000 "$SR machines $W/dist.json"

# 100 million events through the replay from a pipe: memory must not follow
# the length (the same run at 10 million events for comparison).
for n in 10 100; do
	acc=$((n * 33500))
	run "gen | replay, ~${n}M events" 0 400000 \
		"$SR gen swap-w-rand --tasks=32 --size=64M --limit=1G --accesses=$acc -o - --to=swt | $SR - -m 2s-pmem2 -p reclaimer-nid -f csv"
	eval "kib_$n=\$kib"
done
awk -v a="$kib_10" -v b="$kib_100" 'BEGIN { exit !(b <= a * 1.1) }' &&
	ok "replay memory 10M -> 100M events: $kib_10 -> $kib_100 KiB" ||
	bad "replay memory grew from $kib_10 to $kib_100 KiB between 10M and 100M events"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
