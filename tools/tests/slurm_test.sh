#!/usr/bin/env bash
# `rooflab grade-all --slurm` on a real Slurm: a single-node cluster started
# here (Debian's slurm-wlm and munge, installed with apt when missing; no
# systemd: slurmctld and slurmd run as this test's children with
# proctrack/linuxproc and select/cons_tres), three submissions graded as a job
# array into one output folder, the gradebooks checked against the example's
# known score (and each student's own seed, drawn by their task), the job's
# --mem checked against the rubric's limits, and the cluster stopped. As root (CI) it always runs; without
# root, which installing and starting the daemons need, or where apt cannot
# install them, it is skipped, saying so.
# usage: slurm_test.sh ROOFLAB SOURCE_DIR WORK_DIR
set -uo pipefail

rooflab=$1 source_dir=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: needs root, to install slurm-wlm and munge and to start their daemons" >&2
  exit 77
fi

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "== installing slurm-wlm and munge (apt)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >"$work.apt.log" 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >"$work.apt.log" 2>&1; } ||
    { tail -n 20 "$work.apt.log"; echo "SKIPPED: slurm-wlm and munge are not installed and apt could not install them" >&2; exit 77; }
fi

rm -rf "$work" && mkdir -p "$work"/{state,spool,roster,munge} || fail "cannot create $work"
cluster="$work/cluster"
host=$(hostname -s)
cpus=$(nproc)
# At least 16 GiB: grade-all asks for --mem from the rubrics (6656 MiB for
# a02), which a small CI runner may not have; with config_overrides slurmd
# takes this figure as it is (memory is not a consumable here: CR_CPU).
memory_mb=$(awk '/MemTotal/ {m = int($2 / 1024 * 0.8); print (m > 16384 ? m : 16384)}' /proc/meminfo)

# munge: its own key and socket, so that nothing of the machine's is touched.
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --force --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munge.seed" || fail "munged did not start"

cat >"$work/slurm.conf" <<CONF
ClusterName=rooflab-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=rooflab Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

stop_cluster() {
  for pid_file in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
    [ -s "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null
  done
  sleep 1
}
trap stop_cluster EXIT

slurmctld -f "$SLURM_CONF" || { cat "$work/slurmctld.log"; fail "slurmctld did not start"; }
slurmd -f "$SLURM_CONF" || { cat "$work/slurmd.log"; fail "slurmd did not start"; }
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -qE "^(idle|mix)" && break
  sleep 1
done
sinfo -h -o %t | grep -qE "^(idle|mix)" || { sinfo; tail -n 20 "$work/slurmctld.log" "$work/slurmd.log"; fail "the node never became idle"; }
echo "== cluster up: $(sinfo -h -o '%P %D %t %c')"

partial="$source_dir/examples/submissions/partial"
cp -r "$partial" "$work/roster/alice"
(cd "$partial" && zip -qr "$work/roster/bob.zip" .) || fail "zip"
mkdir "$work/roster/carol"
assignment=a02_transformer_costs  # the example's lab whose tests take milliseconds
expected=$(python3 -c "import json; print(json.load(open('$source_dir/examples/submissions/expected_scores.json'))['partial']['assignments']['$assignment'])")

started=$SECONDS
"$rooflab" grade-all "$work/roster" --out "$work/out" --slurm -j 2 --assignment "$assignment" --seed 1 \
  2>"$work/grade-all.log" || { cat "$work/grade-all.log"; tail -n 30 "$work/slurmctld.log"; fail "grade-all --slurm failed"; }
elapsed=$((SECONDS - started))
cat "$work/grade-all.log"
grep -q "a Slurm job array of 3 tasks" "$work/grade-all.log" || fail "no job array was submitted"
grep -q -- "'--mem=6656M'" "$work/out/slurm/sbatch_command.sh" ||
  { cat "$work/out/slurm/sbatch_command.sh"; fail "sbatch was not given --mem from a02's rubric (1 x 2048 + 4096 + 512)"; }
ls "$work/out/slurm/task-"*.log >/dev/null 2>&1 || fail "no Slurm task logs: the tasks did not run under Slurm"
python3 - "$work/out/gradebook.csv" "$expected" <<'PY' || fail "gradebook.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
total = {row["student"]: float(row["score"]) for row in rows if row["assignment"] == "total"}
expected = float(sys.argv[2])
assert set(total) == {"alice", "bob", "carol"}, total
assert abs(total["alice"] - expected) < 1e-3 and abs(total["bob"] - expected) < 1e-3 and total["carol"] == 0, total
wide = {row["identifier"]: row for row in csv.DictReader(open(sys.argv[1].replace("gradebook.csv", "gradebook_wide.csv")))}
assert set(wide) == {"alice", "bob", "carol"} and all(row["status"] == "graded" for row in wide.values()), wide
assert len({row["seed"] for row in wide.values()}) == 3, wide  # each task derived its student's own
print(f"gradebook through Slurm: alice and bob {expected:.2f}, carol 0; three seeds")
PY
echo "grade-all --slurm: 3 submissions in ${elapsed} s on a single-node Slurm"
