package io.nccldoctor.reports.rules;

import io.nccldoctor.gdr.RdmaDevices;
import java.util.List;

/**
 * Which RoCE v2 GID NCCL would choose on a port (NVIDIA/nccl src/transport/net_ib/connect.cc): one of type RoCE v2
 * (NCCL_IB_ROCE_VERSION_NUM, default 2) that validGid accepts (not unset, not link-local fe80::/64) and of the family
 * NCCL_IB_ADDR_FAMILY names (default AF_INET: an IPv4-mapped ::ffff:a.b.c.d GID).
 */
final class RoceGids {

    private RoceGids() {
    }

    /** Empty when the port has a GID NCCL would choose; else what the table holds instead. */
    static List<String> problem(RdmaPorts.Port p) {
        List<RdmaDevices.Gid> gids = p.port().gids().orElse(List.of());
        List<RdmaDevices.Gid> v2 = gids.stream().filter(g -> g.type().orElse("").equals("RoCE v2")).toList();
        List<RdmaDevices.Gid> routable = v2.stream().filter(g -> !linkLocal(g.gid())).toList();
        if (routable.stream().anyMatch(g -> ipv4(g.gid()))) {
            return List.of();
        }
        String netdevs = "IPv4 on the port's net devices: " + p.port().netdevs().orElse(List.of()).stream()
                .map(n -> n.name() + " " + n.ipv4().fold(Object::toString, why -> "(not read)")).toList();
        if (v2.isEmpty()) {
            return List.of(gids.size() + " GIDs, none of type RoCE v2" + (gids.isEmpty() ? "" : ": " + describe(gids)), netdevs);
        }
        if (routable.isEmpty()) {
            return List.of("RoCE v2 GIDs are link-local only: " + describe(v2) + "; NCCL skips them and falls back to GID index 0",
                    netdevs);
        }
        return List.of("RoCE v2 GIDs are IPv6 only: " + describe(routable) + "; NCCL looks for an IPv4 one (NCCL_IB_ADDR_FAMILY "
                + "default AF_INET) and falls back to GID index 0", netdevs);
    }

    static boolean linkLocal(String gid) {
        return gid.startsWith("fe80:0000:0000:0000:");
    }

    static boolean ipv4(String gid) {
        return gid.startsWith("0000:0000:0000:0000:0000:ffff:");
    }

    private static String describe(List<RdmaDevices.Gid> gids) {
        return String.join(", ", gids.stream().map(g -> "index " + g.index() + " " + g.gid() + " (" + g.type().orElse("type ?")
                + ")").toList());
    }
}
