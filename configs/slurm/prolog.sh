#!/usr/bin/env bash
# Slurm prolog: nccl-doctor preflight before every job on every node.
#
#   slurm.conf:  Prolog=/etc/slurm/nccl-doctor-prolog.sh   PrologFlags=Alloc   PrologEpilogTimeout=60
#
# Exit status decides the node's fate: a non-zero prolog drains the node and requeues the job. So only a real
# finding at error level (preflight exit 1) fails the prolog; a usage error (2) or a failure of the tool itself (3),
# or preflight outliving its own limit, is logged and lets the job run: a broken check must not drain a healthy
# fleet. The limit stays well below PrologEpilogTimeout.
#
# Settings (environment, e.g. in /etc/default/nccl-doctor, sourced below when present):
#   NCCL_DOCTOR           the launcher or a wrapper (default: nccl-doctor on PATH)
#   NCCL_DOCTOR_ARGS      extra arguments, e.g. "--profile gpu-node-8x8"
#   NCCL_DOCTOR_TIMEOUT   seconds (default 25)
#   NCCL_DOCTOR_TEXTFILE  a node_exporter textfile to refresh (default: none)
set -u
[ -r /etc/default/nccl-doctor ] && . /etc/default/nccl-doctor
doctor="${NCCL_DOCTOR:-nccl-doctor}"
limit="${NCCL_DOCTOR_TIMEOUT:-25}"
args=(preflight)
# shellcheck disable=SC2206  # NCCL_DOCTOR_ARGS is a list of words by design
[ -n "${NCCL_DOCTOR_ARGS:-}" ] && args+=(${NCCL_DOCTOR_ARGS})
[ -n "${NCCL_DOCTOR_TEXTFILE:-}" ] && args+=(-o "${NCCL_DOCTOR_TEXTFILE}")
log() { logger -t nccl-doctor-prolog -- "$*" 2>/dev/null; echo "nccl-doctor-prolog: $*" >&2; }  # syslog and slurmd's log

out="$(LC_ALL=C timeout --kill-after=5 "${limit}" "${doctor}" "${args[@]}" 2>&1)"
rc=$?
case "${rc}" in
  0) exit 0 ;;
  1) log "node failed preflight (job ${SLURM_JOB_ID:-?}): $(printf '%s\n' "${out}" | grep -m1 -E '^  (ERROR|Result)' || true)"
     printf '%s\n' "${out}" >&2
     exit 1 ;;
  124|137) log "preflight did not finish within ${limit} s; the job runs, the node is not drained"; exit 0 ;;
  *) log "preflight could not judge this node (exit ${rc}); the job runs: $(printf '%s\n' "${out}" | tail -n1)"; exit 0 ;;
esac
