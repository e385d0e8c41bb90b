package io.nccldoctor.gdr.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iproute2's `rdma link` and `rdma dev` (rdma/link.c, rdma/dev.c): one line per port or device of "key value" pairs.
 * Since iproute2 5.5 a port line starts "link mlx5_0/1 "; before, "1/1: mlx5_0/1: ". With -d, a "caps: <…>" line
 * follows. rdma link's physical_state names 4 "ARMED", which is port configuration training.
 * <p>
 * rdma link prints no link layer, but its line shows one: the kernel sends subnet_prefix, lid, sm_lid and lmc for a
 * port only when rdma_protocol_ib() holds for it (drivers/infiniband/core/nldev.c fill_port_info, so since the
 * attributes exist, Linux 4.16), that is for InfiniBand and Omni-Path ports, never for RoCE, iWARP, usNIC or EFA
 * ones; and iproute2 prints each attribute the kernel sent (rdma/link.c). The reader records which shape each line
 * had; {@link PasteFacts} turns it into an inferred link layer where no tool printed one.
 */
final class RdmaToolReader implements SectionReader {

    static final Pattern LINK = Pattern.compile("^\\s*(?:link\\s+|\\d+/\\d+:\\s+)([\\w.-]+)/(\\d+):?\\s+(.*?)\\s*$");
    static final Pattern DEV = Pattern.compile("^\\s*\\d+:\\s+([\\w.-]+):\\s+(node_type\\s.*?)\\s*$");
    /**
     * `rdma res` (rdma/res*.c): a summary per device ("0: mlx5_0: pd 4 cq 5 qp 3 cm_id 0 mr 0 ctx 0"), or one row per
     * object, opened "link mlx5_0/1" when the object is bound to a port and "dev mlx5_0" when not, its number next
     * ("lqpn 1 type GSI state RTS …", "cm-idn 0 state LISTEN …", "cqn 0 cqe 1023 …", "mrn 4 …", "pdn 3 …"). A QP row
     * has the shape of an `rdma link` line, but its "state" is the queue pair's (RTS, ERR), not the port's.
     */
    static final Pattern RES = Pattern.compile("^\\s*(?:(?:link\\s+[\\w.-]+/\\d+|dev\\s+[\\w.-]+)\\s+(?:lqpn|rqpn|cm-idn|cqn|mrn|pdn|ctxn|srqn)\\s"
            + "|\\d+:\\s+[\\w.-]+:\\s+(?:pd|cq|qp|cm_id|mr|ctx|srq)\\s+\\d+\\b).*$");

    /** The port attributes nldev sends for InfiniBand (and Omni-Path) ports only. */
    private static final Set<String> IB_ONLY = Set.of("subnet_prefix", "lid", "sm_lid", "lmc");

    private final PasteFacts facts;

    RdmaToolReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        if (line.strip().startsWith("caps: <") || RES.matcher(line).matches()) {
            return Verdict.KNOWN;
        }
        Matcher link = LINK.matcher(line);
        if (link.matches()) {
            return port(link.group(1), Integer.parseInt(link.group(2)), pairs(link.group(3)), at);
        }
        Matcher dev = DEV.matcher(line);
        if (dev.matches()) {
            PasteFacts.DeviceFacts d = facts.device(dev.group(1));
            List<String[]> kv = pairs(dev.group(2));
            for (String[] p : kv) {
                switch (p[0]) {
                    case "fw" -> d.fw.set(p[1], at, facts.notes);
                    case "node_guid" -> d.guid.set(p[1], at, facts.notes);
                    case "protocol" -> d.protocol.set(p[1], at, facts.notes);
                    default -> {
                    }
                }
            }
            return Verdict.FACT;
        }
        return Verdict.FOREIGN;
    }

    private Verdict port(String device, int n, List<String[]> kv, Slot.Line at) {
        PasteFacts.PortFacts port = facts.device(device).port(n);
        boolean ib = kv.stream().anyMatch(p -> IB_ONLY.contains(p[0]));
        if (ib) {
            port.rdmaLinkIb = at;
        } else {
            port.rdmaLinkPlain = at;
        }
        List<String> unknown = new ArrayList<>();
        for (String[] p : kv) {
            if (p[1].equals("UNKNOWN") && (p[0].equals("state") || p[0].equals("physical_state"))) {
                // rdma/link.c prints UNKNOWN for a value outside its table of names: the kernel's value is not in the text
                (p[0].equals("state") ? port.state : port.phys).unknown("rdma link printed " + p[0] + " UNKNOWN, its word for a value "
                        + "outside its table of names", at);
                continue;
            }
            switch (p[0]) {
                case "state" -> PortFiles.read(port, "state", p[1], at, facts.notes);
                case "physical_state" -> PortStates.rdmaToolPhys(p[1]).ifPresentOrElse(s -> port.phys.set(s, at, facts.notes),
                        () -> port.phys.fail("unknown physical_state '" + p[1] + "'", at));
                case "lid" -> DevinfoReader.integer(p[1]).ifPresent(v -> port.lid.set(v, at, facts.notes));
                case "sm_lid" -> DevinfoReader.integer(p[1]).ifPresent(v -> port.smLid.set(v, at, facts.notes));
                case "netdev" -> facts.link(device, n, p[1]);
                case "subnet_prefix", "lmc", "netdev_index" -> {
                }
                default -> unknown.add(p[0] + " " + p[1]);
            }
        }
        if (!unknown.isEmpty()) {
            facts.notes.add("rdma link " + device + "/" + n + ": fields not read: " + String.join(", ", unknown) + " (" + at + ")");
        }
        return Verdict.FACT;
    }

    /** "state ACTIVE physical_state LINK_UP netdev p1p1" → pairs; a trailing single word is kept with an empty value. */
    private static List<String[]> pairs(String s) {
        String[] w = s.strip().split("\\s+");
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < w.length; i += 2) {
            out.add(new String[] {w[i], i + 1 < w.length ? w[i + 1] : ""});
        }
        return out;
    }
}
