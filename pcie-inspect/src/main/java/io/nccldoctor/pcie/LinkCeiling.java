package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;

/**
 * The usable one-direction bandwidth of one PCIe link.
 *
 * <p>Per-lane data rates after line encoding are the kernel's {@code PCIE_SPEED2MBS_ENC}: Gen1 2000, Gen2 4000,
 * Gen3 7877, Gen4 15754, Gen5 31508, Gen6 64000 Mb/s (8b/10b up to Gen2, 128b/130b Gen3–5, 1b/1b Gen6;
 * reference/peers-and-platform.md B1). TLP efficiency is MaxPayload / (MaxPayload + 24): 24 bytes of framing,
 * sequence number, 4DW header (GPU BARs sit above 4 GB, so 64-bit addressing) and LCRC per TLP (Intel AN 456).
 * DLLPs and SKP ordered sets cost a little more, so real transfers land a few percent lower still.
 *
 * @param device       the device at the lower end of the link (its upstream link)
 * @param rawGbps      after encoding, before TLP overhead: lanes × per-lane rate
 * @param usableGbps   rawGbps × TLP efficiency at the device's MaxPayload; absent when MaxPayload is unknown
 */
public record LinkCeiling(String device, double speedGTps, int width, int generation, double rawGbps,
                          Fact<Integer> maxPayload, Fact<Double> usableGbps) {

    /** Bytes of per-TLP overhead with a 4DW header (Intel AN 456). */
    public static final int TLP_OVERHEAD_BYTES = 24;
    private static final int[] MBPS_PER_LANE = {2000, 4000, 7877, 15754, 31508, 64000, 128000};

    public static Fact<LinkCeiling> of(PciDevice d) {
        PciLink l = d.link();
        if (!l.speedGTps().isValue() || !l.width().isValue()) {
            String why = !l.speedGTps().isValue() ? l.speedGTps().reason() : l.width().reason();
            return Fact.absent(d.address() + ": no link speed and width (" + why + ")");
        }
        double gt = l.speedGTps().get();
        int width = l.width().get();
        return PciLink.generation(gt).map(gen -> {
            double raw = width * MBPS_PER_LANE[gen - 1] / 1000.0;
            Fact<Integer> mps = d.config().maxPayload();
            Fact<Double> usable = mps.map(p -> raw * p / (p + (double) TLP_OVERHEAD_BYTES));
            if (!mps.isValue()) {
                usable = Fact.absent("MaxPayload unknown (" + mps.reason() + ")");
            }
            return new LinkCeiling(d.address(), gt, width, gen, raw, mps, usable);
        });
    }

    /** The figure to compare: usable when known, else raw. */
    public double bestGbps() {
        return usableGbps.orElse(rawGbps);
    }

    public double bestGBps() {
        return bestGbps() / 8;
    }

    /** "Gen4 x16", as engineers say it. */
    public String label() {
        return "Gen" + generation + " x" + width;
    }
}
