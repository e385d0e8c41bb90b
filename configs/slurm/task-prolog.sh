#!/usr/bin/env bash
# Slurm TaskProlog: puts the prolog's warning into the job's own output when nccl-doctor could not check this node
# before the job (prolog.sh writes the note; Slurm writes each "print ..." line of a TaskProlog to the task's
# standard output, slurm.schedmd.com/prolog_epilog.html). Once per node and step: only local task 0 prints.
#
#   slurm.conf:  TaskProlog=/etc/slurm/nccl-doctor-task-prolog.sh
#
# Runs as the job's user; it only reads. NCCL_DOCTOR_NOTES as in prolog.sh (default /run/nccl-doctor).
set -u
[ -r /etc/default/nccl-doctor ] && . /etc/default/nccl-doctor
[ "${SLURM_LOCALID:-0}" = "0" ] || exit 0
file="${NCCL_DOCTOR_NOTES:-/run/nccl-doctor}/job-${SLURM_JOB_ID:-none}"
if [ -r "${file}" ]; then
  while IFS= read -r line; do
    printf 'print %s\n' "${line}"
  done < "${file}"
fi
exit 0
