#!/usr/bin/env bash
# On a GPU machine: the gpu-tagged tests and a short nccl-doctor run, everything written under ${OUT:-device-out}.
# Needs .device/ from scripts/prepare-device-check.sh (carried: the machine may have no Java).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="${OUT:-$root/device-out}"
mkdir -p "$out"
java=".device/jre/bin/java"
jopts=(--enable-native-access=ALL-UNNAMED)
{
  echo "== machine"; uname -a; nvidia-smi -L 2>&1; nvidia-smi topo -m 2>&1 | head -40
  # pip's NCCL (nvidia-nccl-cu13) is not on the loader path: name it, as a job would
  nccl=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(os.path.dirname(nvidia.nccl.__file__), "lib"))' 2>/dev/null || true)
  echo "pip NCCL lib folder: ${nccl:-none}"
  echo "== gpu-tagged tests"
  timeout 300 "$java" "${jopts[@]}" -jar .device/junit-platform-console-standalone.jar execute \
    --class-path ".device/classes:.device/nccl-doctor.jar:$(ls .device/lib/*.jar | tr '\n' ':')" --include-tag gpu \
    --scan-class-path .device/classes \
    --details=tree --disable-banner --disable-ansi-colors 2>&1
  echo "tests exit: $?"
  echo "== nccl-doctor"
  for args in "--version" "preflight --quick" "topo --compare-nvidia-smi live" "gdr" "run --collective allreduce" \
      "run --collective allgather -b 1M -e 16M --log-dir $out/nccl-logs" "parse nccl-log $out/nccl-logs" \
      "run --collective alltoall -b 1M -e 64M -a 3" "sweep quick -o $out/sweep-quick.jsonl --force" "report $out/sweep-quick.jsonl"; do
    echo "-- nccl-doctor $args"
    LD_LIBRARY_PATH="${nccl:+$nccl:}${LD_LIBRARY_PATH:-}" timeout 120 "$java" "${jopts[@]}" -jar .device/nccl-doctor.jar $args 2>&1
    echo "exit: $?"
  done
  LD_LIBRARY_PATH="${nccl:+$nccl:}${LD_LIBRARY_PATH:-}" timeout 120 "$java" "${jopts[@]}" -jar .device/nccl-doctor.jar gdr --json > "$out/gdr.json" 2>&1
  LD_LIBRARY_PATH="${nccl:+$nccl:}${LD_LIBRARY_PATH:-}" timeout 120 "$java" "${jopts[@]}" -jar .device/nccl-doctor.jar capture -o "$out/capture" --force > /dev/null 2>&1
  tar czf "$out/capture.tgz" -C "$out" capture && rm -rf "$out/capture"
} 2>&1 | tee "$out/device-check.log"
