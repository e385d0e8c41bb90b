package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The InfiniBand async events NCCL's IB transport warns about: its thread per device (ncclIbAsyncThreadMain) waits in
 * ibv_get_async_event and prints the event's name as rdma-core's ibv_event_type_str gives it (libibverbs/enum_strs.c:
 * "local catastrophic error", "port error", …). The wordings, by release (src/transport/net_ib.cc, net_ib/common.cc
 * from 2.28):
 * <ul>
 * <li>up to 2.20: "NET/IB : Got async event : %s" for every event but COMM_EST, no device named;</li>
 * <li>2.21, 2.22: "NET/IB : %s:%d Got async event : %s" (the device and port);</li>
 * <li>from 2.23 NCCL tells them apart: "%s:%d async fatal event: %s" (IBV_EVENT_DEVICE_FATAL), "… async fatal event on CQ
 * (%p)…: %s" (CQ_ERR), "… async fatal event on QP (%p)…: %s" (QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR), and marks the device,
 * CQ or QP fatal (ncclIbDevFatalError …): every communicator using it then fails with "communicator encountered a fatal
 * error (detected in …)"; "… async fatal event on SRQ, unused for now (%p): %s" (NCCL uses no SRQ, and does nothing);
 * the other events are warned about only, "%s:%d Got async error event: %s" (2.23 to 2.27), "%s:%d Got non-fatal async
 * event: %s(%d)" (from 2.28).</li>
 * </ul>
 * An event is fatal here when NCCL acts on it as such from 2.23: by the wording from 2.23, by the event's name before
 * (the same five events were warned about in the same words as a port going down).
 */
final class IbAsyncEvents {

    /** Groups (port and event) kept; a job's NICs times the events seen is far below this. */
    private static final int GROUPS = 64;

    /** rdma-core's names of the events NCCL 2.23 and later treats as fatal (DEVICE_FATAL, CQ_ERR, QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR). */
    private static final Set<String> FATAL = Set.of("local catastrophic error", "CQ error", "local work queue catastrophic error",
            "invalid request local work queue error", "local access violation work queue error");

    private static final String OLD = "Got async event : ";
    private static final String ERROR_EVENT = "Got async error event: ";
    private static final String NON_FATAL = "Got non-fatal async event: ";
    private static final String FATAL_EVENT = "async fatal event";

    /** One port's events of one name, as counted. */
    private static final class Group {
        final String port;
        final String event;
        final boolean fatal;
        final String first;
        long count;

        Group(String port, String event, boolean fatal, String first) {
            this.port = port;
            this.event = event;
            this.fatal = fatal;
            this.first = first;
        }
    }

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private long count;

    /** Whether a WARN message (what follows "NCCL WARN ") is one of these: judged by their own rules, not as a warning. */
    static boolean is(String message) {
        int ib = message.indexOf("NET/IB : ");
        return ib >= 0 && marker(message, ib + 9) >= 0;
    }

    /** Where the event's wording starts after "NET/IB : " at {@code from}, or -1. */
    private static int marker(String message, int from) {
        for (String m : new String[] {OLD, FATAL_EVENT, ERROR_EVENT, NON_FATAL}) {
            int at = message.indexOf(m, from);
            if (at >= 0) {
                return at;
            }
        }
        return -1;
    }

    /**
     * Reads a WARN message (what follows "NCCL WARN "); {@code kept} is its line as written. Once per WARN line.
     *
     * @return whether it was an async event
     */
    boolean read(String message, String kept) {
        int ib = message.indexOf("NET/IB : ");
        int at = ib < 0 ? -1 : marker(message, ib + 9);
        if (at < 0) {
            return false;
        }
        String port = message.substring(ib + 9, at).strip(); // "mlx5_0:1" from 2.21, "" before
        boolean fatalWording = message.startsWith(FATAL_EVENT, at);
        String event;
        if (message.startsWith(OLD, at)) {
            event = message.substring(at + OLD.length());
        } else {
            int colon = message.lastIndexOf(": ");
            event = colon < at ? "" : message.substring(colon + 2);
        }
        event = event.strip();
        if (message.startsWith(NON_FATAL, at) && event.endsWith(")")) { // "port error(10)": the event's number
            int open = event.lastIndexOf('(');
            event = open > 0 ? event.substring(0, open) : event;
        }
        boolean fatal = fatalWording ? !message.startsWith(FATAL_EVENT + " on SRQ", at) : FATAL.contains(event);
        count++;
        String key = port + '\n' + event;
        Group g = groups.get(key);
        if (g == null && groups.size() < GROUPS) {
            g = new Group(port, event, fatal, kept);
            groups.put(key, g);
        }
        if (g != null) {
            g.count++;
        }
        return true;
    }

    /** Adds what a later range of the same file counted. */
    void absorb(IbAsyncEvents o) {
        count += o.count;
        for (Group theirs : o.groups.values()) {
            String key = theirs.port + '\n' + theirs.event;
            Group mine = groups.get(key);
            if (mine == null && groups.size() < GROUPS) {
                groups.put(key, theirs);
            } else if (mine != null) {
                mine.count += theirs.count;
            }
        }
    }

    NcclLog.IbAsyncEvents build() {
        List<NcclLog.IbAsyncEvent> list = new ArrayList<>();
        for (Group g : groups.values()) {
            list.add(new NcclLog.IbAsyncEvent(g.port, g.event, g.fatal, g.count, g.first));
        }
        return new NcclLog.IbAsyncEvents(List.copyOf(list), count);
    }
}
