package io.nccldoctor.gdr.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibstatus` (rdma-core infiniband-diags/scripts/ibstatus): a shell script that prints the sysfs files of each port
 * under "Infiniband device 'mlx5_0' port 1 status:", so the values are the kernel's strings ("4: ACTIVE",
 * "100 Gb/sec (4X EDR)", LIDs in hex).
 */
final class IbstatusReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*Infiniband device '([^']+)' port (\\d+) status:\\s*$");
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*(default gid|base lid|sm lid|state|phys state|rate|link_layer):\\s*(.*?)\\s*$");

    private final PasteFacts facts;
    private PasteFacts.PortFacts port;

    IbstatusReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher open = OPENS.matcher(line);
        if (open.matches()) {
            port = facts.device(open.group(1)).port(Integer.parseInt(open.group(2)));
            return Verdict.FACT;
        }
        Matcher kv = KEY_VALUE.matcher(line);
        if (port == null || !kv.matches()) {
            return Verdict.FOREIGN;
        }
        String v = kv.group(2);
        if (kv.group(1).equals("default gid")) {
            // gids/0 only: taken into the GID table it would read as a table of one entry, and the RoCE rules would
            // judge a table the paste does not show
            return Verdict.KNOWN;
        }
        String file = switch (kv.group(1)) {
            case "base lid" -> "lid";
            case "sm lid" -> "sm_lid";
            case "phys state" -> "phys_state";
            default -> kv.group(1);
        };
        // the script prints "unknown" for a file it cannot read, and "IB" when there is no link_layer file
        if (v.equals("unknown")) {
            return Verdict.KNOWN;
        }
        PortFiles.read(port, file, file.equals("link_layer") && v.equals("IB") ? "InfiniBand" : v, at, facts.notes);
        return Verdict.FACT;
    }
}
