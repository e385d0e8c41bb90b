package io.nccldoctor.reports.baseline;

/**
 * One thing the input shows about how a run moved its bytes: a likely cause of a slow number (peer-to-peer off, a
 * SYS path, TCP sockets, no GPU Direct RDMA, a virtual machine's emulated bridges), or a mechanism that lets busbw
 * legitimately pass a link's rate (NVLink SHARP, in-network reduction), or a fact about the links (NVLink, NICs).
 *
 * @param kind   what it is
 * @param text   the evidence in one line, with the value as printed
 * @param source the file it was read from
 */
public record Note(Kind kind, String text, String source) {

    public enum Kind {
        P2P_OFF(true, "peer-to-peer between the GPUs is off or not supported: every intra-node byte is staged through host memory"),
        SYS_PATH(true, "the GPUs' path crosses the CPU interconnect between sockets (SYS): peer traffic, if allowed at all, "
                + "goes through both root complexes"),
        SOCKET(true, "the network channels use TCP sockets (NET/Socket): every byte crosses the kernel's TCP stack and host memory"),
        NO_GDR(true, "the network channels run without GPU Direct RDMA: the NIC reads and writes a bounce buffer in host memory"),
        NARROW_LINK(true, "a link in front of the NICs is narrower than their line rate (a PCIe slot with fewer lanes or an older "
                + "generation): no tuning gets past it"),
        VM(true, "the GPUs sit in a virtual machine: emulated PCIe bridges hide the real topology, and peer-to-peer or GPU Direct "
                + "RDMA may be off or go through the host's IOMMU"),
        ALGORITHM(false, "the algorithm or protocol was pinned"),
        NVLS(false, "NVLink SHARP (in-switch reduction) was used or allowed"),
        COLLNET(false, "in-network reduction (CollNet / IB SHARP) was used or allowed"),
        NVLINK(false, "the GPUs are joined by NVLink"),
        NIC(false, "the network devices NCCL used"),
        UNREAD(false, "part of the input that could not be read for this: said, not guessed");

        private final boolean cause;
        private final String meaning;

        Kind(boolean cause, String meaning) {
            this.cause = cause;
            this.meaning = meaning;
        }

        /** A likely reason for a number below its baseline. */
        public boolean cause() {
            return cause;
        }

        /** What it means for the bandwidth, in a sentence. */
        public String meaning() {
            return meaning;
        }
    }

    public boolean is(Kind k) {
        return kind == k;
    }
}
