package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The multi-node NVLink (MNNVL) fabric line each process prints for its GPU at initialisation when NVML reports a fabric
 * (GB200 and its kin): "MNNVL busId 0x%lx fabric UUID %lx.%lx cliqueId 0x%x state %d healthMask 0x%x" (src/init.cc,
 * from 2.20.3; NVML's nvmlGpuFabricInfo_v2_t). The state is NVML's registration of the GPU with the fabric manager
 * (src/include/nvmlwrap.h: 0 not supported, 1 not started, 2 in progress, 3 completed). The health mask is kept as
 * printed: NCCL decodes none of its fields.
 */
final class MnnvlFabric {

    private static final Pattern LINE = Pattern.compile(
            "MNNVL busId (0x[0-9a-fA-F]+) fabric UUID ([0-9a-fA-F]+\\.[0-9a-fA-F]+) cliqueId (0x[0-9a-fA-F]+) state (\\d+) healthMask (0x[0-9a-fA-F]+)");
    /** GPUs kept: a node's GPUs, and then some. */
    private static final int GPUS = 64;

    private final Map<String, NcclLog.MnnvlGpu> gpus = new LinkedHashMap<>();
    private long lines;

    /** The message at its start ("MNNVL busId …"), its line as written; empty for a line cut before its health mask. */
    static Optional<NcclLog.MnnvlGpu> read(String message, String kept) {
        Matcher m = LINE.matcher(message);
        if (!m.lookingAt()) {
            return Optional.empty();
        }
        return Optional.of(new NcclLog.MnnvlGpu(m.group(1), m.group(2), m.group(3), Integer.parseInt(m.group(4)), m.group(5), kept));
    }

    /** Each GPU's line once (every process prints its own, once per communicator), by all it says. */
    void add(NcclLog.MnnvlGpu g) {
        lines++;
        String key = g.busId() + ' ' + g.fabricUuid() + ' ' + g.cliqueId() + ' ' + g.state() + ' ' + g.healthMask();
        if (gpus.size() < GPUS) {
            gpus.putIfAbsent(key, g);
        }
    }

    void absorb(MnnvlFabric o) {
        lines += o.lines;
        for (Map.Entry<String, NcclLog.MnnvlGpu> g : o.gpus.entrySet()) { // a loop: no lambda to link, once per parse
            if (gpus.size() < GPUS) {
                gpus.putIfAbsent(g.getKey(), g.getValue());
            }
        }
    }

    NcclLog.Mnnvl build() {
        return new NcclLog.Mnnvl(List.copyOf(new ArrayList<>(gpus.values())), lines);
    }
}
