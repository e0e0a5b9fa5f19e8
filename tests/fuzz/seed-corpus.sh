#!/bin/sh
# Regenerate the seed part of the committed fuzz corpus, tests/fuzz/corpus/
# (tests/fuzz/README.md):
#
#   seed-*   small valid samples: traces/sample.* cut to a few records,
#            tests/data/*, the machine presets, hand-written inputs
#   case-*   the data every golden CLI case (tests/cli/cases/*/cmd) builds
#            and hands to swapreplay, and its command line (cli target)
#
# Usage: sh tests/fuzz/seed-corpus.sh [build/swapreplay]
#
# Only seed-* and case-* files are rewritten; crash-* / timeout-* files and
# anything else in the corpus is left alone.  Needs the zstd tool.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
SRB=${1:-build/swapreplay}
SRB=$(cd "$(dirname "$SRB")" && pwd)/$(basename "$SRB")
C=$ROOT/tests/fuzz/corpus
TARGETS="csv jsonl swt zstd machine cli"
[ -x "$SRB" ] || { echo "seed-corpus: no $SRB: run make first" >&2; exit 1; }
command -v zstd >/dev/null || { echo "seed-corpus: needs the zstd tool" >&2; exit 1; }

S=$(mktemp -d "${TMPDIR:-/tmp}/swapreplay-seed.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$S"' EXIT INT TERM; echo "scratch $S" >&2

for t in $TARGETS; do
	mkdir -p "$C/$t"
	find "$C/$t" -maxdepth 1 -type f \( -name 'seed-*' -o -name 'case-*' \) -exec rm -f {} +
done

# put TARGET NAME FILE: add FILE unless the same bytes are already there.
put() {
	for _have in "$C/$1"/*; do
		[ -f "$_have" ] && cmp -s "$_have" "$3" && return 0
	done
	cp "$3" "$C/$1/$2"
}

# ---- seeds: the samples, cut short ---------------------------------------
head -n 21 traces/sample.csv > "$S/sample20.csv"
head -n 20 traces/sample.jsonl > "$S/sample20.jsonl"
# .swt: the header, its machine description and 6 records.
mlen=$(od -An -tu4 -j16 -N4 traces/sample.swt | tr -d ' ')
head -c $((32 + mlen + 6 * 48)) traces/sample.swt > "$S/sample6.swt"
"$SRB" convert "$S/sample20.csv" "$S/sample20-nomachine.swt" 2>/dev/null
"$SRB" convert tests/data/three.csv "$S/three.swt"
"$SRB" convert tests/data/three.csv "$S/three.jsonl"
# every field, optional values absent, CRLF, BOM, quoted fields
printf 'ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns\n1,out,1,2,0,1,0,7,512,0\n2,in,1,,1,0,-1,,1,900\n' > "$S/all-fields.csv"
printf '\357\273\277"lat_ns","op",ts_ns,page_nid,cpu_nid,extra\r\n"5","in",3,1,0,"a\r\nb"\r\n' > "$S/bom-crlf-quoted.csv"
printf '{"ts_ns":1,"op":"out","pid":1,"cpu":2,"cpu_nid":0,"page_nid":1,"dev":0,"offset":7,"nr_pages":512,"lat_ns":0}\n{"ts_ns":2,"op":"in","cpu":null,"cpu_nid":1,"page_nid":0,"offset":null,"x":[1,{"y":2}]}\n' > "$S/all-fields.jsonl"
# the task ops (fork, exit, wait) with their child, among swap events with
# addresses: every field of .swt version 3
printf 'ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns,vaddr,child\n0,fork,1,2,0,0,,,,,,2\n5,out,2,2,0,1,0,7,1,0,4096,\n9,in,2,,1,1,0,7,1,40,4096,\n12,exit,2,3,1,0,-1,,1,0,,\n20,wait,1,,0,0,,,,7,,2\n' > "$S/tasks.csv"
"$SRB" convert "$S/tasks.csv" "$S/tasks.jsonl"
"$SRB" convert "$S/tasks.csv" "$S/tasks.swt"

put csv seed-sample20.csv "$S/sample20.csv"
put csv seed-three.csv tests/data/three.csv
put csv seed-all-fields.csv "$S/all-fields.csv"
put csv seed-bom-crlf-quoted.csv "$S/bom-crlf-quoted.csv"
put jsonl seed-sample20.jsonl "$S/sample20.jsonl"
put jsonl seed-three.jsonl "$S/three.jsonl"
put jsonl seed-all-fields.jsonl "$S/all-fields.jsonl"
put swt seed-sample6.swt "$S/sample6.swt"
put swt seed-sample20-nomachine.swt "$S/sample20-nomachine.swt"
put swt seed-three.swt "$S/three.swt"
put csv seed-tasks.csv "$S/tasks.csv"
put jsonl seed-tasks.jsonl "$S/tasks.jsonl"
put swt seed-tasks.swt "$S/tasks.swt"
# a swap-out's reclaim and a swap-in's fault, each value and unknown,
# among a task op and addresses: every field of .swt version 4
printf 'ts_ns,op,pid,cpu,cpu_nid,page_nid,dev,offset,nr_pages,lat_ns,vaddr,child,reclaim,fault\n0,fork,1,2,0,0,,,,,,2,,\n5,out,2,2,0,1,0,7,1,0,4096,,kswapd,\n6,out,2,2,0,1,0,8,1,0,8192,,direct,\n7,out,2,2,0,1,0,9,1,0,,,,\n9,in,2,,1,1,0,7,1,40,4096,,,write\n10,in,2,,1,1,0,8,1,40,8192,,,read\n11,in,2,,1,1,0,9,1,40,,,,\n' > "$S/ctx.csv"
"$SRB" convert "$S/ctx.csv" "$S/ctx.jsonl"
"$SRB" convert "$S/ctx.csv" "$S/ctx.swt"
put csv seed-ctx.csv "$S/ctx.csv"
put jsonl seed-ctx.jsonl "$S/ctx.jsonl"
put swt seed-ctx.swt "$S/ctx.swt"
for f in sample20.csv three.jsonl sample20.jsonl sample6.swt three.swt tasks.swt ctx.swt; do
	zstd -q -19 -c "$S/$f" > "$S/$f.zst"
	put zstd "seed-$f.zst" "$S/$f.zst"
done
put zstd seed-three.csv.zst tests/data/three.csv.zst
# with a checksum; two frames; a skippable frame first; an empty frame first
zstd -q -3 --check -c "$S/sample20.csv" > "$S/check.zst"
put zstd seed-checksum.csv.zst "$S/check.zst"
head -n 3 "$S/sample20.csv" | zstd -q -c > "$S/f1.zst"
tail -n +4 "$S/sample20.csv" | zstd -q -c > "$S/f2.zst"
cat "$S/f1.zst" "$S/f2.zst" > "$S/two.zst"
put zstd seed-two-frames.csv.zst "$S/two.zst"
printf '\120\052\115\030\004\000\000\000skip' | cat - "$S/f1.zst" > "$S/skip.zst"
put zstd seed-skippable-first.csv.zst "$S/skip.zst"
: | zstd -q -c | cat - "$S/f1.zst" > "$S/empty-first.zst"
put zstd seed-empty-frame-first.csv.zst "$S/empty-first.zst"
# Large once decompressed, small compressed: over the source's 2 MiB window
# and the decompression thread's 1 MiB chunks (several blocks per frame),
# a line longer than the window, and the same cut short or damaged.
awk 'BEGIN { pad = "x"; while (length(pad) < 10000) pad = pad pad; pad = substr(pad, 1, 10000)
	print "ts_ns,op,cpu_nid,page_nid,pad"
	for (i = 0; i < 230; i++) printf "%d,out,0,1,%s\n", i, pad }' > "$S/big-rows.csv"
awk 'BEGIN { pad = " "; while (length(pad) < 4608000) pad = pad pad; pad = substr(pad, 1, 4608000)
	print "{\"ts_ns\":1,\"op\":\"out\",\"cpu_nid\":0,\"page_nid\":0}"
	print "{\"ts_ns\":2," pad "\"op\":\"in\",\"cpu_nid\":0,\"page_nid\":0}" }' > "$S/long-line.jsonl"
awk 'BEGIN { print "ts_ns,op,cpu_nid,page_nid,offset"; for (i = 0; i < 60000; i++) print "7,out,0,1,3" }' > "$S/many.csv"
"$SRB" convert "$S/many.csv" "$S/big-records.swt"
for f in big-rows.csv long-line.jsonl big-records.swt; do
	zstd -q -19 -c "$S/$f" > "$S/$f.zst"
	put zstd "seed-$f.zst" "$S/$f.zst"
done
n=$(wc -c < "$S/big-rows.csv.zst")
head -c $((n * 2 / 3)) "$S/big-rows.csv.zst" > "$S/cut.zst"
put zstd seed-big-rows-truncated.csv.zst "$S/cut.zst"
cp "$S/big-rows.csv.zst" "$S/bad.zst"
printf '\125' | dd of="$S/bad.zst" bs=1 seek=$((n / 2)) conv=notrunc 2>/dev/null
put zstd seed-big-rows-corrupt.csv.zst "$S/bad.zst"
n=$(wc -c < "$S/long-line.jsonl.zst")
head -c $((n * 2 / 3)) "$S/long-line.jsonl.zst" > "$S/cut.zst"
put zstd seed-long-line-truncated.jsonl.zst "$S/cut.zst"
# plain inputs: the target compresses them itself
put zstd seed-plain-sample20.csv "$S/sample20.csv"
put zstd seed-plain-sample6.swt "$S/sample6.swt"

# machines: the presets, the test machine, one with every key
for m in $("$SRB" machines | awk 'NF && $1 !~ /^Default/ { print $1 }'); do
	"$SRB" machines "$m" --json > "$S/m.json"
	put machine "seed-preset-$m.json" "$S/m.json"
done
for f in tests/data/machines/*.json; do
	put machine "seed-data-$(basename "$f")" "$f"
done
cat > "$S/every-key.json" <<'EOF'
{"schema": "swapreplay-machine/1", "name": "every-key", "description": "d", "comment": "c",
 "nodes": [{"cpus": 2, "comment": "n"}, {"cpus": 0}, {"cpus": 1}],
 "distance": [[10, 21, 31], [21, 10, 21], [31, 21, 10]],
 "interconnect": {"bw_gb_s": 20.5, "latency_ns": 70, "source": "s"},
 "memory": {"read_local_gb_s": 7, "read_remote_gb_s": 4, "write_local_gb_s": 4.5, "write_remote_gb_s": 2},
 "cpu": {"reclaim_ns": 1000, "reclaim_page_ns": 2000, "fault_ns": 1500, "swap_lock_ns": 1900, "swap_slot_ns": 10, "lru_lock_ns": 900, "lru_refault_ns": 4000, "swap_lock_other_ns": 250, "swap_cache_lock_ns": 1300, "remote_submit_ns": 100},
 "devices": [
  {"name": "n", "class": "nvme", "node": 0, "priority": 5, "size_pages": 4096, "read_lat_us": 80, "write_lat_us": 20, "read_iops": 400000, "write_iops": 30000, "read_bw_gb_s": 3, "write_bw_gb_s": 1, "sources": ["x"]},
  {"name": "s", "class": "ssd", "node": -1, "priority": "auto", "size_gib": 0.5},
  {"name": "h", "class": "hdd", "node": 2, "seek_ms": 8, "read_bw_gb_s": 0.2},
  {"name": "p", "class": "pmem", "node": 1, "read_local_gb_s": 3, "read_remote_gb_s": 2.9, "write_local_gb_s": 4, "write_remote_gb_s": 1.7, "media_read_local_gb_s": 37, "media_read_remote_gb_s": 34, "media_write_local_gb_s": 7.5, "media_write_remote_gb_s": 3.3},
  {"name": "z", "class": "zram", "compress_gb_s": 0.8, "decompress_gb_s": 5, "compress_ratio": 2.1}
 ]}
EOF
put machine seed-every-key.json "$S/every-key.json"

# command lines (argv after argv[0], NUL-terminated)
i=0
while IFS= read -r line; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	set -f; set -- $line; set +f
	printf '%s\0' "$@" > "$S/argv"
	put cli "seed-argv-$i" "$S/argv"
done <<'EOF'
trace.swt.zst --policy=hybrid
trace.csv.zst --machine=2s-pmem2 --policy=all --format=markdown
replay t.swt -p hybrid,page-nid -m2s-nvme2 --baseline reclaimer-nid -fjson -o - --reorder-window=4096 --slots-cache=off
convert in.csv out.swt --to=swt --zstd --zstd=19 --input-format=csv --max-errors=18446744073709551615
gen swap-w-rand -o out.csv --tasks=4 --size=256K --limit=1GiB --accesses=10 --cpu-node=1 --mem-node=0 --cpus-per-node=40 --access-ns=10 --seed=7 --fixed-time -m 2s-pmem2
stat a.csv b.jsonl - --format=json --input-format=auto --max-errors 3 -- --not-an-option -
gen swapin --size=18014398509481983K --limit=16777215T -o/dev/null
EOF

# ---- cases: run every golden case with swapreplay wrapped ---------------
# The wrapper keeps each command line and a copy of every existing file of
# at most 16 KiB it names (for --machine/-m: as a machine description), and
# of standard input when it reads "-".
H=$S/harvest
mkdir -p "$H"
cat > "$S/sr" <<EOF
#!/bin/sh
H=$H
SRB=$SRB
EOF
cat >> "$S/sr" <<'EOF'
n=$(ls "$H" | wc -l)
k=$H/$n
mkdir -p "$k"
printf '%s\0' "$@" > "$k/argv"
i=0 prev="" stdin=""
for a in "$@"; do
	i=$((i + 1))
	kind=trace
	v=$a
	case "$prev" in --machine|-m) kind=machine ;; esac
	case "$a" in
	--machine=*) kind=machine v=${a#--machine=} ;;
	-m?*) kind=machine v=${a#-m} ;;
	--input-format=*) echo "${a#--input-format=}" > "$k/format" ;;
	esac
	case "$prev" in -o|--output) kind=output ;; esac
	if [ "$v" = - ] && [ "$kind" = trace ] && [ "$1" != gen ] && [ -z "$stdin" ]; then
		stdin=1
	elif [ "$kind" != output ] && [ -f "$v" ] && [ "$(wc -c < "$v")" -le 16384 ]; then
		cp "$v" "$k/$kind-$i-$(basename "$v")"
	fi
	prev=$a
done
if [ -n "$stdin" ]; then
	cat > "$k/trace-stdin"
	exec "$SRB" "$@" < "$k/trace-stdin"
fi
exec "$SRB" "$@"
EOF
chmod +x "$S/sr"

classify() { # FILE -> csv, jsonl, swt or zstd
	magic=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	case "$magic" in
	28b52ffd*|5[0-9a-f]2a4d18*) echo zstd; return ;;
	895357540d0a1a0a) echo swt; return ;;
	esac
	if sed '1s/^\xEF\xBB\xBF//' "$1" | tr -d ' \t\r\n' | head -c 1 | grep -q '{'; then
		echo jsonl
	else
		echo csv
	fi
}

for c in "$ROOT"/tests/cli/cases/*/; do
	[ -f "$c/cmd" ] || continue
	name=$(basename "$c")
	W=$S/w/$name
	mkdir -p "$W"
	before=$(ls "$H" | wc -l)
	(cd "$W" && T=$ROOT/tests SR=$S/sr W=$W sh "$c/cmd" >/dev/null 2>&1 </dev/null) || true
	after=$(ls "$H" | wc -l)
	j=$before
	while [ "$j" -lt "$after" ]; do
		k=$H/$j
		suffix=""
		[ $((after - before)) -gt 1 ] && suffix="-$((j - before + 1))"
		put cli "case-$name$suffix" "$k/argv"
		for f in "$k"/trace-* "$k"/machine-*; do
			[ -f "$f" ] || continue
			base=$(basename "$f")
			case "$base" in
			machine-*) put machine "case-$name$suffix.json" "$f"; continue ;;
			esac
			t=$(classify "$f")
			put "$t" "case-$name$suffix" "$f"
			if [ -f "$k/format" ]; then
				forced=$(cat "$k/format")
				case "$forced" in csv|jsonl|swt)
					[ "$forced" != "$t" ] && put "$forced" "case-$name$suffix" "$f" ;;
				esac
			fi
			# an empty file is a case for every reader
			[ -s "$f" ] || for e in jsonl swt; do put $e "case-$name$suffix" "$f"; done
		done
		j=$((j + 1))
	done
done

for t in $TARGETS; do
	echo "corpus/$t: $(ls "$C/$t" | wc -l) files ($(ls "$C/$t" | grep -c '^seed-') seed, $(ls "$C/$t" | grep -c '^case-') case)"
done
