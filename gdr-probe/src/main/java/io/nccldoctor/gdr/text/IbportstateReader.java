package io.nccldoctor.gdr.text;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibportstate [options] DEST PORT` (rdma-core infiniband-diags/ibportstate.c show_port_info): a title ("PortInfo:";
 * "Switch PortInfo:" or "CA/RT PortInfo:" in newer builds; "Peer PortInfo:" for the port at the link's other end),
 * then "# Port info: ADDRESS port N" and one "Field:....value" line per PortInfo field, the name padded with dots
 * (libibmad dump.c _dump_fields): LinkState, PhysLinkState, LinkDownDefState, Lid, SMLid, LMC, LinkWidth*, LinkSpeed*,
 * LinkSpeedExt* and, for a CA, the M_Key fields. ADDRESS is how the node was reached (libibmad portid.c portid2str:
 * "Lid 1", "DR path slid 2; dlid 65535; 0,17"), not a local device name, and the node may be a switch or the far end of
 * a link: its ports are kept apart from the host's RDMA devices ({@link RdmaPaste#fabric}), under that address, so
 * neither the port rules nor the host's NIC line rate count them. "# MLNX ext Port info:" blocks follow on Mellanox nodes; their fields
 * (hex) are the tool's and are not read.
 * <p>
 * ibportstate reads PortInfo with subnet management packets, which exist on InfiniBand only (RoCE has no subnet
 * manager), so the port's link layer is InfiniBand, and a note says it was inferred.
 */
final class IbportstateReader implements SectionReader {

    static final Pattern HEADER = Pattern.compile("^#\\s*(MLNX ext )?Port info: (.+?) port (\\d+)\\s*$");
    private static final Pattern TITLE = Pattern.compile("^(?:Initial |After )?(?:Switch |CA/RT |Peer )?PortInfo(?: set)?:$");
    private static final Pattern FIELD = Pattern.compile("^([A-Za-z][A-Za-z0-9]*):\\.{2,}(.*?)\\s*$");
    private static final Pattern WIDTH = Pattern.compile("^(\\d+)X$");
    /**
     * Lane speed as ibportstate prints it → the lane's data rate the kernel's rate file counts (drivers/infiniband/core/
     * sysfs.c rate_show: SDR 2.5, DDR 5, QDR 10, FDR 14, EDR 25, HDR 50, NDR 100 Gb/s per lane; "4X FDR" is 56 Gb/sec,
     * as ibstat's Rate 56 in corpus/rdma shows). FDR and faster print the signalling rate in LinkSpeedExtActive
     * (libibmad dump.c mad_dump_linkspeedext).
     */
    private static final Map<String, Double> LANE_GBPS = Map.of("2.5 Gbps", 2.5, "5.0 Gbps", 5.0, "10.0 Gbps", 10.0,
            "14.0625 Gbps", 14.0, "25.78125 Gbps", 25.0, "53.125 Gbps", 50.0, "106.25 Gbps", 100.0);

    private final PasteFacts facts;
    private PasteFacts.PortFacts port;
    /** Inside a "# MLNX ext Port info:" block, whose LinkSpeedActive is Mellanox's hex, not the PortInfo field. */
    private boolean extension;
    private boolean headerlessNoted;
    private Integer width;
    private String speed;
    private String extSpeed;

    IbportstateReader(PasteFacts facts) {
        this.facts = facts;
    }

    static boolean opens(String line) {
        String t = line.strip();
        return HEADER.matcher(t).matches() || TITLE.matcher(t).matches() || FIELD.matcher(t).matches();
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        Matcher h = HEADER.matcher(t);
        if (h.matches()) {
            extension = h.group(1) != null;
            if (!extension) {
                port = facts.fabricNode(h.group(2)).port(Integer.parseInt(h.group(3)));
                // inferred, not printed: PortInfo travels in subnet management packets, which only InfiniBand has
                port.linkLayer.set("InfiniBand", at, facts.notes);
                width = null;
                speed = null;
                extSpeed = null;
            }
            return Verdict.FACT;
        }
        if (TITLE.matcher(t).matches() || t.equals("Port is already in enable state") || t.equals("Disable may be irreversible")) {
            return Verdict.KNOWN;
        }
        Matcher f = FIELD.matcher(t);
        if (!f.matches()) {
            return Verdict.FOREIGN;
        }
        if (port == null) {
            if (!headerlessNoted) {
                facts.notes.add("ibportstate fields without their '# Port info:' line (from " + at + "): the node and port they "
                        + "describe are not in the input, so they are not read");
                headerlessNoted = true;
            }
            return Verdict.KNOWN;
        }
        return extension ? Verdict.KNOWN : field(f.group(1), f.group(2), at);
    }

    private Verdict field(String name, String value, Slot.Line at) {
        switch (name) {
            case "LinkState" -> PortStates.state(value).ifPresentOrElse(s -> port.state.set(s, at, facts.notes),
                    () -> port.state.fail("unknown LinkState '" + value + "'", at));
            case "PhysLinkState" -> PortStates.phys(value).ifPresentOrElse(s -> port.phys.set(s, at, facts.notes),
                    () -> port.phys.fail("unknown PhysLinkState '" + value + "'", at));
            case "Lid" -> DevinfoReader.integer(value).ifPresent(v -> port.lid.set(v, at, facts.notes));
            case "SMLid" -> DevinfoReader.integer(value).ifPresent(v -> port.smLid.set(v, at, facts.notes));
            case "LinkWidthActive" -> {
                Matcher w = WIDTH.matcher(value);
                width = w.matches() ? Integer.valueOf(w.group(1)) : null;
            }
            case "LinkSpeedActive" -> speed = value;
            case "LinkSpeedExtActive" -> extSpeed = value;
            default -> {
                return Verdict.KNOWN;
            }
        }
        rate(at);
        return Verdict.FACT;
    }

    /** Width × lane rate, once both are read: "4X" × "10.0 Gbps" is 40 Gb/s (QDR), as the kernel's rate file says. */
    private void rate(Slot.Line at) {
        String lane = "Extended speed".equals(speed) ? extSpeed : speed;
        if (width == null || lane == null || port.gbps.isSet()) {
            return;
        }
        Double perLane = LANE_GBPS.get(lane);
        if (perLane == null) {
            port.gbps.fail("unreadable lane speed '" + lane + "'", at);
            return;
        }
        port.gbps.set(width * perLane, at, facts.notes);
        port.rate.set(width + "X × " + lane + " (LinkWidthActive × " + (lane.equals(speed) ? "LinkSpeedActive" : "LinkSpeedExtActive")
                + ")", at, facts.notes);
    }
}
