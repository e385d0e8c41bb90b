package io.nccldoctor.reports.baseline;

import io.nccldoctor.core.Fact;

/**
 * The network devices of one node as the input shows them.
 *
 * @param perNode  how many NICs (RDMA ports, or NCCL's NET devices) one node has
 * @param rateGbps each one's line rate in Gbit/s, when the input says (a capture's sysfs rate, NCCL's System dump)
 * @param source   where it was read
 * @param text     the evidence as one line
 */
public record Nics(int perNode, Fact<Double> rateGbps, String source, String text) {
}
