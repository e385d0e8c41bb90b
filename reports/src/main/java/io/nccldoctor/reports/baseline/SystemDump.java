package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NCCL's topology dump ({@code NCCL_DEBUG=INFO}, NCCL_DEBUG_SUBSYS=GRAPH): the lines under {@code === System : maxBw …
 * totalBw … ===} that give each NET device's bandwidth ({@code net->net.bw = mbps / 8000.0}, NVIDIA/nccl
 * src/graph/topo.cc, in GB/s) and each GPU's NVLink count. It names the NICs' rate where the rest of a log names only
 * the devices, and the NVLinks where the device lines name only the GPUs.
 *
 * @param netGBps  per NET device, its bandwidth in GB/s as NCCL modelled it
 * @param nvlinks  per GPU (as NCCL names it), its NVLink count
 * @param source   the log it came from
 */
public record SystemDump(List<Double> netGBps, Map<String, Integer> nvlinks, String source) {

    public SystemDump {
        netGBps = List.copyOf(netGBps);
        nvlinks = Map.copyOf(nvlinks);
    }

    /**
     * Where a System dump comes from. HOOK: {@link NcclLog} does not read the {@code === System} dump yet; when it
     * does, an implementation that maps its fields goes here and {@link #NONE} stops being the one in use
     * ({@link Judged#of}). Until then the NICs' rate comes from a capture or from a bundle's {@code hardware:} entry.
     */
    public interface Source {
        Optional<SystemDump> of(NcclLog log, String source);
    }

    /** The source in use while the log parser has no System dump: never one. */
    public static final Source NONE = (log, source) -> Optional.empty();

    /** The NICs it shows, when it shows any. */
    public Optional<Nics> nics() {
        if (netGBps.isEmpty()) {
            return Optional.empty();
        }
        boolean same = netGBps.stream().distinct().count() == 1;
        return Optional.of(new Nics(netGBps.size(), same ? Fact.of(netGBps.get(0) * 8)
                : Fact.absent("the NET devices differ in bandwidth " + netGBps), source,
                "NCCL System dump: " + netGBps.size() + " NET devices at " + netGBps + " GB/s"));
    }
}
