#!/usr/bin/env bash
# Wall time of `nccl-doctor cluster` over generated node snapshots (JVM start included), in milliseconds.
# The generator is test code (reports ClusterSample): DGX-class nodes as `preflight --json` writes them, about 400 KB
# each, with 3 nodes on another NIC firmware, 2 at MTU 1500, 1 on an older driver and 2 slow in a bandwidth file.
# Assumes the jar and the test classes are built (mvn -B -o -q verify -pl cli -am).
# Usage: bench/cluster.sh [NODES] [RUNS]   (default 1000 nodes, 3 runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/cli/target/nccl-doctor.jar"
classes="$root/reports/target/test-classes"
if [ ! -f "$jar" ] || [ ! -f "$classes/io/nccldoctor/reports/cluster/ClusterSample.class" ]; then
  echo "bench/cluster.sh: build first: mvn -B -o -q verify -pl cli -am (needs $jar and the reports test classes)" >&2
  exit 2
fi
nodes="${1:-1000}"
runs="${2:-3}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/nccl-doctor-cluster.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
java -cp "$jar:$classes" io.nccldoctor.reports.cluster.ClusterSample "$dir/snapshots" "$nodes"
echo "input: $(du -sh "$dir/snapshots" | cut -f1) in $(ls "$dir/snapshots" | wc -l) files"
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  java -jar "$jar" cluster "$dir/snapshots" >"$dir/out.txt" || [ $? -eq 1 ]
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sed -n 3p "$dir/out.txt"
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "cluster wall time over $runs runs, $nodes nodes (ms): ${times[*]}"
echo "median: ${sorted[$(( runs / 2 ))]} ms"
