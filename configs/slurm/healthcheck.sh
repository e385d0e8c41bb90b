#!/usr/bin/env bash
# Slurm HealthCheckProgram: nccl-doctor preflight every HealthCheckInterval; an error-level finding drains the node
# with the finding as the reason (scontrol show node says why), and a later clean run resumes a node this script
# drained (never one drained by someone else).
#
#   slurm.conf:  HealthCheckProgram=/etc/slurm/nccl-doctor-healthcheck.sh   HealthCheckInterval=300
#
# Settings as in prolog.sh (NCCL_DOCTOR, NCCL_DOCTOR_ARGS, NCCL_DOCTOR_TIMEOUT, NCCL_DOCTOR_TEXTFILE), plus
#   SCONTROL  (default: scontrol on PATH)
set -u
[ -r /etc/default/nccl-doctor ] && . /etc/default/nccl-doctor
doctor="${NCCL_DOCTOR:-nccl-doctor}"
scontrol="${SCONTROL:-scontrol}"
limit="${NCCL_DOCTOR_TIMEOUT:-25}"
node="$(hostname -s)"
args=(preflight)
# shellcheck disable=SC2206
[ -n "${NCCL_DOCTOR_ARGS:-}" ] && args+=(${NCCL_DOCTOR_ARGS})
[ -n "${NCCL_DOCTOR_TEXTFILE:-}" ] && args+=(-o "${NCCL_DOCTOR_TEXTFILE}")

out="$(LC_ALL=C timeout --kill-after=5 "${limit}" "${doctor}" "${args[@]}" 2>&1)"
rc=$?
if [ "${rc}" -eq 1 ]; then
  first="$(printf '%s\n' "${out}" | grep -m1 -E '^  ERROR' | sed -E 's/^  ERROR +//' | cut -c1-200)"
  "${scontrol}" update nodename="${node}" state=drain reason="nccl-doctor: ${first:-error-level finding}"
  exit 1
fi
if [ "${rc}" -eq 0 ]; then
  reason="$("${scontrol}" show node "${node}" 2>/dev/null | grep -o 'Reason=nccl-doctor[^=]*' || true)"
  if [ -n "${reason}" ]; then
    "${scontrol}" update nodename="${node}" state=resume
  fi
fi
exit 0
