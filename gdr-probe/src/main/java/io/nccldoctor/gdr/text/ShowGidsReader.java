package io.nccldoctor.gdr.text;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `show_gids` (Mellanox mlnx-tools sbin/show_gids): a header, a dashed line, one row per non-zero GID
 * ("mlx5_0 1 3 0000:…:ffff:0a00:0005 10.0.0.5 v2 ens1f0"), then "n_gids_found=N". Columns are separated by tabs
 * in the script's output and by spaces once pasted; the IPv4 column is empty for non-IPv4 GIDs and the netdev
 * column empty when sysfs names none. VER is the end of the sysfs type: "v1" for "IB/RoCE v1", "v2" for "RoCE v2".
 * The script (mlnx-tools sbin/show_gids @8fbfd9cfff34) walks /sys/class/infiniband/DEV/ports/N/gids/ and skips zero
 * GIDs and fe80:0000:0000:0000:0000:0000:0000:0000 (a link-local prefix with no interface id, which NCCL's
 * configuredGid counts as unset too), so "n_gids_found=0" with no row means that no port of any device it could see
 * has a GID: none is visible (a container without the device), or the ports have no address to make one from. It
 * prints nothing for a port without a GID: a port of a device the listing covers (every device it walked: those its
 * command line named, all of them without an argument, and any device of its rows, whose ports it walks all) that
 * has no row has no GID.
 */
final class ShowGidsReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*DEV\\s+PORT\\s+INDEX\\s+GID\\s+IPv4\\s+VER\\s+DEV\\s*$");
    private static final Pattern ROW = Pattern.compile(
            "^\\s*([\\w.-]+)\\s+(\\d+)\\s+(\\d+)\\s+([0-9a-fA-F:]{39})\\s+(?:(\\d{1,3}(?:\\.\\d{1,3}){3})\\s+)?(v1|v2)(?:\\s+([\\w.@-]+))?\\s*$");
    private static final Pattern COUNT = Pattern.compile("^\\s*n_gids_found=(\\d+)\\s*$");

    private final PasteFacts facts;
    /** The devices the command line named; empty for every device ({@code show_gids} alone), null when no command line shows which. */
    private final Set<String> named;
    private final Set<String> listed = new LinkedHashSet<>();
    private int rows;

    ShowGidsReader(PasteFacts facts, Optional<Command> command) {
        this.facts = facts;
        // a pipe (| grep …) filters rows: then only the devices of its rows, when the count still matches them
        Optional<Command> own = command.filter(c -> c.tool().equals("show_gids") && !c.text().contains("|"));
        this.named = own.map(c -> new LinkedHashSet<>(c.words().stream().skip(1).filter(w -> !w.startsWith("-")).toList()))
                .orElse(null);
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        if (OPENS.matcher(line).matches() || line.strip().matches("---\\s+----\\s+-----\\s+---\\s+-+\\s+---\\s+---")) {
            return Verdict.KNOWN;
        }
        Matcher count = COUNT.matcher(line);
        if (count.matches()) {
            int n = Integer.parseInt(count.group(1));
            if (n != rows) {
                facts.notes.add("show_gids says n_gids_found=" + n + " but " + rows + " rows were read (" + at + ")");
            } else {
                if (n == 0) {
                    facts.noGids(at, named);
                }
                facts.gidsListed(named == null ? null : named.isEmpty() ? Set.of() : named, listed, at);
            }
            return Verdict.KNOWN;
        }
        Matcher m = ROW.matcher(line);
        if (!m.matches()) {
            return Verdict.FOREIGN;
        }
        Optional<String> gid = Gids.full(m.group(4));
        if (gid.isEmpty()) {
            return Verdict.FOREIGN;
        }
        rows++;
        String device = m.group(1);
        listed.add(device);
        int port = Integer.parseInt(m.group(2));
        PasteFacts.GidFacts g = facts.device(device).port(port).gid(Integer.parseInt(m.group(3)), gid.get(), facts.notes, at);
        g.type.set(m.group(6).equals("v2") ? "RoCE v2" : "IB/RoCE v1", at, facts.notes);
        if (m.group(7) != null) {
            g.netdev.set(m.group(7), at, facts.notes);
            facts.link(device, port, m.group(7));
        }
        return Verdict.FACT;
    }
}
