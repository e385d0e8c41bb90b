package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The GPU-to-NIC path types NCCL 2.3 and 2.4 print for each GPU, before the topology search replaced them (2.5):
 * 2.4's "CUDA Dev 0[0], IB NIC distance :  PIX SYS" (src/transport/net.cc@v2.4.8-1 L106, one path type per NET
 * device, the network's name between), and 2.3's "CUDA Dev 0, IB Ports : mlx5_0/1(PIX) mlx5_1/1(SOC) "
 * (src/transport/net_ib.cu@v2.3.5-5 L168). The names are NCCL's pathDists: PIX, PXB, PHB, SOC up to 2.4.2, then PIX,
 * PXB, PHB, NODE, SYS (src/misc/topo.cc@v2.4.6-1 L28); they are kept as printed. Each distinct statement is kept
 * once (every process prints its GPU's), and every line is counted.
 */
final class NicDistances {

    private static final int KEEP = 64;
    private final Map<String, NcclLog.NicDistance> kept = new LinkedHashMap<>();
    long count;

    /** The statement of one line (its message from "CUDA Dev"); empty when it is neither shape. */
    static Optional<NcclLog.NicDistance> read(String message, String line) {
        String m = message.strip();
        if (!m.startsWith("CUDA Dev ")) {
            return Optional.empty();
        }
        int comma = m.indexOf(", ");
        int colon = m.indexOf(" : ");
        if (comma < 0 || colon < comma) {
            return Optional.empty();
        }
        String gpu = m.substring("CUDA Dev ".length(), comma);
        String what = m.substring(comma + 2, colon);
        List<String> nics = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        String[] items = m.substring(colon + 3).strip().split("\\s+");
        if (what.endsWith(" NIC distance")) { // 2.4: the NET devices by index
            for (String p : items) {
                if (!p.isEmpty()) {
                    nics.add(String.valueOf(nics.size()));
                    paths.add(p);
                }
            }
            what = what.substring(0, what.length() - " NIC distance".length());
        } else if (what.endsWith(" Ports")) { // 2.3: "mlx5_0/1(PIX)"
            for (String p : items) {
                int open = p.lastIndexOf('(');
                if (open <= 0 || !p.endsWith(")")) {
                    return Optional.empty();
                }
                nics.add(p.substring(0, open));
                paths.add(p.substring(open + 1, p.length() - 1));
            }
            what = what.substring(0, what.length() - " Ports".length());
        } else {
            return Optional.empty();
        }
        return paths.isEmpty() ? Optional.empty() : Optional.of(new NcclLog.NicDistance(gpu, what, List.copyOf(nics), List.copyOf(paths), line));
    }

    void add(NcclLog.NicDistance d) {
        count++;
        if (kept.size() < KEEP) {
            kept.putIfAbsent(key(d), d);
        }
    }

    private static String key(NcclLog.NicDistance d) {
        return d.gpu() + "|" + d.network() + "|" + d.nics() + "|" + d.paths();
    }

    void absorb(NicDistances o) {
        long before = count;
        for (NcclLog.NicDistance d : o.kept.values()) { // a loop: no lambda to link, once per parse
            add(d);
        }
        count = before + o.count;
    }

    List<NcclLog.NicDistance> build() {
        return List.copyOf(kept.values());
    }
}
