package io.nccldoctor.gdr.text;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A listing of /sys/class/infiniband. `ls -l` shows each device as a link into its PCI function
 * ("mlx5_0 -> ../../devices/pci0000:00/0000:00:02.0/0000:04:00.0/infiniband/mlx5_0"), which gives the device's PCI
 * address as the live probe records it; a plain `ls` gives the names only, and is recognised only after its command
 * line, since a row of names alone could be anything. `ls -l` of several folders heads each with "FOLDER:"; the rows
 * under /dev/infiniband (uverbsN, umadN, issmN, rdma_cm: the character devices the verbs and MAD libraries open)
 * and /sys/class/net (net devices, bonding_masters) are the listing's and are known, not facts the live probe keeps.
 */
final class LsReader implements SectionReader {

    static final Pattern LINK = Pattern.compile(
            "^\\s*(?:[l-][rwxsStT-]{9}\\.?\\s+\\d+\\s+\\S+\\s+\\S+\\s+\\d+\\s+\\w{3}\\s+\\d+\\s+[\\d:]+\\s+)?([\\w.-]+) -> \\S*/devices/(\\S+)/infiniband/([\\w.-]+)\\s*$");
    private static final Pattern PCI = Pattern.compile("([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7])$");
    private static final Pattern NAMES = Pattern.compile("^\\s*[A-Za-z][\\w.-]*(\\s+[A-Za-z][\\w.-]*)*\\s*$");

    /** A folder's heading in `ls -l DIR DIR …`. */
    private static final Pattern HEADING = Pattern.compile("^(/dev/infiniband|/sys/class/infiniband|/sys/class/net)/?:$");
    /** An `ls -l` row: mode, links, owner, group, size (or "major, minor" of a device file), date, name. */
    private static final Pattern ROW = Pattern.compile(
            "^[-lcdbps][rwxsStT-]{9}[.+@]?\\s+\\d+\\s+\\S+\\s+\\S+\\s+(?:\\d+,\\s*)?\\d+\\s+\\w{3}\\s+\\d+\\s+[\\d:]+\\s+\\S.*$");

    private final PasteFacts facts;
    private final boolean listed;
    /** The folder whose rows follow, from its heading; null before any. */
    private String folder;

    LsReader(PasteFacts facts, Optional<Command> before) {
        this.facts = facts;
        this.listed = lists(before);
    }

    static boolean opens(String line, Optional<Command> before) {
        return LINK.matcher(line).matches() || HEADING.matcher(line.strip()).matches()
                || (lists(before) && (NAMES.matcher(line).matches() || line.strip().matches("total \\d+")));
    }

    private static boolean lists(Optional<Command> before) {
        return before.filter(c -> c.tool().equals("ls") && c.words().stream().anyMatch(w -> w.matches("/sys/class/infiniband/?"))).isPresent();
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        Matcher heading = HEADING.matcher(t);
        if (heading.matches()) {
            folder = heading.group(1);
            return Verdict.KNOWN;
        }
        if (t.matches("total \\d+") || t.matches("d[rwxsStT-]{9}\\.?\\s.*\\s\\.\\.?$")) {
            return Verdict.KNOWN;
        }
        if (folder != null && !folder.equals("/sys/class/infiniband") && ROW.matcher(t).matches()) {
            return Verdict.KNOWN;
        }
        Matcher link = LINK.matcher(line);
        if (link.matches()) {
            PasteFacts.DeviceFacts d = facts.device(link.group(1));
            Matcher pci = PCI.matcher(link.group(2));
            if (pci.find()) {
                d.pci.set(pci.group(1), at, facts.notes);
            }
            return Verdict.FACT;
        }
        if (listed && NAMES.matcher(line).matches()) {
            for (String name : t.split("\\s+")) {
                facts.device(name);
            }
            return Verdict.FACT;
        }
        return Verdict.FOREIGN;
    }
}
