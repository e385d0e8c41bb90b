#!/usr/bin/env bash
# Runs the shipped Slurm scripts (configs/slurm) under a real Slurm on this machine: munged, one slurmctld and two
# slurmd (this host under its `hostname -s` and a second node name on the same host, both in a temporary folder,
# no accounting, no cgroups), with prolog.sh as Prolog, task-prolog.sh as TaskProlog and healthcheck.sh as
# HealthCheckProgram, and nccl-doctor replaying the test captures (--from) so that preflight passes, fails with an
# error-level finding, or cannot run. Then `cluster --pairwise --dry-run` gives srun lines that `srun --test-only`
# must accept, and a real pairwise run launches through srun.
#
# Usage: sudo scripts/slurm-test.sh [--no-install] [--doctor PROGRAM]
#   --no-install  skip (exit 77) when Slurm or munge is missing, instead of installing slurm-wlm and munge with apt-get
#   --doctor      the nccl-doctor to run (default: the repository's launcher, built first if needed)
# Exit: 0 every check passed, 1 a check failed, 77 skipped (the last line says why: not root, not installed, …).
# Every step has a time limit; the daemons are stopped and the folder removed on every path out.
set -u
repo="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
install=1
doctor="$repo/nccl-doctor"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0 ;;
    --doctor) doctor="$2"; shift ;;
    *) echo "usage: $0 [--no-install] [--doctor PROGRAM]" >&2; exit 2 ;;
  esac
  shift
done

say() { printf 'slurm-test: %s\n' "$*"; }
skip() { say "SKIP: $*"; exit 77; }
passed=0
failed=0
ok() { passed=$((passed + 1)); say "ok   $*"; }
bad() { failed=$((failed + 1)); say "FAIL $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root: slurmd runs the prolog as root and jobs as their users (run it with sudo)"
missing=()
for p in munged munge unmunge slurmctld slurmd srun sbatch scontrol sinfo; do
  command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" -eq 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    skip "Slurm or munge not installed (${missing[*]} missing): apt-get install slurm-wlm munge, or run this script without --no-install"
  fi
  say "installing slurm-wlm and munge (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -q >/dev/null && timeout 600 apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null \
    || skip "apt-get install slurm-wlm munge failed"
fi
timeout 600 "$doctor" --version >/dev/null 2>&1 || skip "$doctor --version failed: the tool cannot run here"

host="$(hostname -s)"
node2="${host}-b"
caps="$repo/pcie-inspect/src/test/resources/fixtures/captures"
T="$(mktemp -d /tmp/nccl-doctor-slurm.XXXXXX)"
chmod 755 "$T"
mkdir -p "$T/state" "$T/spool" "$T/notes" "$T/pairs"

stop() {
  local f pid
  for f in "$T"/slurmd-*.pid "$T/slurmctld.pid" "$T/munged.pid"; do
    [ -s "$f" ] || continue
    pid="$(cat "$f")"
    kill "$pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null
  done
}
logs() {
  local f
  for f in "$T"/slurmctld.log "$T"/slurmd-*.log; do
    [ -f "$f" ] && { say "--- last lines of $(basename "$f")"; tail -n 15 "$f"; }
  done
}
cleanup() {
  [ "$failed" -gt 0 ] && logs
  stop
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge with its own key and socket: nothing of the machine's /etc/munge is used
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none && chmod 400 "$T/munge.key"
timeout 20 munged --force --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munged.seed" || skip "munged did not start: $(tail -n 1 "$T/munged.log" 2>/dev/null)"
echo probe | timeout 10 munge -S "$T/munge.sock" | timeout 10 unmunge -S "$T/munge.sock" >/dev/null || skip "munge cannot encode and decode"

# Wrappers: Slurm runs these, each sets the settings of the current check and runs the shipped script unchanged.
for s in prolog task-prolog healthcheck; do
  cat > "$T/$s" <<EOF
#!/usr/bin/env bash
export NCCL_DOCTOR="$doctor" NCCL_DOCTOR_NOTES="$T/notes" NCCL_DOCTOR_TIMEOUT=60 SLURM_CONF="$T/slurm.conf"
[ "$s" = healthcheck ] && [ ! -e "$T/healthcheck.on" ] && exit 0
set -a; [ -r "$T/$s.env" ] && . "$T/$s.env"; set +a
exec bash "$repo/configs/slurm/$s.sh"
EOF
  chmod 755 "$T/$s"
done
setting() { printf 'NCCL_DOCTOR_ARGS="%s"\n%s\n' "$2" "${3:-}" > "$T/$1.env"; }
setting prolog "--from $caps/dgx-class"
setting healthcheck "--from $caps/dgx-class"

port=$((20000 + RANDOM % 20000))
cat > "$T/slurm.conf" <<EOF
ClusterName=ncdtest
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
Prolog=$T/prolog
TaskProlog=$T/task-prolog
PrologFlags=Alloc
PrologEpilogTimeout=90
HealthCheckProgram=$T/healthcheck
HealthCheckInterval=3
NodeName=$host NodeHostname=$host Port=$((port + 2)) CPUs=1 State=UNKNOWN
NodeName=$node2 NodeHostname=$host Port=$((port + 3)) CPUs=1 State=UNKNOWN
PartitionName=test Nodes=$host,$node2 Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

timeout 20 slurmctld -f "$T/slurm.conf" -i || skip "slurmctld did not start: $(tail -n 1 "$T/slurmctld.log" 2>/dev/null)"
timeout 20 slurmd -f "$T/slurm.conf" -N "$host" || skip "slurmd ($host) did not start: $(tail -n 1 "$T/slurmd-$host.log" 2>/dev/null)"
timeout 20 slurmd -f "$T/slurm.conf" -N "$node2" || skip "slurmd ($node2) did not start (a second slurmd on one host needs Slurm's multiple-slurmd support)"

# Polls a condition every second for up to $1 seconds.
within() {
  local limit="$1"; shift
  for _ in $(seq "$limit"); do "$@" && return 0; sleep 1; done
  return 1
}
node() { timeout 10 scontrol show node "$1" 2>/dev/null; }
idle() { node "$1" | grep -q "State=IDLE "; }
drained() { node "$1" | grep -qE "State=[A-Z+]*DRAIN"; }
reason_is() { node "$1" | grep -q "Reason=$2"; }
not_drained() { ! drained "$1"; }
resume() { timeout 10 scontrol update nodename="$1" state=resume 2>/dev/null; within 30 idle "$1"; }

within 60 idle "$host" && within 30 idle "$node2" || { failed=1; skip "the nodes did not come up idle: $(node "$host" | grep -o 'State=[^ ]*') $(node "$node2" | grep -o 'State=[^ ]*')"; }
say "Slurm $(slurmd -V | awk '{print $2}') up: nodes $host and $node2 (slurmctld port $port), folder $T"

# 1. preflight passes: the prolog lets the job run
out="$(timeout 120 srun -w "$host" -N1 -t 2 echo job-ran 2>&1)"
[ $? -eq 0 ] && [[ "$out" == *job-ran* ]] && ok "preflight exit 0: the job ran" || bad "preflight exit 0: the job did not run: $out"

# 2. the tool cannot run (exit 2 here): the job runs, the warning reaches its output and slurmd's log
setting prolog "--from /nonexistent/capture"
out="$(timeout 120 srun -w "$host" -N1 -t 2 echo job-ran 2>&1)"
rc=$?
if [ $rc -eq 0 ] && [[ "$out" == *job-ran* ]] && [[ "$out" == *"nccl-doctor: WARNING: node $host was not checked before this job"* ]]; then
  ok "tool failure (exit 2): the job ran, its output says: $(printf '%s\n' "$out" | grep -m1 WARNING | cut -c1-120)…"
else
  bad "tool failure: rc $rc, output: $out"
fi
# slurmd keeps a prolog's output only when the prolog fails (22.05: "prolog failed: rc:1 output:…"), so a prolog that
# lets the job run reaches the operator through syslog and the job's output; the note is what the TaskProlog printed
grep -qs "was not checked before this job" "$T"/notes/job-* && ok "tool failure: the prolog left the note the TaskProlog printed" \
  || bad "tool failure: no note in $T/notes"
not_drained "$host" && ok "tool failure: $host is not drained" || bad "tool failure drained $host"

# 3. an error-level finding: the prolog fails, Slurm drains the node, the batch job does not run
setting prolog "--from $caps/epyc-2s"
job="$(timeout 20 sbatch --parsable -w "$host" -N1 -t 2 -o "$T/job-%j.out" --wrap "touch $T/ran-error")"
if within 90 drained "$host"; then
  [ -e "$T/ran-error" ] && bad "preflight exit 1: job $job ran on a node that failed its prolog" \
    || ok "preflight exit 1: $host drained ($(node "$host" | grep -o 'Reason=[^[]*' | head -n1| sed 's/ *$//')), job $job did not run"
else
  bad "preflight exit 1: $host was not drained"
fi
grep -q "node failed preflight" "$T/slurmd-$host.log" && ok "preflight exit 1: the finding is in slurmd's log: $(grep -m1 -o 'ERROR  [A-Z_]*' "$T/slurmd-$host.log")" \
  || bad "preflight exit 1: no 'node failed preflight' line in slurmd's log"
timeout 10 scancel "$job" 2>/dev/null
resume "$host" || bad "could not resume $host"

# 4. NCCL_DOCTOR_ON_TOOL_FAILURE=drain: a tool failure fails the prolog too
setting prolog "--from /nonexistent/capture" "NCCL_DOCTOR_ON_TOOL_FAILURE=drain"
job="$(timeout 20 sbatch --parsable -w "$host" -N1 -t 2 -o "$T/job-%j.out" --wrap "touch $T/ran-drain")"
within 90 drained "$host" && [ ! -e "$T/ran-drain" ] && ok "NCCL_DOCTOR_ON_TOOL_FAILURE=drain: $host drained, the job did not run" \
  || bad "NCCL_DOCTOR_ON_TOOL_FAILURE=drain: $host not drained, or the job ran"
timeout 10 scancel "$job" 2>/dev/null
resume "$host" || bad "could not resume $host"
setting prolog "--from $caps/dgx-class"

# 5. the health check drains with the finding as the reason, and resumes the node once preflight passes again
setting healthcheck "--from $caps/epyc-2s"
touch "$T/healthcheck.on"
if within 60 reason_is "$host" "nccl-doctor: LINK_DEGRADED"; then
  ok "health check: $host drained with $(node "$host" | grep -o 'Reason=nccl-doctor[^[]*' | cut -c1-110)"
else
  bad "health check: no nccl-doctor reason on $host: $(node "$host" | grep -o 'State=[^ ]*\|Reason=.*')"
fi
setting healthcheck "--from $caps/dgx-class"
within 60 idle "$host" && ok "health check: a clean run resumed $host" || bad "health check: $host was not resumed"
rm -f "$T/healthcheck.on"

# 6. cluster --pairwise: the dry run's srun lines pass srun --test-only, and a real run launches through srun
cat > "$T/fake-nccl-tests" <<EOF
#!/bin/sh
# stands in for all_reduce_perf: rank 0 prints a real 2-node nccl-tests output
[ "\${SLURM_PROCID:-0}" = 0 ] && cat "$repo/reports/src/test/resources/fixtures/pairwise/planted-slow/nid005471_nid005487.txt"
exit 0
EOF
chmod 755 "$T/fake-nccl-tests"
plan="$(timeout 120 "$doctor" cluster --pairwise "$host,$node2" --gpus-per-node 1 --command "$T/fake-nccl-tests" --results "$T/pairs" --dry-run)"
lines=0
while IFS= read -r line; do
  case "$line" in srun*) ;; *) continue ;; esac
  lines=$((lines + 1))
  set -f
  eval "set -- ${line% > *}"
  set +f
  shift
  out="$(timeout 30 srun --test-only "$@" 2>&1)"
  [ $? -eq 0 ] && ok "srun --test-only accepts: ${line}" || bad "srun --test-only refuses '${line}': $out"
done <<< "$plan"
[ "$lines" -eq 1 ] || bad "the plan for 2 nodes has $lines srun lines, expected 1: $plan"
report="$(timeout 300 "$doctor" cluster --pairwise "$host,$node2" --gpus-per-node 1 --command "$T/fake-nccl-tests" --results "$T/pairs" --json 2>"$T/pairwise.err")"
if [ -s "$T/pairs/${host}_${node2}.txt" ] && [[ "$report" == *'"status" : "MEASURED"'* ]]; then
  ok "cluster --pairwise through srun: ${host}_${node2}.txt written and read ($(printf '%s\n' "$report" | grep -m1 -o '"busBwGBps" : [0-9.]*'))"
else
  bad "cluster --pairwise through srun: $(tail -n 3 "$T/pairwise.err") $(printf '%s' "$report" | head -c 300)"
fi

say "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
