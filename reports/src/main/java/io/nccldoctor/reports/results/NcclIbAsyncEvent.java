package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A non-fatal InfiniBand async event in an NCCL log: most often a port that went down ("port error"). */
public final class NcclIbAsyncEvent extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_IB_ASYNC_EVENT", Severity.WARN,
            "the NIC reported an async event NCCL does not act on: a port went down, or the fabric changed under the job",
            "NCCL's IB transport prints every async event of its devices (ibv_get_async_event, named by rdma-core's "
                    + "ibv_event_type_str). 'port error' (IBV_EVENT_PORT_ERR) is the port leaving the active state: the link "
                    + "went down (a cable, a switch port, the subnet manager); 'port active' is it coming back; 'LID change', "
                    + "'SM change', 'P_Key change', 'client reregistration', 'GID table change' are the fabric or the subnet "
                    + "manager changing. NCCL only warns about these ('Got async event : …' up to 2.22, 'Got async error "
                    + "event: …' in 2.23 to 2.27, 'Got non-fatal async event: …' from 2.28) and goes on; a transfer on a port "
                    + "that is down then fails with a completion error (status 12, retries exceeded) or hangs until a timeout.",
            "'NET/IB : [mlx5_0:1] Got async event : port error' (and the later wordings) lines, counted per device port and event",
            "A port error: check that port's link on that node (`ibstat`, `rdma link`, `nccl-doctor preflight`), its cable "
                    + "and switch port, and the link-down counters (`nccl-doctor counters`); a port that flaps needs its cable "
                    + "or transceiver replaced. Every rank of the node warning at once points at the switch or the subnet "
                    + "manager.");

    public NcclIbAsyncEvent() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<NcclLog.IbAsyncEvent> events = log.ibAsyncEvents().events().stream().filter(e -> !e.fatal()).toList();
        if (events.isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = perPort(events);
        long listed = log.ibAsyncEvents().events().stream().mapToLong(NcclLog.IbAsyncEvent::count).sum();
        if (log.ibAsyncEvents().count() > listed) {
            evidence.add(log.ibAsyncEvents().count() - listed + " more async event lines past the first "
                    + log.ibAsyncEvents().events().size() + " ports and events kept");
        }
        evidence.add("first: " + events.get(0).line());
        evidence.add("source: " + name);
        return Optional.of(finding(name, title(events, "IB async event"), evidence));
    }

    /** "8 IB async events: port error (8, port not named)"; the events by name, with their counts. */
    static String title(List<NcclLog.IbAsyncEvent> events, String what) {
        Map<String, Long> byEvent = new LinkedHashMap<>();
        events.forEach(e -> byEvent.merge(e.event(), e.count(), Long::sum));
        long n = byEvent.values().stream().mapToLong(Long::longValue).sum();
        List<String> parts = new ArrayList<>();
        byEvent.forEach((e, c) -> parts.add(e + " (" + c + ")"));
        long ports = events.stream().map(NcclLog.IbAsyncEvent::port).filter(p -> !p.isEmpty()).distinct().count();
        return n + " " + what + (n == 1 ? "" : "s") + ": " + String.join(", ", parts)
                + (ports == 0 ? ", the port not named (NCCL before 2.21)" : " on " + ports + (ports == 1 ? " port" : " ports"));
    }

    /** One evidence line per port and event: "mlx5_3:1: invalid request local work queue error, 3 lines". */
    static List<String> perPort(List<NcclLog.IbAsyncEvent> events) {
        List<String> evidence = new ArrayList<>();
        for (NcclLog.IbAsyncEvent e : events) {
            evidence.add((e.port().isEmpty() ? "port not named" : e.port()) + ": " + e.event() + ", " + e.count()
                    + (e.count() == 1 ? " line" : " lines"));
        }
        return evidence;
    }
}
