package io.nccldoctor.reports.compare;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepRecord;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What NCCL decided in one arm, from the NCCL_DEBUG=INFO logs of its runs, added up: channel connections per
 * transport (P2P/CUMEM, NET/IB/0/GDRDMA, NET/Socket …), algorithm/protocol choices (TUNING lines), and the NICs whose
 * GPU Direct RDMA was on or off. A version or setting that moved traffic from sockets to GDRDMA shows here, next to
 * the numbers.
 *
 * @param logs       how many logs (files, or sweep children) were read
 * @param transports channel connections per transport
 * @param algorithms algorithm/protocol choices and how often they were logged
 * @param gdr        "enabled" / "disabled" per NIC line (NET/IB : GPU Direct RDMA … for HCA)
 * @param children   true when read from a sweep's children (their parsed logs), false from logs among the inputs
 */
public record Decisions(int logs, Map<String, Long> transports, Map<String, Long> algorithms, Map<String, Long> gdr, boolean children) {

    public Decisions {
        transports = Map.copyOf(new TreeMap<>(transports));
        algorithms = Map.copyOf(new TreeMap<>(algorithms));
        gdr = Map.copyOf(new TreeMap<>(gdr));
    }

    public static Decisions none() {
        return new Decisions(0, Map.of(), Map.of(), Map.of(), false);
    }

    /** From NCCL logs: standalone logs, or the NCCL lines inside nccl-tests outputs. */
    public static Decisions of(List<NcclLog> logs) {
        Map<String, Long> transports = new TreeMap<>();
        Map<String, Long> algorithms = new TreeMap<>();
        Map<String, Long> gdr = new TreeMap<>();
        for (NcclLog l : logs) {
            l.transports().forEach((k, v) -> transports.merge(k, v, Long::sum));
            l.algorithms().forEach((k, v) -> algorithms.merge(k, v, Long::sum));
            l.nicGdr().forEach(n -> gdr.merge(n.enabled() ? "enabled" : "disabled", 1L, Long::sum));
        }
        return new Decisions(logs.size(), transports, algorithms, gdr, false);
    }

    /** From one arm of a sweep result: each child's parsed log is on every one of its points, counted once. */
    public static Decisions of(Path sweepResult, String arm) {
        Map<String, Long> transports = new TreeMap<>();
        Map<String, Long> algorithms = new TreeMap<>();
        Set<String> children = new HashSet<>();
        for (SweepRecord r : ResultLog.read(sweepResult)) {
            if (r.isPoint() && arm.equals(r.arm()) && children.add(r.child())) {
                if (r.transports() != null) {
                    r.transports().forEach((k, v) -> transports.merge(k, v, Long::sum));
                }
                if (r.algorithms() != null) {
                    r.algorithms().forEach((k, v) -> algorithms.merge(k, v, Long::sum));
                }
            }
        }
        return transports.isEmpty() && algorithms.isEmpty() ? none() : new Decisions(children.size(), transports, algorithms, Map.of(), true);
    }

    /** Where decisions of two arms come from, for the heading over them. */
    public static String origin(Decisions a, Decisions b) {
        return a.children() || b.children() ? "the children's NCCL_DEBUG=INFO logs" : "the NCCL_DEBUG=INFO lines among or inside each arm's inputs";
    }

    @JsonIgnore
    public boolean isEmpty() {
        return transports.isEmpty() && algorithms.isEmpty() && gdr.isEmpty();
    }

    /** "transports P2P/CUMEM x56, NET/IB/0/GDRDMA x16; algorithm/protocol not logged (…); GPU Direct RDMA enabled x2". */
    public String line() {
        if (isEmpty()) {
            return "no NCCL log";
        }
        String s = "transports " + (transports.isEmpty() ? "none logged" : join(transports)) + "; algorithm/protocol "
                + (algorithms.isEmpty() ? "not logged (NCCL_DEBUG_SUBSYS=TUNING logs them)" : join(algorithms));
        return gdr.isEmpty() ? s : s + "; GPU Direct RDMA per NIC " + join(gdr);
    }

    private static String join(Map<String, Long> m) {
        return String.join(", ", m.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).toList());
    }
}
