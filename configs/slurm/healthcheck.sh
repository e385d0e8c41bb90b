#!/usr/bin/env bash
# Slurm HealthCheckProgram: nccl-doctor preflight every HealthCheckInterval; an error-level finding drains the node
# with the finding as the reason (scontrol show node says why), and a later clean run resumes a node this script
# drained (never one drained by someone else).
#
#   slurm.conf:  HealthCheckProgram=/etc/slurm/nccl-doctor-healthcheck.sh   HealthCheckInterval=300
#
# When the check itself fails (exit 2, 3, 126/127, or past its limit) the node was not checked: that is logged
# loudly to syslog at priority err (tag nccl-doctor-healthcheck) and to stderr, and the node's state is left as it
# is, unless NCCL_DOCTOR_ON_TOOL_FAILURE=drain, which drains it with the failure as the reason.
#
# Settings as in prolog.sh (NCCL_DOCTOR, NCCL_DOCTOR_ARGS, NCCL_DOCTOR_TIMEOUT, NCCL_DOCTOR_TEXTFILE,
# NCCL_DOCTOR_ON_TOOL_FAILURE), plus
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

# syslog (priority err) and stderr
log() { logger -p user.err -t nccl-doctor-healthcheck -- "$*" 2>/dev/null; echo "nccl-doctor-healthcheck: $*" >&2; }

# What an exit status other than 0 and 1 means; 124/137 come from timeout, 126/127 from the shell.
failure() {
  case "$1" in
    2) echo "a usage or input error (exit 2): check NCCL_DOCTOR_ARGS and the configs/ files" ;;
    3) echo "the tool itself failed (exit 3)" ;;
    124|137) echo "preflight did not finish within ${limit} s (exit $1)" ;;
    126|127) echo "cannot start '${doctor}' (exit $1: $([ "$1" -eq 127 ] && echo 'not found' || echo 'not executable'))" ;;
    *) echo "preflight ended with exit $1" ;;
  esac
}

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
  exit 0
fi
why="$(failure "${rc}")"
last="$(printf '%s\n' "${out}" | grep -v '^[[:space:]]*$' | tail -n1 | cut -c1-300)"
if [ "${NCCL_DOCTOR_ON_TOOL_FAILURE:-run}" = "drain" ]; then
  log "NODE NOT CHECKED: ${why}; NCCL_DOCTOR_ON_TOOL_FAILURE=drain drains it${last:+: ${last}}"
  "${scontrol}" update nodename="${node}" state=drain reason="nccl-doctor: not checked: ${why}"
  exit 1
fi
log "NODE NOT CHECKED: ${why}; its state is left as it is${last:+: ${last}}"
exit 0
