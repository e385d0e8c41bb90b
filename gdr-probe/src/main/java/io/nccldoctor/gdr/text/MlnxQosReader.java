package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `mlnx_qos -i IFACE` (Mellanox mlnx-tools python/mlnx_qos, pretty_print): DCBX mode, "Priority trust state: dscp",
 * the dscp2prio mapping ("\tprio:3 dscp:31,30,29,28,27,26,25,24,"), receive buffers, "Cable len", the PFC table
 * ("priority 0 … 7" / "enabled 0 0 0 1 0 0 0 0" / "buffer …") and the traffic classes ("tc: 3 ratelimit: …" with
 * "priority:  3" under each). The interface comes from the command line before it (`mlnx_qos -i eth4`, also a
 * `+ mlnx_qos …` shell trace); a second listing of one interface replaces the first, as a later `mlnx_qos` call does.
 */
final class MlnxQosReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*(DCBX mode: .*|Priority trust state: \\w+|PFC configuration:)\\s*$");
    private static final Pattern DSCP = Pattern.compile("^\\s*prio:(\\d) dscp:([\\d,]+)\\s*$");
    private static final Pattern ENABLED = Pattern.compile("^\\s*enabled((?:\\s+[01]){8})\\s*$");
    private static final Pattern KNOWN = Pattern.compile("^\\s*(dscp2prio mapping:|default priority:.*|Receive buffer size \\(bytes\\):.*"
            + "|Cable len: \\d+|priority(\\s+\\d){8}|buffer(\\s+\\d+){8}|tc: \\d+ ratelimit: .*|priority:\\s+\\d+"
            + "|Priority trust state is not supported on your system|Buffers commands are not supported on your system"
            + "|\\*+ WARNING: lldpad service is running.*)\\s*$");

    private final PasteFacts facts;
    private final String netdev;
    private String dcbx;
    private String trust;
    private final Map<Integer, Integer> dscpPriority = new TreeMap<>();
    private List<Integer> pfc;

    MlnxQosReader(PasteFacts facts, Optional<Command> before) {
        this.facts = facts;
        this.netdev = before.filter(c -> c.tool().equals("mlnx_qos")).flatMap(c -> c.option("-i", "--interface"))
                .orElse(RdmaPaste.UNNAMED);
        PasteFacts.NetdevFacts nd = facts.netdev(netdev);
        if (nd.qos != null) {
            facts.notes.add("mlnx_qos of " + netdev + " printed again; the later listing is kept");
        }
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        Verdict v = Verdict.FACT;
        Matcher dscp = DSCP.matcher(line);
        Matcher enabled = ENABLED.matcher(line);
        if (t.startsWith("DCBX mode: ")) {
            dcbx = t.substring("DCBX mode: ".length());
        } else if (t.startsWith("Priority trust state: ")) {
            trust = t.substring("Priority trust state: ".length());
        } else if (dscp.matches()) {
            for (String d : dscp.group(2).split(",")) {
                if (!d.isEmpty()) {
                    dscpPriority.put(Integer.parseInt(d), Integer.parseInt(dscp.group(1)));
                }
            }
        } else if (enabled.matches()) {
            String[] bits = enabled.group(1).strip().split("\\s+");
            pfc = new ArrayList<>();
            for (int p = 0; p < 8; p++) {
                if (bits[p].equals("1")) {
                    pfc.add(p);
                }
            }
        } else if (t.equals("PFC configuration:") || KNOWN.matcher(line).matches()) {
            v = Verdict.KNOWN;
        } else {
            return Verdict.FOREIGN;
        }
        facts.netdev(netdev).qos = qos();
        return v;
    }

    private RdmaDevices.Qos qos() {
        String notShown = "not in this mlnx_qos output";
        return new RdmaDevices.Qos(trust == null ? Fact.absent(notShown) : Fact.of(trust),
                pfc == null ? Fact.absent(notShown) : Fact.of(List.copyOf(pfc)),
                dscpPriority.isEmpty() ? Fact.absent("trust is not dscp, or the mapping is not in this output")
                        : Fact.of(Collections.unmodifiableMap(new TreeMap<>(dscpPriority))), dcbx == null ? Fact.absent(notShown) : Fact.of(dcbx));
    }
}
