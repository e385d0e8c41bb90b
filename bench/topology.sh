#!/usr/bin/env bash
# Time to build the PCI tree and all pair paths of a 200-device machine in a warm JVM (target < 100 ms).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/nccl-doctor" --version >/dev/null   # builds the jar when needed
exec java -cp "$root/cli/target/nccl-doctor.jar" "$root/bench/TopologyBench.java"
