#!/usr/bin/env bash
# On a GPU machine, within 10 minutes: versions, the gpu-tagged tests, the native run of allreduce, allgather and
# alltoall with -c 1 (and nccl-tests built from the pip NCCL's headers beside it, when nvcc and the nccl-tests source
# are there), gdr and gdr --active, preflight --quick, and an HTML report with charts. Everything under ${OUT:-device-out}.
# Needs .device/ from scripts/prepare-device-check.sh, carried as .device/bundle.tar.xz (the machine may have no Java).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ ! -x .device/jre/bin/java ] && [ -f .device/bundle.tar.xz ]; then
  tar -C .device -xJf .device/bundle.tar.xz
fi
out="${OUT:-$root/device-out}"
mkdir -p "$out"
java=".device/jre/bin/java"
jopts=(--enable-native-access=ALL-UNNAMED)
deadline=$(( $(date +%s) + ${DEVICE_CHECK_SECONDS:-570} ))

# step LIMIT CMD...: runs CMD with at most LIMIT seconds, never past the script's deadline
step() {
  local limit=$1 left=$(( deadline - $(date +%s) ))
  shift
  if [ "$left" -le 5 ]; then echo "skipped (the 10-minute budget is spent): $*" >&2; return 0; fi
  [ "$limit" -gt "$left" ] && limit=$left
  timeout --kill-after=5 "$limit" "$@"
  echo "exit: $? (limit ${limit} s)" >&2
}

tool() {
  echo "-- nccl-doctor $*" >&2
  LD_LIBRARY_PATH="${nccl:+$nccl:}${LD_LIBRARY_PATH:-}" step 90 "$java" "${jopts[@]}" -jar .device/nccl-doctor.jar "$@" 2>&1
}

{
  echo "== versions"
  uname -a
  nvidia-smi -L 2>&1
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv 2>&1
  cat /proc/driver/nvidia/version 2>&1
  "$java" -version 2>&1
  nvcc --version 2>&1 | tail -1
  # pip's NCCL (nvidia-nccl-cu13 or -cu12) is not on the loader path: name it, as a job would
  nccl=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null || true)
  echo "pip NCCL lib folder: ${nccl:-none}"; ls -l "${nccl:-/nonexistent}" 2>&1 | tail -3
  nvidia-smi topo -m 2>&1 | head -20
  tool --version

  echo "== gpu-tagged tests"
  LD_LIBRARY_PATH="${nccl:+$nccl:}${LD_LIBRARY_PATH:-}" step 200 "$java" "${jopts[@]}" \
    -jar .device/junit-platform-console-standalone.jar execute \
    --class-path ".device/classes:.device/nccl-doctor.jar:$(ls .device/lib/*.jar | tr '\n' ':')" --include-tag gpu \
    --scan-class-path .device/classes --details=tree --disable-banner --disable-ansi-colors 2>&1

  echo "== native runs, data checked"
  for c in allreduce allgather alltoall; do
    tool run --collective "$c" -b 8 -e 256M -c 1 --timeout 60 --log-dir "$out/nccl-logs-$c" --json > "$out/run-$c.json"
    tail -1 "$out/run-$c.json"
    tool run --collective "$c" -b 1M -e 256M -c 1 --timeout 60 --log-dir "$out/nccl-logs-$c-text"
  done

  echo "== nccl-tests from the pip NCCL's headers, beside the native runs"
  src=.device/nccl-tests-src
  if [ -n "$nccl" ] && command -v nvcc >/dev/null && [ -d "$src/src" ]; then
    home="$out/nccl-home"; mkdir -p "$home/lib"
    ln -sf "$(dirname "$nccl")/include" "$home/include"
    ln -sf "$nccl/libnccl.so.2" "$home/lib/libnccl.so"
    b="$out/nccl-tests-build"
    step 240 make -s -j"$(nproc)" -C "$src/src" NCCL_HOME="$home" BUILDDIR="$b" \
      NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" "$b/all_reduce_perf" "$b/all_gather_perf" "$b/alltoall_perf" 2>&1 | tail -5
    for c in allreduce allgather alltoall; do
      tool run --reference nccl-tests --nccl-tests-dir "$b" --collective "$c" -b 1M -e 256M -c 1 --timeout 60 \
        --log-dir "$out/nccl-tests-logs-$c"
    done
  else
    echo "skipped: needs the pip NCCL, nvcc and the nccl-tests source in $src (prepare-device-check.sh with NCCL_TESTS_GIT)"
  fi

  echo "== gdr, gdr --active, preflight --quick"
  tool gdr
  tool gdr --active
  tool gdr --json > "$out/gdr.json"
  tool preflight --quick
  echo "== an HTML report with charts"
  tool compare configs/examples/field-report-cluster/ab-nccl-2.28.3-vs-2.30.7.jsonl -o "$out/compare.html" --force
  grep -c "data:image/png;base64," "$out/compare.html" 2>&1
  tool preflight -o "$out/preflight.html" --force
  tool capture -o "$out/capture" --force > /dev/null
  tar czf "$out/capture.tgz" -C "$out" capture && rm -rf "$out/capture"
  echo "== done at $(date -u +%FT%TZ), $(( deadline - $(date +%s) )) s of the budget left"
} 2>&1 | tee "$out/device-check.log"
