#!/usr/bin/env bash
# Slurm prolog: nccl-doctor preflight before every job on every node.
#
#   slurm.conf:  Prolog=/etc/slurm/nccl-doctor-prolog.sh   PrologFlags=Alloc   PrologEpilogTimeout=60
#                TaskProlog=/etc/slurm/nccl-doctor-task-prolog.sh   (optional: puts the warning below into the job's output)
#
# Exit status decides the node's fate: a non-zero prolog drains the node and requeues the job. So only a real
# finding at error level (preflight exit 1) fails the prolog. When the check itself fails (exit 2: a usage or
# input error such as a broken configs/rules.yaml; exit 3: the tool failed; 126/127: the launcher cannot start;
# or preflight outliving its own limit), the node was NOT checked, and by default the job runs anyway: a broken
# check must not drain a healthy fleet, and one bad edit or a missing JDK would otherwise drain every node at once.
# That failure is logged loudly, never silently: to syslog at priority err (tag nccl-doctor-prolog), to stderr (which
# slurmd logs only when the prolog fails), and into the job's own output through the TaskProlog.
# NCCL_DOCTOR_ON_TOOL_FAILURE=drain makes it fail the prolog instead (fail closed). The limit stays well below
# PrologEpilogTimeout.
#
# Settings (environment, e.g. in /etc/default/nccl-doctor, sourced below when present):
#   NCCL_DOCTOR                 the launcher or a wrapper (default: nccl-doctor on PATH)
#   NCCL_DOCTOR_ARGS            extra arguments, e.g. "--profile gpu-node-8x8"
#   NCCL_DOCTOR_TIMEOUT         seconds (default 25)
#   NCCL_DOCTOR_TEXTFILE        a node_exporter textfile to refresh (default: none)
#   NCCL_DOCTOR_ON_TOOL_FAILURE run (default: log and let the job run) or drain (log and fail the prolog)
#   NCCL_DOCTOR_NOTES           folder for the per-job notes the TaskProlog prints (default /run/nccl-doctor)
set -u
[ -r /etc/default/nccl-doctor ] && . /etc/default/nccl-doctor
doctor="${NCCL_DOCTOR:-nccl-doctor}"
limit="${NCCL_DOCTOR_TIMEOUT:-25}"
notes="${NCCL_DOCTOR_NOTES:-/run/nccl-doctor}"
job="${SLURM_JOB_ID:-?}"
args=(preflight)
# shellcheck disable=SC2206  # NCCL_DOCTOR_ARGS is a list of words by design
[ -n "${NCCL_DOCTOR_ARGS:-}" ] && args+=(${NCCL_DOCTOR_ARGS})
[ -n "${NCCL_DOCTOR_TEXTFILE:-}" ] && args+=(-o "${NCCL_DOCTOR_TEXTFILE}")

# syslog (priority err) and stderr (in slurmd's log when the prolog fails)
log() { logger -p user.err -t nccl-doctor-prolog -- "$*" 2>/dev/null; echo "nccl-doctor-prolog: $*" >&2; }

# What an exit status that is neither 0 nor 1 means; 124/137 come from timeout, 126/127 from the shell.
failure() {
  case "$1" in
    2) echo "a usage or input error (exit 2): check NCCL_DOCTOR_ARGS and the configs/ files" ;;
    3) echo "the tool itself failed (exit 3)" ;;
    124|137) echo "preflight did not finish within ${limit} s (exit $1)" ;;
    126|127) echo "cannot start '${doctor}' (exit $1: $([ "$1" -eq 127 ] && echo 'not found' || echo 'not executable'))" ;;
    *) echo "preflight ended with exit $1" ;;
  esac
}

# A line for the job's own output, printed by task-prolog.sh; notes older than a week are removed.
note() {
  [ "${job}" = "?" ] && return 0
  mkdir -p -m 0755 "${notes}" 2>/dev/null || return 0
  find "${notes}" -maxdepth 1 -name 'job-*' -mmin +10080 -delete 2>/dev/null
  (umask 022 && printf '%s\n' "$*" > "${notes}/job-${job}") 2>/dev/null || true
}

out="$(LC_ALL=C timeout --kill-after=5 "${limit}" "${doctor}" "${args[@]}" 2>&1)"
rc=$?
case "${rc}" in
  0) exit 0 ;;
  1) log "node failed preflight (job ${job}): $(printf '%s\n' "${out}" | grep -m1 -E '^  (ERROR|Result)' || true)"
     printf '%s\n' "${out}" >&2
     exit 1 ;;
esac
why="$(failure "${rc}")"
last="$(printf '%s\n' "${out}" | grep -v '^[[:space:]]*$' | tail -n1 | cut -c1-300)"
if [ "${NCCL_DOCTOR_ON_TOOL_FAILURE:-run}" = "drain" ]; then
  log "NODE NOT CHECKED (job ${job}): ${why}; NCCL_DOCTOR_ON_TOOL_FAILURE=drain fails the prolog${last:+: ${last}}"
  exit 1
fi
log "NODE NOT CHECKED (job ${job}): ${why}; the job runs unchecked${last:+: ${last}}"
note "nccl-doctor: WARNING: node $(hostname -s) was not checked before this job: ${why}. Ask the cluster admins (syslog tag nccl-doctor-prolog)."
exit 0
