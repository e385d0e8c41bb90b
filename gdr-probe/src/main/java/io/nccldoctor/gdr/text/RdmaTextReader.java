package io.nccldoctor.gdr.text;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads pasted RDMA state text: one or several tool outputs one after another, with prompts, command lines and
 * Markdown fences between them, as an RDMA ticket holds them. Each line either opens a section of a known kind (by
 * its shape: "hca_id:", "CA '…'", a show_gids header, "DCBX mode:" …), belongs to the open section, is blank or a
 * command, or is not understood; every line is counted in one of those, and the ones not understood are listed.
 */
public final class RdmaTextReader {

    /** How a section of one kind is recognised and started; tried in this order. */
    private record Shape(RdmaKind kind, BiPredicate<String, Optional<Command>> opens,
                         BiFunction<PasteFacts, Optional<Command>, SectionReader> start) {
    }

    private static final List<Shape> SHAPES = List.of(
            new Shape(RdmaKind.IBV_DEVINFO, (l, c) -> DevinfoReader.OPENS.matcher(l).matches(), (f, c) -> new DevinfoReader(f)),
            new Shape(RdmaKind.IBSTAT, (l, c) -> IbstatReader.opens(l), (f, c) -> new IbstatReader(f)),
            new Shape(RdmaKind.IBSTATUS, (l, c) -> IbstatusReader.OPENS.matcher(l).matches(), (f, c) -> new IbstatusReader(f)),
            new Shape(RdmaKind.SHOW_GIDS, (l, c) -> ShowGidsReader.OPENS.matcher(l).matches(), ShowGidsReader::new),
            new Shape(RdmaKind.IBDEV2NETDEV, (l, c) -> Ibdev2netdevReader.ROW.matcher(l).matches(), (f, c) -> new Ibdev2netdevReader(f)),
            new Shape(RdmaKind.RDMA_RES, (l, c) -> RdmaToolReader.RES.matcher(l).matches(), (f, c) -> new RdmaToolReader(f)),
            new Shape(RdmaKind.RDMA_LINK, (l, c) -> RdmaToolReader.LINK.matcher(l).matches(), (f, c) -> new RdmaToolReader(f)),
            new Shape(RdmaKind.RDMA_DEV, (l, c) -> RdmaToolReader.DEV.matcher(l).matches(), (f, c) -> new RdmaToolReader(f)),
            new Shape(RdmaKind.IP, (l, c) -> IpReader.DEVICE.matcher(l).matches(), (f, c) -> new IpReader(f)),
            new Shape(RdmaKind.SYSFS, SysfsReader::opens, SysfsReader::new),
            new Shape(RdmaKind.LS, LsReader::opens, LsReader::new),
            new Shape(RdmaKind.MLNX_QOS, (l, c) -> MlnxQosReader.OPENS.matcher(l).matches(), MlnxQosReader::new),
            new Shape(RdmaKind.SHOW_COUNTERS, (l, c) -> CounterListReader.SHOW_COUNTERS.matcher(l).matches(),
                    CounterListReader::showCounters),
            new Shape(RdmaKind.ETHTOOL, CounterListReader::opensEthtool, CounterListReader::ethtool),
            new Shape(RdmaKind.MLXFWMANAGER, (l, c) -> MlxfwmanagerReader.OPENS.matcher(l).matches(), (f, c) -> new MlxfwmanagerReader(f)),
            new Shape(RdmaKind.ETHTOOL_INFO, (l, c) -> EthtoolInfoReader.OPENS.matcher(l).matches(), EthtoolInfoReader::new),
            new Shape(RdmaKind.ETHTOOL_LINK, (l, c) -> EthtoolLinkReader.OPENS.matcher(l).matches(), (f, c) -> new EthtoolLinkReader(f)),
            new Shape(RdmaKind.IBPORTSTATE, (l, c) -> IbportstateReader.opens(l), (f, c) -> new IbportstateReader(f)),
            new Shape(RdmaKind.IBV_DEVICES, (l, c) -> IbvDevicesReader.OPENS.matcher(l).matches(), (f, c) -> new IbvDevicesReader(f)),
            new Shape(RdmaKind.MST_STATUS, (l, c) -> MstStatusReader.OPENS.matcher(l).matches(), (f, c) -> new MstStatusReader(f)));

    /** `echo 106 > /sys/class/infiniband/mlx5_2/tc/1/traffic_class`, MLNX_OFED's per-port default traffic class. */
    private static final Pattern TC_WRITE = Pattern.compile("echo\\s+(\\d+)\\s*>\\s*/sys/class/infiniband/([\\w.-]+)/tc/(\\d+)/traffic_class");
    /** `echo "RoCE v1" > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode`: rdma_cm's default changed by hand. */
    private static final Pattern CM_WRITE = Pattern.compile("echo\\s+(?:-n\\s+)?(\"[^\"]*\"|'[^']*'|\\S+)\\s*>\\s*(/sys/kernel/config/rdma_cm/\\S+)");

    /**
     * libibverbs' own warnings on stderr (rdma-core libibverbs/init.c; printed always by libibverbs 1.x, only with
     * IBV_SHOW_WARNINGS since rdma-core): a kernel verbs device no userspace provider claimed, a provider that did not load.
     */
    private static final Pattern LIBIBVERBS = Pattern.compile("^libibverbs: Warning: (?:no userspace device-specific driver found for (\\S+)"
            + "|couldn't load driver '([^']+)'.*|(.*))$");

    private final String source;
    private final PasteFacts facts = new PasteFacts();
    private final List<RdmaPaste.Section> sections = new ArrayList<>();
    private final List<RdmaPaste.Unread> unread = new ArrayList<>();
    private int factLines;
    private int known;
    private int skipped;
    private Optional<Command> command = Optional.empty();
    private boolean inLoop;
    private RdmaKind kind;
    private SectionReader reader;
    private int first;
    private int last;
    private int sectionFacts;

    private RdmaTextReader(String source) {
        this.source = source;
    }

    /** The kinds this reader recognises, for messages: "ibv_devinfo, ibstat, …"; `ip` is read only beside one of them. */
    public static String kindsTried() {
        return Arrays.stream(RdmaKind.values()).filter(k -> k != RdmaKind.IP).map(RdmaKind::key).collect(Collectors.joining(", "));
    }

    /**
     * @throws InputException when no line opens a section of any known kind: the text is not RDMA state output
     */
    public static RdmaPaste parse(List<String> lines, String source) {
        RdmaTextReader r = new RdmaTextReader(source);
        for (int i = 0; i < lines.size(); i++) {
            r.line(lines.get(i).replaceFirst("\\s+$", ""), i + 1);
        }
        r.close();
        if (r.sections.stream().allMatch(s -> s.kind() == RdmaKind.IP)) {
            String firstLine = lines.stream().filter(l -> !l.isBlank()).findFirst().map(String::strip).orElse("");
            throw new InputException(source + ": none of the RDMA state outputs (" + kindsTried() + ") was recognised in "
                    + lines.size() + " lines" + (r.sections.isEmpty() ? "" : " (only `ip addr` or `ip link`, which names no RDMA device)")
                    + (firstLine.isEmpty() ? " (the text is empty)"
                    : "; the first line is '" + abbreviate(firstLine) + "'") + ". Paste the tool's output as it printed it.");
        }
        return r.result(lines.size());
    }

    private void line(String line, int n) {
        String t = line.strip();
        if (inLoop) {
            inLoop = !t.matches("done\\b.*");
            skipped++;
            return;
        }
        if (t.isEmpty() || t.startsWith("```") || t.startsWith("~~~") || Command.emptyPrompt(line)) {
            skipped++;
            return;
        }
        // "# Port info: Lid 1 port 18" has the shape of a root prompt's command: ibportstate's header wins
        Optional<Command> cmd = IbportstateReader.HEADER.matcher(t).matches() ? Optional.empty() : Command.of(line);
        if (cmd.isPresent()) {
            Matcher tc = TC_WRITE.matcher(cmd.get().text());
            if (tc.find()) {
                facts.notes.add("line " + n + " writes traffic class " + tc.group(1) + " to " + tc.group(2) + " port " + tc.group(3)
                        + " (tc/" + tc.group(3) + "/traffic_class): a command, whose result the input does not show");
            }
            Matcher cm = CM_WRITE.matcher(cmd.get().text());
            Matcher file = cm.find() ? SysfsReader.RDMA_CM.matcher(cm.group(2)) : null;
            if (file != null && file.matches()) {
                facts.rdmaCm.put(file.group(1), Integer.parseInt(file.group(2)), file.group(3), cm.group(1).replaceAll("^[\"']|[\"']$", ""),
                        new Slot.Line(RdmaKind.SYSFS, n), true);
            }
            close();
            command = cmd;
            inLoop = cmd.get().opensLoop();
            skipped++;
            return;
        }
        Matcher warning = LIBIBVERBS.matcher(t);
        if (warning.matches()) {
            facts.notes.add(libibverbsNote(warning, n));
            known++;
            return;
        }
        Optional<Shape> shape = SHAPES.stream().filter(s -> s.opens().test(line, command)).findFirst();
        if (shape.isPresent() && shape.get().kind() != kind) {
            close();
            kind = shape.get().kind();
            reader = shape.get().start().apply(facts, command);
            first = n;
            last = n;
            sectionFacts = 0;
        }
        SectionReader.Verdict v;
        try {
            v = reader == null ? SectionReader.Verdict.FOREIGN : reader.read(line, new Slot.Line(kind, n));
        } catch (NumberFormatException pastIntRange) { // a port or GID index of 26 digits: no tool prints it, the line is not understood
            v = SectionReader.Verdict.FOREIGN;
        }
        switch (v) {
            case FACT -> {
                factLines++;
                sectionFacts++;
                last = n;
            }
            case KNOWN -> {
                known++;
                last = n;
            }
            case FOREIGN -> unread.add(new RdmaPaste.Unread(n, line));
        }
    }

    private static String libibverbsNote(Matcher w, int n) {
        if (w.group(1) != null) {
            return "libibverbs found " + w.group(1) + " and no userspace driver for it (line " + n + "): the kernel has that verbs device, "
                    + "but no rdma-core provider for its driver is installed or matches it, so ibv_devinfo, perftest and NCCL do not list it";
        }
        if (w.group(2) != null) {
            return "libibverbs could not load its provider '" + w.group(2) + "' (line " + n + "): devices of that driver are not listed";
        }
        return "libibverbs warned (line " + n + "): " + w.group(3);
    }

    private void close() {
        if (reader != null) {
            sections.add(new RdmaPaste.Section(kind, first, last, sectionFacts));
        }
        reader = null;
        kind = null;
    }

    private RdmaPaste result(int total) {
        facts.tieDriverInfo();
        facts.judgeLinkSettings();
        facts.unopenedNote();
        facts.ibvDevicesNote();
        return new RdmaPaste(source, sections, facts.rdma(), facts.counterPorts(), facts.otherEthtool(),
                new RdmaPaste.Lines(total, factLines, known, skipped, unread.size()), unread, facts.notes, facts.adapters(),
                facts.rdmaCm.settings(), facts.driverInfos(), facts.unopenedCount(),
                facts.fabric(), facts.withoutGid(), facts.linkSettings());
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
