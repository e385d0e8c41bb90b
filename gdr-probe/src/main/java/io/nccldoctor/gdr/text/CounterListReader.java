package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterProbe;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "name: value" counter lists: `show_counters DEV` (Mellanox mlnx-tools sbin/show_counters: "Port 1 hw counters:"
 * then one "file: value" per hw_counters file, then the same for cm counters), and `ethtool -S IFACE` ("NIC
 * statistics:" then "     name: value", also grepped without its header). Which device or interface the numbers
 * belong to comes from the command line before them; without it they are kept under {@link RdmaPaste#UNNAMED}.
 * One reading of counters that count since the driver loaded: what they did over a run needs two.
 */
final class CounterListReader implements SectionReader {

    static final Pattern SHOW_COUNTERS = Pattern.compile("^\\s*Port (\\d+) (hw|cm) counters:\\s*$");
    private static final Pattern STAT = Pattern.compile("^\\s*(\\S.*?):\\s*(\\S+)\\s*$");

    private final PasteFacts facts;
    private final RdmaKind kind;
    private final String owner;
    private Map<String, Fact<Long>> target;
    private final Map<String, Long> ethtool = new LinkedHashMap<>();

    private CounterListReader(PasteFacts facts, RdmaKind kind, String owner) {
        this.facts = facts;
        this.kind = kind;
        this.owner = owner;
    }

    static CounterListReader showCounters(PasteFacts facts, Optional<Command> before) {
        String dev = before.filter(c -> c.tool().equals("show_counters")).flatMap(Command::argument).orElse(RdmaPaste.UNNAMED);
        return new CounterListReader(facts, RdmaKind.SHOW_COUNTERS, dev);
    }

    static CounterListReader ethtool(PasteFacts facts, Optional<Command> before) {
        String nd = before.filter(CounterListReader::isEthtoolS).flatMap(c -> c.option("-S", "--statistics")).orElse(RdmaPaste.UNNAMED);
        CounterListReader r = new CounterListReader(facts, RdmaKind.ETHTOOL, nd);
        PasteFacts.NetdevFacts n = facts.netdev(nd);
        if (n.ethtool != null) {
            facts.notes.add("ethtool -S " + nd + " read twice; the later listing is kept");
        }
        n.ethtool = r.ethtool;
        return r;
    }

    /** `ethtool -S IF` output: its header, or a stat line right after the command (`ethtool -S IF | grep pause`). */
    static boolean opensEthtool(String line, Optional<Command> before) {
        return line.strip().equals("NIC statistics:") || (before.filter(CounterListReader::isEthtoolS).isPresent()
                && STAT.matcher(line).matches());
    }

    private static boolean isEthtoolS(Command c) {
        return c.tool().equals("ethtool") && c.option("-S", "--statistics").isPresent();
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher port = SHOW_COUNTERS.matcher(line);
        if (kind == RdmaKind.SHOW_COUNTERS && port.matches()) {
            // cm counters (connection manager MADs) are no port's hw_counters: read past, not mixed in
            target = port.group(2).equals("hw") ? facts.device(owner).port(Integer.parseInt(port.group(1))).hwCounters : null;
            return Verdict.KNOWN;
        }
        if (line.strip().equals("NIC statistics:")) {
            return Verdict.KNOWN;
        }
        Matcher stat = STAT.matcher(line);
        if (!stat.matches()) {
            return Verdict.FOREIGN;
        }
        if (kind == RdmaKind.ETHTOOL) {
            Map<String, Long> one = CounterProbe.parseEthtool(List.of(line));
            ethtool.putAll(one);
            return one.isEmpty() ? Verdict.FOREIGN : Verdict.FACT;
        }
        if (target == null) {
            return Verdict.KNOWN;
        }
        target.put(stat.group(1), CounterProbe.counterValue(stat.group(2)));
        return Verdict.FACT;
    }
}
