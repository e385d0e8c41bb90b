#!/usr/bin/env bash
# Two topology benchmarks.
# 1. Time to build the PCI tree and all pair paths of a 200-device machine in a warm JVM (target < 100 ms).
# 2. `nccl-doctor topo --nccl-topo-xml` end to end (JVM start included) on generated NCCL topology files of growing
#    size, to show that reading, building and judging stay near-linear: wall and user CPU seconds and peak memory.
#    The files are SYNTHETIC (for scale only, not a real machine): N GPUs and N/2 ConnectX NICs, two GPUs and one NIC
#    per Broadcom switch, the switches split over two <cpu> elements.
# Usage: bench/topology.sh [GPU counts...]   (default 250 500 1000 2000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/nccl-doctor" --version >/dev/null   # builds the jar when needed
java -cp "$root/cli/target/nccl-doctor.jar" "$root/bench/TopologyBench.java"

# gen GPUS: an NCCL topology file with that many GPUs
gen() {
  local gpus=$1 switches=$(( ($1 + 1) / 2 )) cpu s
  echo '<system version="1">'
  for cpu in 0 1; do
    echo "  <cpu numaid=\"$cpu\" affinity=\"ffff\" arch=\"x86_64\" vendor=\"GenuineIntel\" familyid=\"6\" modelid=\"143\">"
    for ((s = cpu; s < switches; s += 2)); do
      printf '    <pci busid="%04x:01:00.0" class="0x060400" vendor="0x1000" device="0xc030" link_speed="32.0 GT/s PCIe" link_width="16">\n' $((s + 1))
      printf '      <pci busid="%04x:02:00.0" class="0x030200" vendor="0x10de" device="0x2330" link_speed="32.0 GT/s PCIe" link_width="16"><gpu dev="%d" sm="90" rank="%d" gdr="1"/></pci>\n' $((s + 1)) $((2 * s)) $((2 * s))
      printf '      <pci busid="%04x:03:00.0" class="0x030200" vendor="0x10de" device="0x2330" link_speed="32.0 GT/s PCIe" link_width="16"><gpu dev="%d" sm="90" rank="%d" gdr="1"/></pci>\n' $((s + 1)) $((2 * s + 1)) $((2 * s + 1))
      printf '      <pci busid="%04x:04:00.0" class="0x020700" vendor="0x15b3" device="0x1021" link_speed="32.0 GT/s PCIe" link_width="16"><nic><net name="mlx5_%d" dev="%d" speed="400000" port="1" gdr="1"/></nic></pci>\n' $((s + 1)) "$s" "$s"
      echo '    </pci>'
    done
    echo '  </cpu>'
  done
  echo '</system>'
}

dir="$(mktemp -d "${TMPDIR:-/tmp}/nccl-doctor-topology.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
echo "topo --nccl-topo-xml on synthetic files (JVM start included):"
for gpus in "${@:-250 500 1000 2000}"; do
  for n in $gpus; do
    gen "$n" >"$dir/topo-$n.xml"
    /usr/bin/time -f "  $n GPUs, $((n / 2)) NICs, $(wc -c <"$dir/topo-$n.xml") bytes: %e s wall, %U s user, %M KB peak" \
      "$root/nccl-doctor" topo --nccl-topo-xml "$dir/topo-$n.xml" >"$dir/out-$n.txt" || [ $? -eq 1 ]
  done
done
