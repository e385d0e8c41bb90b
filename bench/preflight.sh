#!/usr/bin/env bash
# Median wall time of N runs of `nccl-doctor preflight` (JVM start included), in milliseconds.
# Usage: bench/preflight.sh [RUNS] [extra preflight args...]   (default 5 runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}"
shift || true
"$root/nccl-doctor" --version >/dev/null   # build the jar first, outside the measurement
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$root/nccl-doctor" preflight "$@" >/dev/null || [ $? -eq 1 ]
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "preflight wall time over $runs runs (ms): ${times[*]}"
echo "median: ${sorted[$(( runs / 2 ))]} ms"
