#!/bin/sh
# make test-cluster: the sweep recipes of docs/SWEEP.md run by real engines on
# this machine.  GNU parallel (Debian package "parallel") runs the units of
# a plan and is interrupted and resumed through its joblog; Slurm runs them
# as a job array from another directory than the plan's; each merged result
# must equal a local sweep's.  Prints "ok"/"FAIL" lines and a count.
set -u
SR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM
pass=0
fail=0
ok() { echo "ok $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

if ! command -v parallel >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -qq parallel >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq parallel >/dev/null; }
	fi
fi
command -v parallel >/dev/null || { bad "GNU parallel is not installed (sudo apt-get install -y parallel)"; echo "$pass passed, $fail failed"; exit 1; }

cd "$W"
mkdir tr
for i in 1 2 3 4 5; do
	$SR gen swap-w-rand --tasks=8 --size=8M --limit=32M --seed=$i -o tr/t$i.swt.zst 2>/dev/null
done
$SR sweep tr -m 2s-pmem2,2s-nvme2 -o local.jsonl -q
$SR sweep tr -m 2s-pmem2,2s-nvme2 --plan=plan.jsonl -q
N=$(wc -l <plan.jsonl)
mkdir res

# A first run stopped after 4 jobs (--halt), as if the node went away ...
seq 0 $((N - 1)) | parallel --will-cite --joblog jobs.log --halt now,done=4 -j 2 \
	"$SR" sweep --run-index={} plan.jsonl -o res/{}.jsonl -q --resume >/dev/null 2>&1
done1=$(ls res | wc -l)
# ... then resumed: the joblog skips the jobs that finished.
seq 0 $((N - 1)) | parallel --will-cite --joblog jobs.log --resume -j 2 \
	"$SR" sweep --run-index={} plan.jsonl -o res/{}.jsonl -q --resume >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$done1" -lt "$N" ] && ok "GNU parallel: interrupted after $done1 of $N units, resumed" ||
	bad "GNU parallel: status $rc, $done1 of $N units in the first run"
runs=$(awk 'NR > 1' jobs.log | wc -l)
[ "$runs" -le $((N + 2)) ] && ok "GNU parallel: the joblog ran each unit about once ($runs jobs for $N units)" ||
	bad "GNU parallel: $runs jobs for $N units"
$SR merge --plan=plan.jsonl -o merged.jsonl res/*.jsonl 2>err.txt &&
	cmp -s merged.jsonl local.jsonl && ok "GNU parallel: merged equals the local sweep" ||
	bad "GNU parallel: merged result differs: $(cat err.txt)"

# ---- Slurm: a one-node cluster started here (Debian slurm-wlm and munge),
# the plan run as a job array, merged, compared; the daemons stopped by PID.
slurm_stop() {
	for f in "$SD/slurmd.pid" "$SD/slurmctld.pid" "$SD/munge/munged.pid"; do
		[ -f "$f" ] || continue
		pid=$(cat "$f")
		kill "$pid" 2>/dev/null
		# Wait for it (10 s), then insist.
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
		rm -f "$f"
	done
}
slurm_test() {
	if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
		[ "$(id -u)" = 0 ] || { bad "Slurm: slurm-wlm and munge are not installed (sudo apt-get install -y slurm-wlm munge)"; return; }
		apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
			{ apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1; } ||
			{ bad "Slurm: cannot install slurm-wlm and munge"; return; }
	fi
	[ "$(id -u)" = 0 ] || { bad "Slurm: the test cluster starts its daemons as root"; return; }
	SD=$W/slurm
	mkdir -p "$SD/state" "$SD/spool" "$SD/log" "$SD/munge"
	chmod 700 "$SD/munge"
	dd if=/dev/urandom bs=1024 count=1 of="$SD/munge/munge.key" 2>/dev/null
	chmod 400 "$SD/munge/munge.key"
	munged --force --key-file="$SD/munge/munge.key" --socket="$SD/munge/munge.socket" \
		--pid-file="$SD/munge/munged.pid" --log-file="$SD/munge/munged.log" \
		--seed-file="$SD/munge/seed" || { bad "Slurm: munged did not start"; return; }
	H=$(hostname)
	cat >"$SD/slurm.conf" <<EOC
ClusterName=swapreplay-test
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SD/munge/munge.socket
StateSaveLocation=$SD/state
SlurmdSpoolDir=$SD/spool
SlurmctldPidFile=$SD/slurmctld.pid
SlurmdPidFile=$SD/slurmd.pid
SlurmctldPort=16917
SlurmdPort=16918
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=$SD/log/slurmctld.log
SlurmdLogFile=$SD/log/slurmd.log
NodeName=$H CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOC
	export SLURM_CONF="$SD/slurm.conf"
	slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" ||
		{ bad "Slurm: the daemons did not start: $(tail -3 "$SD/log/slurmctld.log" "$SD/log/slurmd.log" 2>/dev/null)"; return; }
	i=0
	until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
		i=$((i + 1))
		[ $i -gt 60 ] && { bad "Slurm: the node was not idle after 60 s: $(sinfo 2>&1)"; return; }
		sleep 1
	done
	ok "Slurm: a one-node cluster is up (node idle after ${i}s)"
	mkdir -p sres
	# The tasks run in another directory than the plan's (a job's
	# --chdir): the plan's paths are resolved from its own directory.
	timeout 600 sbatch --wait --array=0-$((N - 1))%2 -o "$SD/log/job-%A_%a.out" --chdir="$W/sres" \
		--wrap "$SR sweep --run-index=\$SLURM_ARRAY_TASK_ID ../plan.jsonl -o \$SLURM_ARRAY_TASK_ID.jsonl -q" \
		>/dev/null 2>"$SD/sbatch.err"
	rc=$?
	[ $rc -eq 0 ] && ok "Slurm: the job array of $N units finished" ||
		bad "Slurm: sbatch --wait gave status $rc: $(cat "$SD/sbatch.err")"
	$SR merge --plan=plan.jsonl -o smerged.jsonl sres/*.jsonl 2>err.txt &&
		cmp -s smerged.jsonl local.jsonl && ok "Slurm: merged equals the local sweep" ||
		bad "Slurm: merged result differs: $(cat err.txt)"
}
SD=$W/slurm
trap 'slurm_stop; rm -rf "$W"' EXIT INT TERM
slurm_test
slurm_stop

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
