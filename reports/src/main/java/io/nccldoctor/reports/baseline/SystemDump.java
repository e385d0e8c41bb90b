package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * NCCL's topology dump ({@code NCCL_DEBUG=INFO}, NCCL_DEBUG_SUBSYS=GRAPH): the lines under {@code === System : maxBw …
 * totalBw … ===} that give each NET device's bandwidth ({@code net->net.bw = mbps / 8000.0}, NVIDIA/nccl
 * src/graph/topo.cc, in GB/s) and each GPU's NVLink count. It names the NICs' rate where the rest of a log names only
 * the devices, and the NVLinks where the device lines name only the GPUs. Read by the log parser
 * ({@link NcclLog#systems()}); this is the part a baseline needs.
 *
 * @param netGBps  per NET device, its bandwidth in GB/s as NCCL modelled it
 * @param nvlinks  its NVLink links, to GPUs or NVSwitches
 * @param source   the log it came from
 */
public record SystemDump(List<Double> netGBps, int nvlinks, String source) {

    public SystemDump {
        netGBps = List.copyOf(netGBps);
    }

    /**
     * The dump a log shows, when its complete dumps agree on the NET devices (every process of a node prints the same
     * one; nodes that differ leave the NICs to the other sources). An excerpt without the closing line is left out:
     * its NET count may be cut short, and a count per node scales the per-NIC baselines.
     */
    public static Optional<SystemDump> of(NcclLog log, String source) {
        List<NcclLog.SystemDump> complete = log.systems().stream().filter(NcclLog.SystemDump::complete).filter(d -> d.nets() > 0).toList();
        if (complete.isEmpty()) {
            return Optional.empty();
        }
        NcclLog.SystemDump first = complete.get(0);
        if (complete.stream().anyMatch(d -> d.nets() != first.nets() || !d.netBandwidths().equals(first.netBandwidths()))) {
            return Optional.empty();
        }
        List<Double> bandwidths = new ArrayList<>();
        for (String bw : first.netBandwidths()) {
            try {
                bandwidths.add(Double.parseDouble(bw));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        List<Double> net = bandwidths.size() == 1 ? Collections.nCopies(first.nets(), bandwidths.get(0)) : bandwidths;
        return Optional.of(new SystemDump(net, first.nvlinks(), source));
    }

    /** The NICs it shows, when it shows any. */
    public Optional<Nics> nics() {
        if (netGBps.isEmpty()) {
            return Optional.empty();
        }
        boolean same = netGBps.stream().distinct().count() == 1;
        return Optional.of(new Nics(netGBps.size(), same ? Fact.of(lineRate(netGBps.get(0)))
                : Fact.absent("the NET devices differ in bandwidth " + netGBps), source,
                "NCCL System dump: " + netGBps.size() + " NET devices at " + netGBps.stream().distinct().toList() + " GB/s"));
    }

    /** Ethernet and InfiniBand port rates in Gb/s (10GbE … XDR 800G; IB 4X EDR 100, HDR 200, NDR 400). */
    private static final double[] PORT_RATES = {1, 10, 25, 40, 50, 56, 100, 200, 400, 800};

    /**
     * A NET bandwidth as NCCL prints it ({@code %.1f} GB/s: 12.5 for 100 Gb/s, but 1.2 for 10 Gb/s and 6.2 for 50 Gb/s) in
     * Gb/s: the port rate it rounds from where one lies within the print's rounding (0.05 GB/s, 0.4 Gb/s), else times 8.
     */
    static double lineRate(double gbytes) {
        double gbits = gbytes * 8;
        for (double r : PORT_RATES) {
            if (Math.abs(gbits - r) <= 0.4 + 1e-9) {
                return r;
            }
        }
        return gbits;
    }
}
