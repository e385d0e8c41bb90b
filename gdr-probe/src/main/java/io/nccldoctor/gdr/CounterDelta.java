package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Stats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the counters did between two snapshots: per port and per counter the difference, and the figures a run is read
 * as ({@link CounterFigure}): bytes, PFC pauses per priority, ECN marks and CNPs, out-of-sequence packets,
 * retransmissions, drops, link errors, and how evenly the ports (the rails) carried the Tx bytes.
 *
 * <p>A counter that went backwards was reset (driver reload, port reset, `perfquery -R`) or wrapped: its delta is
 * absent with that reason, never guessed. A PMA counter pinned at its width's maximum (IBA counters saturate rather
 * than wrap) has no delta either, since it can no longer count.
 *
 * @param seconds   time between the two snapshots (monotonic clock), absent when they are not from one process
 * @param ports     the ports present in both snapshots, or why there are none
 * @param txBytesCv coefficient of variation of Tx bytes across the ports: 0 is perfectly even (the Japanese field
 *                  report's load-balance measure); absent with fewer than two ports or no traffic
 * @param notes     ports that appeared or vanished between the snapshots
 */
public record CounterDelta(Fact<Double> seconds, Fact<List<PortDelta>> ports, Fact<Double> txBytesCv, List<String> notes) {

    /**
     * Widths of the IBA PortCounters as drivers/infiniband/core/sysfs.c reads them (PORT_PMA_ATTR): such a counter
     * stops at 2^width - 1. The data and packet counters are 32 bits wide only without PortCountersExtended.
     */
    static final Map<String, Integer> PMA_WIDTHS = Map.ofEntries(Map.entry("symbol_error", 16),
            Map.entry("link_error_recovery", 8), Map.entry("link_downed", 8), Map.entry("port_rcv_errors", 16),
            Map.entry("port_rcv_remote_physical_errors", 16), Map.entry("port_rcv_switch_relay_errors", 16),
            Map.entry("port_xmit_discards", 16), Map.entry("port_xmit_constraint_errors", 8),
            Map.entry("port_rcv_constraint_errors", 8), Map.entry("local_link_integrity_errors", 4),
            Map.entry("excessive_buffer_overrun_errors", 4), Map.entry("VL15_dropped", 16), Map.entry("port_xmit_wait", 32),
            Map.entry("port_xmit_data", 32), Map.entry("port_rcv_data", 32), Map.entry("port_xmit_packets", 32),
            Map.entry("port_rcv_packets", 32));
    static final int PRIORITIES = 8;

    /** The width in bits of an IBA PortCounters file of ports/N/counters ("link_downed" → 8); empty for other counters. */
    public static OptionalInt pmaWidth(String counter) {
        Integer w = PMA_WIDTHS.get(counter);
        return w == null ? OptionalInt.empty() : OptionalInt.of(w);
    }

    public CounterDelta {
        notes = List.copyOf(notes);
    }

    /**
     * One port over the interval.
     *
     * @param state     in the second snapshot (a change is in {@link #notes})
     * @param netdevs   whose `ethtool -S` statistics were summed into the "ethtool/" counters
     * @param counters  every counter's difference: "counters/port_xmit_data" (a count of 4-byte words, as the kernel
     *                  shows it), "hw_counters/np_cnp_sent", "ethtool/rx_prio3_pause"; absent with the reason when there
     *                  is none (went backwards, saturated, missing from one snapshot, unreadable)
     * @param figures   {@link CounterFigure#key()} → the figure, in its unit (txBytes in bytes: port_xmit_data × 4)
     * @param pfc       pauses per priority, for the priorities whose pause counters ethtool shows (PFC enabled there)
     * @param notes     what a reader must know to trust the numbers: resets, saturated counters, a state change
     */
    public record PortDelta(String device, int port, Fact<String> state, Fact<String> linkLayer, Fact<Double> rateGbps,
                            List<String> netdevs, Map<String, Fact<Long>> counters, Map<String, Fact<Long>> figures,
                            List<PriorityPauses> pfc, List<String> notes) {

        public PortDelta {
            netdevs = List.copyOf(netdevs);
            counters = Collections.unmodifiableMap(new TreeMap<>(counters));
            figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
            pfc = List.copyOf(pfc);
            notes = List.copyOf(notes);
        }

        public String label() {
            return device + " port " + port;
        }

        public Fact<Long> figure(CounterFigure f) {
            return figures.getOrDefault(f.key(), Fact.absent("not derived"));
        }

        /** The figure when known, else empty: for sums over what could be counted. */
        public Optional<Long> known(CounterFigure f) {
            Fact<Long> v = figure(f);
            return v.isValue() ? Optional.of(v.get()) : Optional.empty();
        }
    }

    /**
     * PFC on one priority: pause frames this port received (the switch stopped our Tx on that priority) and sent (our
     * receive side could not keep up and stopped the switch), with the pause time each asked for, in µs
     * (rx_prio{p}_pause, rx_prio{p}_pause_duration, tx_prio{p}_pause, tx_prio{p}_pause_duration; mlx5 counters.rst).
     */
    public record PriorityPauses(int priority, Fact<Long> rxPauses, Fact<Long> rxPauseUs, Fact<Long> txPauses,
                                 Fact<Long> txPauseUs) {
    }

    public static CounterDelta of(CounterSnapshot before, CounterSnapshot after) {
        long ns = after.monotonicNs() - before.monotonicNs();
        Fact<Double> seconds = ns > 0 ? Fact.of(ns / 1e9)
                : Fact.absent("the snapshots are not from one process (monotonic clocks do not compare), so no rates");
        if (!before.ports().isValue() || !after.ports().isValue()) {
            Fact<List<PortDelta>> none = Fact.absent("no ports to compare: " + (before.ports().isValue() ? after : before).ports().describe());
            return new CounterDelta(seconds, none, Fact.absent(none.reason()), List.of());
        }
        Map<String, CounterSnapshot.Port> earlier = new LinkedHashMap<>();
        before.ports().get().forEach(p -> earlier.put(p.label(), p));
        List<String> notes = new ArrayList<>();
        List<PortDelta> ports = new ArrayList<>();
        for (CounterSnapshot.Port p : after.ports().get()) {
            CounterSnapshot.Port b = earlier.remove(p.label());
            if (b == null) {
                notes.add(p.label() + " appeared between the snapshots (hot-plug or driver reload): no delta");
            } else {
                ports.add(port(b, p));
            }
        }
        earlier.keySet().forEach(l -> notes.add(l + " vanished between the snapshots (driver unloaded or device removed): no delta"));
        return new CounterDelta(seconds, Fact.of(ports), txBytesCv(ports), notes);
    }

    static Fact<Double> txBytesCv(List<PortDelta> ports) {
        double[] bytes = ports.stream().map(p -> p.known(CounterFigure.TX_BYTES)).flatMap(Optional::stream)
                .mapToDouble(Long::doubleValue).toArray();
        if (bytes.length < 2) {
            return Fact.absent("needs two or more ports with a Tx byte count; " + bytes.length + " here");
        }
        double cv = Stats.cv(bytes);
        return Double.isNaN(cv) ? Fact.absent("no port sent a byte") : Fact.of(cv);
    }

    private static PortDelta port(CounterSnapshot.Port before, CounterSnapshot.Port after) {
        Flat b = Flat.of(before);
        Flat a = Flat.of(after);
        List<String> notes = new ArrayList<>();
        if (before.state().isValue() && after.state().isValue() && !before.state().get().equals(after.state().get())) {
            notes.add("state went from " + before.state().get() + " to " + after.state().get());
        }
        Map<String, Fact<Long>> counters = new TreeMap<>();
        TreeSet<String> names = new TreeSet<>(b.values.keySet());
        names.addAll(a.values.keySet());
        for (String name : names) {
            counters.put(name, change(name, b.values.get(name), a.values.get(name), notes));
        }
        saturated(counters, notes);
        return assemble(after, a, counters, notes);
    }

    /** One note for every PMA counter stuck at its maximum: "counters/link_downed 255 (8 bits), …". */
    private static void saturated(Map<String, Fact<Long>> counters, List<String> notes) {
        List<String> stuck = new ArrayList<>();
        counters.forEach((name, v) -> {
            Integer width = name.startsWith("counters/") ? PMA_WIDTHS.get(name.substring("counters/".length())) : null;
            long max = width == null ? -1 : (1L << width) - 1;
            if (width != null && !v.isValue() && v.reason().startsWith("saturated at ")) {
                stuck.add(name + " " + max + " (" + width + " bits)");
            }
        });
        if (!stuck.isEmpty()) {
            notes.add("PMA counters stuck at their maximum count nothing more (clear them with perfquery -x -R): " + String.join(", ", stuck));
        }
    }

    /**
     * One snapshot read the same way, each counter's value standing for its difference from zero: totals since the
     * driver loaded or the counters were last cleared. Saturated PMA counters are noted.
     */
    public static List<PortDelta> totals(CounterSnapshot s) {
        List<PortDelta> out = new ArrayList<>();
        for (CounterSnapshot.Port p : s.ports().orElse(List.of())) {
            Flat f = Flat.of(p);
            Map<String, Fact<Long>> marked = new TreeMap<>();
            f.values.forEach((name, v) -> {
                Integer width = name.startsWith("counters/") ? PMA_WIDTHS.get(name.substring("counters/".length())) : null;
                boolean atMax = width != null && v.isValue() && v.get() == (1L << width) - 1;
                marked.put(name, atMax ? Fact.absent("saturated at " + v.get()) : v);
            });
            List<String> notes = new ArrayList<>();
            saturated(marked, notes);
            out.add(assemble(p, f, f.values, notes));
        }
        return out;
    }

    private static PortDelta assemble(CounterSnapshot.Port after, Flat a, Map<String, Fact<Long>> counters, List<String> notes) {
        Map<String, Fact<Long>> figures = new LinkedHashMap<>();
        for (CounterFigure f : CounterFigure.values()) {
            figures.put(f.key(), figure(f, counters, a));
        }
        List<PriorityPauses> pfc = new ArrayList<>();
        for (int p = 0; p < PRIORITIES; p++) {
            String rx = "ethtool/rx_prio" + p + "_pause";
            String tx = "ethtool/tx_prio" + p + "_pause";
            if (counters.containsKey(rx) || counters.containsKey(tx)) {
                pfc.add(new PriorityPauses(p, get(counters, rx, a), get(counters, rx + "_duration", a), get(counters, tx, a),
                        get(counters, tx + "_duration", a)));
            }
        }
        return new PortDelta(after.device(), after.port(), after.state(), after.linkLayer(), after.rateGbps(), a.netdevs, counters,
                figures, pfc, notes);
    }

    private static Fact<Long> figure(CounterFigure f, Map<String, Fact<Long>> counters, Flat after) {
        long sum = 0;
        for (String name : f.counters()) {
            Fact<Long> d = get(counters, name, after);
            if (!d.isValue()) {
                return d;
            }
            sum += d.get();
        }
        return Fact.of(sum * f.scale());
    }

    private static Fact<Long> get(Map<String, Fact<Long>> counters, String name, Flat after) {
        Fact<Long> d = counters.get(name);
        if (d != null) {
            return d;
        }
        String folder = name.substring(0, name.indexOf('/'));
        String why = after.missing.get(folder);
        return Fact.absent("no " + name + " on this port" + (why == null ? "" : " (" + why + ")"));
    }

    /** One counter's difference; reasons instead of a number when there is none to trust. */
    static Fact<Long> change(String name, Fact<Long> before, Fact<Long> after, List<String> notes) {
        if (before == null || after == null) {
            return Fact.absent(name + " is only in the " + (before == null ? "second" : "first") + " snapshot");
        }
        if (!before.isValue() || !after.isValue()) {
            return Fact.absent((before.isValue() ? "second" : "first") + " snapshot: " + (before.isValue() ? after : before).describe());
        }
        long b = before.get();
        long a = after.get();
        if (a < b) {
            notes.add(name + " went backwards from " + b + " to " + a + ": reset or wrapped between the snapshots, no delta");
            return Fact.absent("went backwards from " + b + " to " + a + ": the counter was reset (driver reload, port reset, "
                    + "perfquery -R) or wrapped; no delta");
        }
        Integer width = name.startsWith("counters/") ? PMA_WIDTHS.get(name.substring("counters/".length())) : null;
        if (width != null && a == (1L << width) - 1) {
            if (a == b) {
                return Fact.absent("saturated at " + a + " (the " + width + "-bit PMA maximum) in both snapshots: "
                        + "an unchanged value says nothing");
            }
            notes.add(name + " reached its " + width + "-bit maximum " + a + " during the run: its delta is a lower bound");
        }
        return Fact.of(a - b);
    }

    /** A port's counters in one map, "counters/…", "hw_counters/…", "ethtool/…" (summed over its net devices). */
    private record Flat(Map<String, Fact<Long>> values, Map<String, String> missing, List<String> netdevs) {

        static Flat of(CounterSnapshot.Port p) {
            Map<String, Fact<Long>> values = new TreeMap<>();
            Map<String, String> missing = new LinkedHashMap<>();
            add("counters", p.counters(), values, missing);
            add("hw_counters", p.hwCounters(), values, missing);
            List<String> netdevs = new ArrayList<>();
            if (!p.netdevs().isValue()) {
                missing.put("ethtool", p.netdevs().describe());
            } else if (p.netdevs().get().isEmpty()) {
                missing.put("ethtool", "no net device for this port");
            } else {
                Map<String, Long> sums = new TreeMap<>();
                for (CounterSnapshot.Netdev n : p.netdevs().get()) {
                    if (n.ethtool().isValue()) {
                        netdevs.add(n.name());
                        n.ethtool().get().forEach((k, v) -> sums.merge(k, v, Long::sum));
                    } else {
                        missing.putIfAbsent("ethtool", n.name() + ": " + n.ethtool().describe());
                    }
                }
                sums.forEach((k, v) -> values.put("ethtool/" + k, Fact.of(v)));
            }
            return new Flat(values, missing, netdevs);
        }

        private static void add(String folder, Fact<Map<String, Fact<Long>>> f, Map<String, Fact<Long>> values,
                                Map<String, String> missing) {
            if (f.isValue()) {
                f.get().forEach((k, v) -> values.put(folder + "/" + k, v));
            } else {
                missing.put(folder, folder + "/: " + f.describe());
            }
        }
    }
}
