package io.nccldoctor.reports.cluster;

/**
 * One measured bus bandwidth of one node: a row of a bandwidth file (docs/cluster.md).
 *
 * @param label     what was measured ("allreduce 1GiB 8 GPUs"); nodes are compared within one label
 * @param busBwGBps bus bandwidth in GB/s (1e9 bytes per second), as nccl-tests prints busbw
 * @param source    file:line it came from
 */
public record Sample(String host, String label, double busBwGBps, String source) {
}
