package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The counter names of the RDMA drivers other than mlx5, read as the same figures ({@link CounterFigure}, whose names
 * are mlx5's and the IBA PortCounters'). Broadcom's bnxt_re, Intel's irdma and AWS's EFA have no PMA, so no
 * counters/port_xmit_data: their bytes and packets are hw_counters of their own, in bytes, not 4-byte words.
 *
 * <p>Names, each from the driver's own table:
 * <ul>
 *   <li>bnxt_re: drivers/infiniband/hw/bnxt_re/hw_counters.c, bnxt_re_stat_descs (torvalds/linux at 063975fe):
 *       tx_bytes and rx_bytes are the RoCE function's unicast bytes (tx_ucast_bytes, rx_ucast_bytes),
 *       oos_drop_count the responder's out-of-sequence drops, seq_err_naks_rcvd the NAK sequence errors received,
 *       to_retransmits the retransmissions after an ACK timeout, rx_out_of_buffer packets without a posted receive
 *       (extended statistics of P5 chips).</li>
 *   <li>irdma: drivers/infiniband/hw/irdma/verbs.c, irdma_hw_stat_names: ip4OutOctets/ip6OutOctets and
 *       ip4InOctets/ip6InOctets count the IP octets of RoCE v2 (and iWARP) packets, ip4OutPkts … their packets;
 *       cnpSent, cnpHandled, cnpIgnored and RxECNMrkd are the DCQCN counters (gen2, E810).</li>
 *   <li>efa: kernel/linux/efa/src/efa_verbs.c of amzn/amzn-drivers (64788ef7), EFA_DEFINE_PORT_STATS: tx_bytes,
 *       rx_bytes, tx_pkts, rx_pkts; retrans_pkts and retrans_timeout_events (SRD's own retransmissions).</li>
 * </ul>
 * Figures a driver has no counter for stay absent with that reason; counters with no figure here are still in every
 * delta by name (hw_counters/…), read but not interpreted.
 */
public final class DriverCounters {

    /** The RDMA drivers whose names this class knows; mlx5's are {@link CounterFigure}'s own. */
    public enum Family {
        MLX5("mlx5", List.of("mlx5_core"), "hw_counters/np_cnp_sent"),
        BNXT_RE("bnxt_re", List.of("bnxt_en"), "hw_counters/seq_err_naks_rcvd"),
        IRDMA("irdma", List.of("ice", "i40e", "idpf"), "hw_counters/ip4OutOctets"),
        EFA("efa", List.of("efa"), "hw_counters/rdma_read_wrs");

        private final String label;
        private final List<String> pciDrivers;
        private final String signature;

        Family(String label, List<String> pciDrivers, String signature) {
            this.label = label;
            this.pciDrivers = pciDrivers;
            this.signature = signature;
        }

        public String label() {
            return label;
        }
    }

    /** Counters summed into one figure, each count worth {@code scale} of the figure's unit. */
    record Source(long scale, List<String> counters) {
    }

    private static final Map<Family, Map<CounterFigure, Source>> TABLE = new EnumMap<>(Family.class);

    static {
        Map<CounterFigure, Source> bnxt = new EnumMap<>(CounterFigure.class);
        bnxt.put(CounterFigure.TX_BYTES, new Source(1, List.of("hw_counters/tx_bytes")));
        bnxt.put(CounterFigure.RX_BYTES, new Source(1, List.of("hw_counters/rx_bytes")));
        bnxt.put(CounterFigure.TX_PACKETS, new Source(1, List.of("hw_counters/tx_pkts")));
        bnxt.put(CounterFigure.RX_PACKETS, new Source(1, List.of("hw_counters/rx_pkts")));
        bnxt.put(CounterFigure.OUT_OF_SEQUENCE, new Source(1, List.of("hw_counters/oos_drop_count")));
        bnxt.put(CounterFigure.PACKET_SEQ_ERRORS, new Source(1, List.of("hw_counters/seq_err_naks_rcvd")));
        bnxt.put(CounterFigure.ACK_TIMEOUTS, new Source(1, List.of("hw_counters/to_retransmits")));
        bnxt.put(CounterFigure.OUT_OF_BUFFER, new Source(1, List.of("hw_counters/rx_out_of_buffer")));
        TABLE.put(Family.BNXT_RE, bnxt);
        Map<CounterFigure, Source> irdma = new EnumMap<>(CounterFigure.class);
        irdma.put(CounterFigure.TX_BYTES, new Source(1, List.of("hw_counters/ip4OutOctets", "hw_counters/ip6OutOctets")));
        irdma.put(CounterFigure.RX_BYTES, new Source(1, List.of("hw_counters/ip4InOctets", "hw_counters/ip6InOctets")));
        irdma.put(CounterFigure.TX_PACKETS, new Source(1, List.of("hw_counters/ip4OutPkts", "hw_counters/ip6OutPkts")));
        irdma.put(CounterFigure.RX_PACKETS, new Source(1, List.of("hw_counters/ip4InPkts", "hw_counters/ip6InPkts")));
        irdma.put(CounterFigure.ECN_MARKED, new Source(1, List.of("hw_counters/RxECNMrkd")));
        irdma.put(CounterFigure.CNP_SENT, new Source(1, List.of("hw_counters/cnpSent")));
        irdma.put(CounterFigure.CNP_HANDLED, new Source(1, List.of("hw_counters/cnpHandled")));
        irdma.put(CounterFigure.CNP_IGNORED, new Source(1, List.of("hw_counters/cnpIgnored")));
        TABLE.put(Family.IRDMA, irdma);
        Map<CounterFigure, Source> efa = new EnumMap<>(CounterFigure.class);
        efa.put(CounterFigure.TX_BYTES, new Source(1, List.of("hw_counters/tx_bytes")));
        efa.put(CounterFigure.RX_BYTES, new Source(1, List.of("hw_counters/rx_bytes")));
        efa.put(CounterFigure.TX_PACKETS, new Source(1, List.of("hw_counters/tx_pkts")));
        efa.put(CounterFigure.RX_PACKETS, new Source(1, List.of("hw_counters/rx_pkts")));
        efa.put(CounterFigure.RETRANSMISSIONS, new Source(1, List.of("hw_counters/retrans_pkts")));
        efa.put(CounterFigure.RETRANSMISSION_TIMEOUTS, new Source(1, List.of("hw_counters/retrans_timeout_events")));
        TABLE.put(Family.EFA, efa);
    }

    private DriverCounters() {
    }

    /**
     * Whose names a port's counters are: by the PCI function's driver when it was read, else by a counter only that
     * driver has; empty when neither tells.
     */
    public static Optional<Family> family(Fact<String> pciDriver, Map<String, ?> counters) {
        for (Family f : Family.values()) {
            if (pciDriver.isValue() && f.pciDrivers.contains(pciDriver.get())) {
                return Optional.of(f);
            }
        }
        for (Family f : Family.values()) {
            if (counters.containsKey(f.signature)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The counters a figure is read from for one driver, as "hw_counters/tx_bytes"; empty when it has none. */
    public static List<String> sources(Family family, CounterFigure figure) {
        if (family == Family.MLX5) {
            return figure.counters();
        }
        Source s = TABLE.get(family).get(figure);
        return s == null ? List.of() : s.counters();
    }

    /**
     * A port's figures from its driver's counters ({@link CounterFigure#key()} → value in the figure's unit), for a
     * port whose driver is not mlx5: the figures {@link CounterDelta} derives from mlx5 names are absent there.
     * For mlx5, or a driver it cannot tell, the port's own figures are returned as they are.
     *
     * @param pciDriver the port's {@link CounterSnapshot.Port#driver()}, or absent to tell the driver by its counters
     */
    public static Map<String, Fact<Long>> figures(CounterDelta.PortDelta port, Fact<String> pciDriver) {
        Optional<Family> family = family(pciDriver, port.counters());
        if (family.isEmpty() || family.get() == Family.MLX5) {
            return port.figures();
        }
        Map<String, Fact<Long>> out = new LinkedHashMap<>();
        Map<CounterFigure, Source> table = TABLE.get(family.get());
        for (CounterFigure f : CounterFigure.values()) {
            Source s = table.get(f);
            out.put(f.key(), s == null ? Fact.absent(family.get().label() + " has no counter for " + f.key())
                    : sum(s, port.counters()));
        }
        return out;
    }

    private static Fact<Long> sum(Source s, Map<String, Fact<Long>> counters) {
        long total = 0;
        for (String name : s.counters()) {
            Fact<Long> d = counters.get(name);
            if (d == null) {
                return Fact.absent("no " + name + " on this port");
            }
            if (!d.isValue()) {
                return d;
            }
            total += d.get();
        }
        return Fact.of(total * s.scale());
    }
}
