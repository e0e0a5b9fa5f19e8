#!/bin/sh
# traces/capture/: the wrapper's arguments, checks and choice of probes, its
# whole run with a stand-in bpftrace that prints a recorded sample
# (tests/data/capture/raw-sample.csv), and `swapreplay capture-fixup`.
# bpftrace itself cannot run here: see traces/capture/README.md.
REC="$T/../traces/capture/swapreplay-record"
D="$T/data"
ok() { echo "ok capture: $1"; }
fail() { echo "FAIL capture: $1"; }

# Symbol lists of three generations (names as available_filter_functions
# gives them; kallsyms' "addr t name" for the oldest).
printf '__swap_writepage\nswap_writepage\nswap_readpage\nend_page_writeback\ndo_swap_page\n' >"$W/syms-page"
printf 'ffffffff81234560 T __swap_writepage\nffffffff81234570 T swap_writepage\nffffffff81234580 T swap_read_folio\nffffffff81234590 T folio_end_writeback\nffffffff812345a0 t do_swap_page\n' >"$W/syms-folio"
printf 'swap_writeout\nswap_read_folio\nfolio_end_writeback\ndo_swap_page [vmlinux]\n' >"$W/syms-writeout"
printf 'swap_writepage\nfolio_end_writeback\ndo_swap_page\n' >"$W/syms-unknown"

sh "$REC" --help >"$W/out" 2>&1 && grep -q -- '--duration=SECONDS' "$W/out" && ok "--help" || fail "--help: $(head -3 "$W/out")"

sh "$REC" --bogus >"$W/out" 2>&1
[ $? = 2 ] && grep -q "unknown option or argument '--bogus'" "$W/out" && ok "unknown option: status 2" || fail "unknown option: $(cat "$W/out")"
sh "$REC" --duration=soon >"$W/out" 2>&1
[ $? = 2 ] && grep -q "duration takes a whole number of seconds above 0, not 'soon'" "$W/out" && ok "bad --duration: status 2" || fail "bad --duration: $(cat "$W/out")"
sh "$REC" -o >"$W/out" 2>&1
[ $? = 2 ] && grep -q "needs a value" "$W/out" && ok "-o without a value: status 2" || fail "-o without value: $(cat "$W/out")"

# Probes chosen by generation.
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-page" sh "$REC" --print-script >"$W/bt" 2>"$W/err"
if grep -q '^kprobe:__swap_writepage$' "$W/bt" && grep -q '^kprobe:swap_readpage$' "$W/bt" &&
   grep -q '^kprobe:end_page_writeback$' "$W/bt" && grep -q 'generation=page' "$W/bt" && ! grep -q '@@' "$W/bt"; then
	ok "page generation: __swap_writepage, swap_readpage, end_page_writeback"
else
	fail "page generation: $(grep -E '^kprobe|^kretprobe|@@' "$W/bt" | tr '\n' ' ') $(cat "$W/err")"
fi
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" sh "$REC" --print-script --struct-page-size=80 >"$W/bt" 2>"$W/err"
if grep -q '^kprobe:__swap_writepage$' "$W/bt" && grep -q '^kprobe:swap_read_folio$' "$W/bt" &&
   grep -q '^kprobe:folio_end_writeback$' "$W/bt" && grep -q 'generation=folio' "$W/bt" && grep -q ') / 80' "$W/bt"; then
	ok "folio generation (kallsyms format): swap_read_folio, folio_end_writeback, struct page size 80"
else
	fail "folio generation: $(grep -E '^kprobe|^kretprobe' "$W/bt" | tr '\n' ' ') $(cat "$W/err")"
fi
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-writeout" sh "$REC" --print-script >"$W/bt" 2>"$W/err"
grep -q '^kprobe:swap_writeout$' "$W/bt" && grep -q 'generation=folio-writeout' "$W/bt" &&
	ok "2025 generation without __swap_writepage: swap_writeout" || fail "writeout generation: $(grep '^kprobe' "$W/bt" | tr '\n' ' ') $(cat "$W/err")"
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-unknown" sh "$REC" --print-script >"$W/bt" 2>"$W/err"
[ $? = 1 ] && grep -q "neither swap_read_folio nor swap_readpage" "$W/err" && ok "unknown kernel: a clear refusal" || fail "unknown kernel: $(cat "$W/err")"

# The start of the struct page array: kallsyms' vmemmap_base, else the
# 4-level constant, or --vmemmap.
printf 'ffffffff82a0c0f8 D vmemmap_base\n' >"$W/kallsyms"
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_KALLSYMS="$W/kallsyms" sh "$REC" --print-script >"$W/bt" 2>"$W/err"
grep -q '(\$f - \*(uint64 \*)kaddr("vmemmap_base")) / 64' "$W/bt" && ok "vmemmap_base from kallsyms" || fail "vmemmap_base: $(grep -n vmemmap "$W/bt" | head -3)"
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_KALLSYMS=/dev/null sh "$REC" --print-script >"$W/bt" 2>"$W/err"
grep -q '(\$f - 0xffffea0000000000) / 64' "$W/bt" && ok "no vmemmap_base: the 4-level constant" || fail "vmemmap constant: $(grep -n ffffea "$W/bt" | head -3)"
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" sh "$REC" --print-script --vmemmap=0xffd4000000000000 >"$W/bt" 2>"$W/err"
grep -q '(\$f - 0xffd4000000000000) / 64' "$W/bt" && ok "--vmemmap" || fail "--vmemmap: $(cat "$W/err")"
sh "$REC" --print-script --vmemmap=12345 >"$W/out" 2>&1
[ $? = 2 ] && grep -q "vmemmap takes an address" "$W/out" && ok "bad --vmemmap: status 2" || fail "bad --vmemmap: $(cat "$W/out")"
# The swap-out's reclaim (PF_KSWAPD) and the swap-in's fault
# (FAULT_FLAG_WRITE, kept per thread), then the folio's memcg (its id and
# its cgroup's inode): the header capture-fixup takes, every swap line of
# 16 fields, and braces that balance (bpftrace cannot run here).
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_KALLSYMS=/dev/null sh "$REC" --print-script >"$W/bt" 2>"$W/err"
nf() { grep -o "printf(\"%llu,$1,[^\"]*\"" "$W/bt" | sed 's/^printf("//; s/\\n"$//' | awk -F, '{ print NF }' | sort -u | tr '\n' ' '; }
if grep -q '^	printf("ts_ns,op,pid,cpu,cpu_nid,pfn,dev,offset,nr_pages,lat_ns,vaddr,child,reclaim,fault,memcg,memcg_ino\\n");$' "$W/bt" &&
   grep -q '@out_ksw\[$f\] = curtask->flags & 0x00020000;' "$W/bt" &&
   grep -q '@in_wr\[tid\] = ((struct vm_fault \*)arg0)->flags & 0x01;' "$W/bt" &&
   grep -q 'delete(@in_wr\[tid\]);' "$W/bt" && grep -q 'clear(@in_wr);' "$W/bt" && grep -q 'clear(@out_ksw);' "$W/bt" &&
   [ "$(nf out)" = "16 " ] && [ "$(nf in)" = "16 " ] &&
   [ "$(tr -cd '{' <"$W/bt" | wc -c)" = "$(tr -cd '}' <"$W/bt" | wc -c)" ]; then
	ok "kprobe program: reclaim (PF_KSWAPD) on swap-outs, fault (FAULT_FLAG_WRITE) on swap-ins"
else
	fail "kprobe program: reclaim and fault: out lines of $(nf out)fields, in lines of $(nf in)fields"
fi
# The folio's memcg: memcg_data of the folio written and read, by kernel
# release (page->mem_cgroup before 5.11, kn->id.ino before 5.5).
if [ "$(grep -c '^	\$md = (uint64)((struct folio \*)arg0)->memcg_data;$' "$W/bt")" = 2 ] &&
   [ "$(grep -c 'css.cgroup->kn->id;$' "$W/bt")" = 2 ] && ! grep -q '@@' "$W/bt" &&
   SWAPREPLAY_RECORD_RELEASE=5.4.0-42-generic SWAPREPLAY_RECORD_SYMBOLS="$W/syms-page" sh "$REC" --print-script >"$W/bt54" 2>"$W/err" &&
   [ "$(grep -c '((struct page \*)arg0)->mem_cgroup;$' "$W/bt54")" = 2 ] && [ "$(grep -c 'kn->id.ino;$' "$W/bt54")" = 2 ] &&
   SWAPREPLAY_RECORD_RELEASE=5.15.0 SWAPREPLAY_RECORD_SYMBOLS="$W/syms-page" sh "$REC" --print-script >"$W/bt515" 2>"$W/err" &&
   [ "$(grep -c '((struct page \*)arg0)->memcg_data;$' "$W/bt515")" = 2 ] && [ "$(grep -c 'kn->id;$' "$W/bt515")" = 2 ]; then
	ok "kprobe program: the folio's memcg by kernel release (memcg_data from 5.11, kn->id from 5.5)"
else
	fail "kprobe program: memcg: $(grep -n 'memcg_data\|mem_cgroup;\|kn->' "$W/bt" "$W/bt54" "$W/bt515" 2>/dev/null | head -6) $(cat "$W/err")"
fi
if command -v bpftrace >/dev/null 2>&1 && [ -r /sys/kernel/btf/vmlinux ] && [ -d /sys/kernel/tracing/events/sched ]; then
	# Where bpftrace, the kernel's BTF and tracefs (its tracepoints for the
	# tasks' forks, exits and waits) are at hand, the program must at
	# least compile (-d: a dry run, nothing attached).
	SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_KALLSYMS=/dev/null sh "$REC" --print-script >"$W/bt.bt" 2>/dev/null
	if timeout 120 bpftrace -d "$W/bt.bt" >"$W/btd" 2>&1; then
		ok "bpftrace -d compiles the program against this kernel's BTF"
	else
		fail "bpftrace -d: $(grep ERROR "$W/btd" | head -3)"
	fi
fi

# Refusals before recording.
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_UID=1000 sh "$REC" -o "$W/r" >"$W/out" 2>&1
[ $? = 1 ] && grep -q "needs root" "$W/out" && ok "not root: refused" || fail "not root: $(cat "$W/out")"
mkdir -p "$W/nobin"
for t in sh sed awk sort grep date cat dirname id mktemp; do
	p=$(command -v $t) && ln -sf "$p" "$W/nobin/$t"
done
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_UID=0 PATH="$W/nobin" "$W/nobin/sh" "$REC" -o "$W/r" >"$W/out" 2>&1
[ $? = 1 ] && grep -q "needs bpftrace" "$W/out" && ok "no bpftrace: refused" || fail "no bpftrace: $(cat "$W/out")"
[ ! -e "$W/r.raw.csv.zst" ] && ok "nothing written when refused" || fail "files written when refused"

# A whole run with a stand-in bpftrace: prints the sample, and the
# kernel's counters move by 10 swap-outs and 4 swap-ins meanwhile.
mkdir -p "$W/bin"
# standin SAMPLE IN OUT: a bpftrace that prints SAMPLE and, meanwhile,
# moves the kernel's counters from 100 to IN swap-ins and OUT swap-outs.
standin() {
	cat >"$W/bin/bpftrace" <<EOB
#!/bin/sh
cat "$1"
printf 'pgpgin 1\npswpin $2\npswpout $3\n' >"$W/vmstat"
EOB
	chmod +x "$W/bin/bpftrace"
	printf 'pgpgin 1\npswpin 100\npswpout 100\n' >"$W/vmstat"
}
standin "$D/capture/raw-sample.csv" 104 110
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_UID=0 SWAPREPLAY_RECORD_VMSTAT="$W/vmstat" \
	PATH="$W/bin:$PATH" sh "$REC" --probes=kprobe -o "$W/run" --swapreplay="$SR_BIN" --sysfs-root="$D/sysfs/two-nodes" >"$W/out" 2>&1
rc=$?
[ $rc = 0 ] && ok "stand-in run: status 0" || fail "stand-in run: status $rc: $(tail -5 "$W/out")"
grep -q "swap-outs: captured 5, pswpout delta 10, ratio 0.500" "$W/out" && grep -q "swap-ins: captured 2, pswpin delta 4, ratio 0.500" "$W/out" &&
	ok "stand-in run: counts checked against pswpout/pswpin" || fail "stand-in run counts: $(grep swap- "$W/out")"
for f in run.csv.zst run.raw.csv.zst run.machine.json run.info run.sysfs/sys/devices/system/memory/block_size_bytes; do
	[ -s "$W/$f" ] || fail "stand-in run: no $f"
done
# The copy of sysfs it keeps is what capture-fixup needs elsewhere: the
# memory blocks of each node, and the same trace from it.
(cd "$D/sysfs/two-nodes/sys/devices/system" && find node -name "memory*" | sort) >"$W/blocks-want"
(cd "$W/run.sysfs/sys/devices/system" 2>/dev/null && find node -name "memory*" | sort) >"$W/blocks-got"
if cmp -s "$W/blocks-want" "$W/blocks-got" &&
	$SR capture-fixup --sysfs-root="$W/run.sysfs" "$W/run.raw.csv.zst" "$W/again.csv" 2>/dev/null &&
	$SR_BIN convert "$W/run.csv.zst" "$W/run-again.csv" 2>/dev/null && cmp -s "$W/again.csv" "$W/run-again.csv" &&
	grep -q "capture-fixup --sysfs-root=$W/run.sysfs" "$W/out"; then
	ok "stand-in run: run.sysfs, its copy of sysfs, fixes the raw capture up again elsewhere"
else
	fail "stand-in run: run.sysfs: $(ls -R "$W/run.sysfs" 2>&1 | head -5) $(diff "$W/blocks-want" "$W/blocks-got" | head -3)"
fi
$SR_BIN convert "$W/run.csv.zst" "$W/run.csv" 2>/dev/null && $SR_BIN convert "$D/capture/fixed-sample.csv" "$W/want.csv" 2>/dev/null &&
	cmp -s "$W/run.csv" "$W/want.csv" && ok "stand-in run: the trace is the fixed-up sample" || fail "stand-in run: trace differs from tests/data/capture/fixed-sample.csv"
$SR_BIN "$W/run.csv.zst" --machine="$W/run.machine.json" --policy=reclaimer-nid,hybrid --format=csv >"$W/rep.csv" 2>"$W/err" &&
	[ "$(wc -l <"$W/rep.csv")" -eq 3 ] && ok "stand-in run: the trace replays on the recorded machine" || fail "stand-in replay: $(cat "$W/err")"

# The tracepoint capture: swap extents, then block requests and reclaim's
# writes (tests/data/capture/tp-body.csv): a merged request completing two
# writes, a completion printed before its bio (another CPU's buffer), the
# file system's I/O left out, a readahead pair without the fault's address,
# a write never completed (no latency), a folio of 8 pages.
cat "$D/capture/tp-swapext.txt" "$D/capture/tp-body.csv" >"$W/tp.raw.csv"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$W/tp.raw.csv" "$W/tp.csv" 2>"$W/tp.err"
if [ $? = 0 ] && cmp -s "$W/tp.csv" "$D/capture/fixed-tp.csv"; then
	ok "tracepoint capture: fixed up as tests/data/capture/fixed-tp.csv"
else
	fail "tracepoint capture: $(diff "$D/capture/fixed-tp.csv" "$W/tp.csv" | head -5) $(cat "$W/tp.err")"
fi
grep -q "3 swap-in read(s), 1 with their fault's address" "$W/tp.err" && grep -q "1 event(s) whose request's completion was not seen" "$W/tp.err" &&
	grep -q "1 request(s) on the swap devices outside the swap areas" "$W/tp.err" &&
	ok "tracepoint capture: what it lacks is said" || fail "tracepoint warnings: $(cat "$W/tp.err")"
# The kprobe capture's task lines (tests/data/capture/raw-tasks.csv: the
# header with child, a fork, an exit and a wait among swap events whose
# lines end before child): the trace's task ops, to a file and to
# standard output.
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$D/capture/raw-tasks.csv" "$W/rt.csv" 2>"$W/rt.err" &&
	cmp -s "$W/rt.csv" "$D/capture/fixed-tasks.csv" &&
	$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$D/capture/raw-tasks.csv" - --to=csv 2>/dev/null | cmp -s - "$D/capture/fixed-tasks.csv" &&
	ok "kprobe capture: forks, exits and waits as task ops" || fail "kprobe task ops: $(diff "$D/capture/fixed-tasks.csv" "$W/rt.csv" | head -5) $(cat "$W/rt.err")"
# The tracepoint capture's task lines (tests/data/capture/tp-tasks.csv): a fork (F), a fork of
# the task itself (left out), exits (X), a return from wait4() (W) with its
# entry (w: the wait's lat_ns; an entry never returned from is dropped):
# the parent reads a page from swap inside wait4() after its child's exit
# (the kernel writing the status), so the wait is written just before that
# read (1649, 699 ns) and the W dropped; each a
# task op in its place among the bios, to a file and to standard output.
cat "$D/capture/tp-swapext.txt" "$D/capture/tp-tasks.csv" >"$W/tpt.raw.csv"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$W/tpt.raw.csv" "$W/tpt.csv" 2>"$W/tpt.err" &&
	cmp -s "$W/tpt.csv" "$D/capture/fixed-tp-tasks.csv" &&
	$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$W/tpt.raw.csv" - --to=csv 2>/dev/null | cmp -s - "$D/capture/fixed-tp-tasks.csv" &&
	grep -q "task ops of every task of the machine: fork 1, exit 2, wait 1 (wait4() only); some named no task or the task itself and were left out" "$W/tpt.err" &&
	ok "tracepoint capture: forks, exits and waits as task ops" || fail "tracepoint task ops: $(diff "$D/capture/fixed-tp-tasks.csv" "$W/tpt.csv" | head -5) $(cat "$W/tpt.err")"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" "$D/capture/tp-body.csv" "$W/tp2.csv" 2>"$W/tp2.err"
[ $? = 3 ] && grep -q "a tracepoint capture without swap extents" "$W/tp2.err" &&
	ok "tracepoint capture without extents: refused" || fail "no extents: $(cat "$W/tp2.err")"

# A whole tracepoint run with a stand-in bpftrace: the extents go first,
# the counts are pages, the fields' provenance is in run.info.
standin "$D/capture/tp-body.csv" 103 111
SWAPREPLAY_RECORD_SWAPEXT="$D/capture/tp-swapext.txt" SWAPREPLAY_RECORD_UID=0 SWAPREPLAY_RECORD_VMSTAT="$W/vmstat" \
	PATH="$W/bin:$PATH" sh "$REC" --probes=tracepoint -o "$W/tprun" --swapreplay="$SR_BIN" --sysfs-root="$D/sysfs/two-nodes" >"$W/out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "swap-outs: pages 11, pswpout delta 11, ratio 1.000" "$W/tprun.info" &&
	grep -q "swap-ins: pages 3, pswpin delta 3, ratio 1.000" "$W/tprun.info" && grep -q "^fields missing: " "$W/tprun.info" &&
	grep -q "^probes: tracepoint" "$W/tprun.info"; then
	ok "stand-in tracepoint run: pages checked against pswpout/pswpin, fields said"
else
	fail "stand-in tracepoint run: status $rc: $(tail -4 "$W/out") $(cat "$W/tprun.info" 2>/dev/null)"
fi
$SR_BIN convert "$W/tprun.csv.zst" "$W/tprun.csv" 2>/dev/null && cmp -s "$W/tprun.csv" "$D/capture/fixed-tp.csv" &&
	ok "stand-in tracepoint run: the trace is the fixed-up sample" || fail "stand-in tracepoint run: trace differs"
# -- COMMAND: the command runs once bpftrace has printed the capture's
# first line (after attaching), the recording stops after it exits, and
# its status and time are in run.info.  The stand-in prints the sample and
# then waits to be stopped (SIGTERM), as bpftrace does.
cat >"$W/bin/bpftrace" <<EOB
#!/bin/sh
cat "$D/capture/raw-sample.csv"
trap 'printf "pgpgin 1\npswpin 104\npswpout 110\n" >"$W/vmstat"; exit 0' TERM
while :; do sleep 0.1; done
EOB
printf 'pgpgin 1\npswpin 100\npswpout 100\n' >"$W/vmstat"
rm -f "$W/cmd.ran"
SWAPREPLAY_RECORD_SYMBOLS="$W/syms-folio" SWAPREPLAY_RECORD_UID=0 SWAPREPLAY_RECORD_VMSTAT="$W/vmstat" \
	PATH="$W/bin:$PATH" timeout 60 sh "$REC" --probes=kprobe -o "$W/cmdrun" --swapreplay="$SR_BIN" --sysfs-root="$D/sysfs/two-nodes" \
	-- sh -c "echo ran >'$W/cmd.ran'; exit 3" >"$W/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ -s "$W/cmd.ran" ] && grep -q "^command: sh -c echo ran .*; status 3; elapsed_ms [0-9]" "$W/cmdrun.info" &&
	grep -q "swap-outs: captured 5, pswpout delta 10" "$W/cmdrun.info" && grep -q "recording while sh runs" "$W/out"; then
	ok "-- COMMAND: run once the probes are attached, the recording stopped after it, its status and time in run.info"
else
	fail "-- COMMAND: status $rc: $(tail -4 "$W/out") $(cat "$W/cmdrun.info" 2>/dev/null)"
fi
standin "$D/capture/raw-sample.csv" 104 110

# swapreplay-ab (A/B runs against this kernel: make validate-live): what
# can be checked without root and swap, its command line and refusals.
AB="$T/../traces/capture/swapreplay-ab"
sh "$AB" --help >"$W/out" 2>&1 && grep -q -- '--pairs=LIST' "$W/out" && grep -q 'page-cluster' "$W/out" &&
	ok "swapreplay-ab --help" || fail "swapreplay-ab --help: $(head -3 "$W/out")"
for bad in "--bogus:unknown option or argument '--bogus'" "--pairs=page-cluster,vma:unknown pair 'vma'" \
	"--workloads=seq,big:unknown workload 'big'" "--runs=0:--runs takes a whole number above 0" \
	"--mib=40:--mib must be at least twice --limit (32)" "--format=json:--format takes text or markdown" \
	"--measure=soon:--measure takes a whole number, not 'soon'"; do
	SWAPREPLAY_AB_UID=0 sh "$AB" "${bad%%:*}" >"$W/out" 2>&1
	rc=$?
	[ $rc = 2 ] && grep -qF -- "${bad#*:}" "$W/out" && ok "swapreplay-ab ${bad%%:*}: status 2, said why" ||
		fail "swapreplay-ab ${bad%%:*}: status $rc: $(cat "$W/out")"
done
SWAPREPLAY_AB_UID=1000 sh "$AB" >"$W/out" 2>&1
rc=$?
[ $rc = 77 ] && grep -q "cannot run here: needs root" "$W/out" && ok "swapreplay-ab not as root: status 77, said why" ||
	fail "swapreplay-ab not root: status $rc: $(cat "$W/out")"

sh "$REC" --probes=uprobe --print-script >"$W/out" 2>&1
[ $? = 2 ] && grep -q "probes takes kprobe, tracepoint or auto" "$W/out" && ok "bad --probes: status 2" || fail "bad --probes: $(cat "$W/out")"

# The tracepoint program: the swap devices of the extents in its filters;
# where bpftrace and tracefs are at hand, it compiles (-d, a dry run).
SWAPREPLAY_RECORD_SWAPEXT="$D/capture/tp-swapext.txt" sh "$REC" --probes=tracepoint --print-script >"$W/tp.bt" 2>"$W/err"
# Version 4: a P line's rw says who wrote the folio, by the task's name;
# version 5: M lines, the memcg counted for a folio before its bio.
if grep -q 'swapreplay-capture/5 ' "$W/tp.bt" && grep -q 'if (strncmp(comm, "kswapd", 6) == 0) {' "$W/tp.bt" &&
   grep -q 'P,%d,%d,%d,0,0,0,k,%llu' "$W/tp.bt" && grep -q 'P,%d,%d,%d,0,0,0,d,%llu' "$W/tp.bt" &&
   [ "$(tr -cd '{' <"$W/tp.bt" | wc -c)" = "$(tr -cd '}' <"$W/tp.bt" | wc -c)" ]; then
	ok "tracepoint program: reclaim's writes say kswapd (k) or direct (d)"
else
	fail "tracepoint program: P lines: $(grep -n ',P,' "$W/tp.bt")"
fi
SWAPREPLAY_RECORD_MEMCG_TP=0 SWAPREPLAY_RECORD_SWAPEXT="$D/capture/tp-swapext.txt" sh "$REC" --probes=tracepoint --print-script >"$W/tp-nomemcg.bt" 2>"$W/err"
if grep -q '^tracepoint:memcg:count_memcg_events$' "$W/tp.bt" && grep -q '^/args->item == 3 || args->item == 2/$' "$W/tp.bt" &&
   grep -q 'M,%d,%d,%d,0,0,0,o,%llu' "$W/tp.bt" && grep -q 'M,%d,%d,%d,0,0,0,i,%llu' "$W/tp.bt" &&
   ! grep -q '^tracepoint:memcg' "$W/tp-nomemcg.bt" && grep -q '^tracepoint:vmscan:mm_vmscan_write_folio$' "$W/tp-nomemcg.bt" &&
   [ "$(tr -cd '{' <"$W/tp-nomemcg.bt" | wc -c)" = "$(tr -cd '}' <"$W/tp-nomemcg.bt" | wc -c)" ]; then
	ok "tracepoint program: memcg:count_memcg_events (pswpout 3, pswpin 2) as M lines, left out where the kernel lacks it"
else
	fail "tracepoint program: M lines: $(grep -n 'memcg' "$W/tp.bt" | grep -v '^[0-9]*: \*' | head -4)"
fi
if [ $? = 0 ] && [ "$(grep -c '^/args->dev == 266338304/$' "$W/tp.bt")" = 3 ] && ! grep -q '@@' "$W/tp.bt"; then
	ok "tracepoint program: the swap device in its three filters (queue, request and bio completions)"
else
	fail "tracepoint program: $(grep -n 'args->dev\|@@' "$W/tp.bt" | head -3) $(cat "$W/err")"
fi
if command -v bpftrace >/dev/null 2>&1 && [ -d /sys/kernel/tracing/events/block ]; then
	if timeout 120 bpftrace -d "$W/tp.bt" >"$W/btd" 2>&1; then
		ok "bpftrace -d compiles the tracepoint program against this kernel"
	else
		fail "bpftrace -d (tracepoints): $(grep ERROR "$W/btd" | grep -v RLIMIT_MEMLOCK | head -3)"
	fi
fi

# The page's memory cgroup: a fake hierarchy (--cgroup-root) whose
# directories' inodes the raw captures name.  The kprobe capture
# (tests/data/capture/raw-memcg.csv: memcg ids 12 and 13 with their
# cgroups' inodes, 14 whose directory is gone, a folio without one, a swap
# cache hit, the root memcg) and the tracepoint one (tp-memcg.csv: M lines
# before their bios, a bio without one, a gone cgroup): each path written
# once, with its memcg's first event; a memcg without its directory keeps
# its id, with one warning.
mkdir -p "$W/cg/workload.slice/a" "$W/cg/workload.slice/b"
ina=$(stat -c %i "$W/cg/workload.slice/a") inb=$(stat -c %i "$W/cg/workload.slice/b") inr=$(stat -c %i "$W/cg")
sed -e "s/INO_A/$ina/; s/INO_B/$inb/; s/INO_ROOT/$inr/" "$D/capture/raw-memcg.csv" >"$W/rm.raw.csv"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" --cgroup-root="$W/cg" "$W/rm.raw.csv" "$W/rm.csv" 2>"$W/rm.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$W/rm.csv" "$D/capture/fixed-memcg.csv" &&
	$SR_BIN stat "$W/rm.csv" >"$W/rm.stat" 2>/dev/null &&
	grep -q '^  12 /workload.slice/a: pages out 2, in 1' "$W/rm.stat" && grep -q '^  13 /workload.slice/b: pages out 1, in 0' "$W/rm.stat" &&
	grep -q '^  1 /: pages out 0, in 1' "$W/rm.stat" &&
	grep -q "1 memcg(s) without a path: no directory of their cgroup's inode under $W/cg" "$W/rm.err"; then
	ok "kprobe capture: memcg ids with their paths from the cgroup inodes (/workload.slice/a, /workload.slice/b, /), a gone one without"
else
	fail "kprobe memcg: status $rc: $(diff "$D/capture/fixed-memcg.csv" "$W/rm.csv" | head -5) $(cat "$W/rm.err") $(grep -A4 '^memcgs' "$W/rm.stat" 2>/dev/null)"
fi
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" --cgroup-root="$W/cg" "$W/rm.raw.csv" - --to=csv 2>/dev/null | cmp -s - "$D/capture/fixed-memcg.csv" &&
	$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" --cgroup-root="$W/cg" "$W/rm.raw.csv" "$W/rm.swt" 2>/dev/null &&
	$SR_BIN convert "$W/rm.swt" "$W/rm-swt.csv" 2>/dev/null && cmp -s "$W/rm-swt.csv" "$D/capture/fixed-memcg.csv" &&
	ok "kprobe capture: the memcgs to standard output and through .swt" || fail "kprobe memcg to stdout or .swt: $(diff "$D/capture/fixed-memcg.csv" "$W/rm-swt.csv" | head -5)"
cat "$D/capture/tp-swapext.txt" >"$W/tm.raw.csv"
sed -e "s/INO_A/$ina/; s/INO_B/$inb/" "$D/capture/tp-memcg.csv" >>"$W/tm.raw.csv"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" --cgroup-root="$W/cg" "$W/tm.raw.csv" "$W/tm.csv" 2>"$W/tm.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$W/tm.csv" "$D/capture/fixed-tp-memcg.csv" &&
	grep -q '^1000,out,42,.*,1,/workload.slice/b$' "$W/tm.csv" && grep -q '^1200,out,42,.*,2,/workload.slice/a$' "$W/tm.csv" &&
	grep -q '^1600,in,43,.*,1,$' "$W/tm.csv" &&
	grep -q "3 memcg(s) numbered 1 to 3 by capture-fixup" "$W/tm.err" && grep -q "1 memcg(s) without a path" "$W/tm.err"; then
	ok "tracepoint capture: M lines give their bios the memcg, numbered, with its path"
else
	fail "tracepoint memcg: status $rc: $(diff "$D/capture/fixed-tp-memcg.csv" "$W/tm.csv" | head -5) $(cat "$W/tm.err")"
fi
# A directory whose name is no UTF-8 (a byte 0xff): a trace cannot hold its
# path, and its memcg (13) keeps its id without one, said once.
bad=$(printf 'b\377')
mkdir -p "$W/cg3/workload.slice/a" "$W/cg3/workload.slice/$bad"
ina3=$(stat -c %i "$W/cg3/workload.slice/a") inb3=$(stat -c %i "$W/cg3/workload.slice/$bad") inr3=$(stat -c %i "$W/cg3")
sed -e "s/INO_A/$ina3/; s/INO_B/$inb3/; s/INO_ROOT/$inr3/" "$D/capture/raw-memcg.csv" >"$W/rm3.raw.csv"
$SR capture-fixup --sysfs-root="$D/sysfs/two-nodes" --cgroup-root="$W/cg3" "$W/rm3.raw.csv" "$W/rm3.csv" 2>"$W/rm3.err"
rc=$?
if [ $rc = 0 ] && [ "$(cut -d, -f15 "$W/rm3.csv" | grep -c '^13$')" = 1 ] &&
	grep -q '^[^,]*,out,.*,13,$' "$W/rm3.csv" &&
	grep -q "1 memcg(s) kept without their path, which a trace cannot hold" "$W/rm3.err"; then
	ok "capture-fixup: a cgroup path no trace can hold: the memcg kept without it, said"
else
	fail "bad cgroup path: status $rc: $(grep ',13,' "$W/rm3.csv") $(cat "$W/rm3.err")"
fi
# Without --cgroup-root the hierarchy is the machine's (mountinfo): the fake
# tree's inodes are in it only by chance; the events keep their ids.
$SR capture-fixup -q --sysfs-root="$D/sysfs/two-nodes" "$W/rm.raw.csv" "$W/rm2.csv" 2>"$W/rm2.err" &&
	[ "$(cut -d, -f15 "$W/rm2.csv" | grep -c '^1[234]$')" = 6 ] &&
	ok "kprobe capture without --cgroup-root: the ids kept" || fail "without --cgroup-root: $(cat "$W/rm2.err")"
$SR capture-fixup --cgroup-root= "$W/rm.raw.csv" "$W/x.csv" >"$W/out" 2>&1
[ $? = 2 ] && grep -q "cgroup-root needs a directory" "$W/out" && ok "--cgroup-root= refused" || fail "empty --cgroup-root: $(cat "$W/out")"
