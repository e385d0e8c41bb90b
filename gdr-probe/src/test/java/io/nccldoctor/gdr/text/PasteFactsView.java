package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A paste's facts as flat "key → value" strings, so a table can state the facts a fixture must give: "mlx5_0 fw",
 * "mlx5_0/1 state", "mlx5_0/1 gid 3" ("GID TYPE NETDEV"), "netdev eth4 qos", "mlx5_1/1 counters/link_downed".
 * A fact without a value appears as "absent: reason" or "error: cause", so a table can also pin those.
 */
final class PasteFactsView {

    private PasteFactsView() {
    }

    static Map<String, String> of(RdmaPaste p) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("devices", p.rdma().devices().fold(l -> String.valueOf(l.size()), why -> "absent: " + why));
        for (RdmaDevices.RdmaDevice d : p.rdma().devices().orElse(List.of())) {
            put(m, d.name() + " fw", d.fwVersion());
            put(m, d.name() + " part", d.partId());
            put(m, d.name() + " pci", d.pciAddress());
            put(m, d.name() + " guid", d.nodeGuid());
            d.ports().orElse(List.of()).forEach(port -> port(m, d.name() + "/" + port.number(), port));
        }
        p.rdma().otherNetdevs().forEach(n -> netdev(m, n));
        for (CounterSnapshot.Port c : p.counters()) {
            String k = c.device() + "/" + c.port();
            c.counters().orElse(Map.of()).forEach((name, v) -> m.put(k + " counters/" + name, v.describe()));
            c.hwCounters().orElse(Map.of()).forEach((name, v) -> m.put(k + " hw_counters/" + name, v.describe()));
            m.put(k + " counters", String.valueOf(c.counters().orElse(Map.of()).size()));
        }
        for (CounterSnapshot.Netdev n : p.otherEthtool()) {
            m.put("ethtool " + n.name(), String.valueOf(n.ethtool().orElse(Map.of()).size()));
            n.ethtool().orElse(Map.of()).forEach((name, v) -> m.put("ethtool " + n.name() + " " + name, String.valueOf(v)));
        }
        return m;
    }

    private static void port(Map<String, String> m, String k, RdmaDevices.RdmaPort p) {
        put(m, k + " state", p.state());
        put(m, k + " phys", p.physState());
        put(m, k + " link layer", p.linkLayer());
        put(m, k + " gbps", p.rateGbps());
        put(m, k + " rate", p.rate());
        put(m, k + " active mtu", p.activeMtu());
        put(m, k + " max mtu", p.maxMtu());
        put(m, k + " lid", p.lid());
        put(m, k + " sm lid", p.smLid());
        put(m, k + " traffic class", p.trafficClass());
        m.put(k + " gids", p.gids().fold(l -> String.valueOf(l.size()), why -> "absent: " + why));
        p.gids().orElse(List.of()).forEach(g -> m.put(k + " gid " + g.index(), g.gid() + " " + g.type().orElse("?") + " "
                + g.netdev().orElse("?")));
        p.netdevs().orElse(List.of()).forEach(n -> {
            m.merge(k + " netdevs", n.name(), (a, b) -> a + " " + b);
            netdev(m, n);
        });
    }

    private static void netdev(Map<String, String> m, RdmaDevices.Netdev n) {
        put(m, "netdev " + n.name() + " link", n.link());
        put(m, "netdev " + n.name() + " mtu", n.mtu());
        n.qos().fold(q -> m.put("netdev " + n.name() + " qos", "trust " + q.trust().orElse("?") + " pfc " + q.pfcPriorities().describe()
                + " dcbx " + q.dcbx().orElse("?") + " dscp26 " + q.dscpPriority().fold(d -> String.valueOf(d.get(26)), why -> "?")), why -> null);
    }

    private static void put(Map<String, String> m, String key, Fact<?> f) {
        if (f.isValue()) {
            m.put(key, String.valueOf(f.get()));
        } else if (!f.reason().equals(PasteFacts.NOT_IN_INPUT)) {
            m.put(key, f.describe());
        }
    }
}
