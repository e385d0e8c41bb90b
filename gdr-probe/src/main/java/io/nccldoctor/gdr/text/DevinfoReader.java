package io.nccldoctor.gdr.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibv_devinfo` (rdma-core libibverbs/examples/devinfo.c, and MLNX_OFED's older build with "Device ports:" and
 * EXP_ flags): "hca_id:" opens a device, "port:" a port. With -v the device has dozens of capability lines, which
 * change with the version, so every indented line of a device block is taken as the tool's; a port block has a fixed
 * set of keys and anything else there is not understood. Also reads -l ("2 HCAs found:") and "No IB devices found".
 */
final class DevinfoReader implements SectionReader {

    /**
     * Also "port:" with its number: a port section pasted without the "hca_id:" line above it; a device print_hca_cap
     * could not open or query (devinfo.c: "Failed to open device", "Failed to query device props", no name given);
     * and a port key only devinfo prints, indented: an excerpt that starts inside a port section.
     */
    static final Pattern OPENS = Pattern.compile("^\\s*(hca_id:\\s*\\S+|\\d+ HCAs? found:|No IB devices found\\.?|port:\\s*\\d+"
            + "|Failed to open device|Failed to query device props)\\s*$|^\\s+(max_mtu|active_mtu|port_lid|port_lmc|port_cap_flags):\\s+\\S.*$");
    private static final Pattern FAILED = Pattern.compile("^(Failed to open device|Failed to query device props)$");
    /** "GID[ 14]:" also behind Markdown's bold mark ("**GID[ 14]:", an issue's emphasis whose closing mark was cut). */
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*(?:\\*\\*)?(GID\\[\\s*\\d+\\]|[A-Za-z_][\\w ]*?)\\s*:\\s*(.*?)\\s*$");
    private static final Pattern PORT = Pattern.compile("^port:\\s*(\\d+)$");
    private static final Pattern LEADING_INT = Pattern.compile("^(\\d+)");
    private static final Pattern GID_INDEX = Pattern.compile("GID\\[\\s*(\\d+)\\]");
    private static final Pattern SPEED = Pattern.compile("^([\\d.]+) Gbps");
    private static final Pattern WIDTH = Pattern.compile("^(\\d+)X");
    /** The port keys devinfo.c prints (plain and -v). */
    private static final Set<String> PORT_KEYS = Set.of("state", "max_mtu", "active_mtu", "sm_lid", "port_lid", "port_lmc",
            "link_layer", "max_msg_sz", "port_cap_flags", "port_cap_flags2", "max_vl_num", "bad_pkey_cntr", "qkey_viol_cntr",
            "sm_sl", "pkey_tbl_len", "gid_tbl_len", "subnet_timeout", "init_type_reply", "active_width", "active_speed",
            "effective_speed", "phys_state");

    private final PasteFacts facts;
    private PasteFacts.DeviceFacts device;
    /** The device's "transport:" line said "unspecified (4)", IBV_TRANSPORT_UNSPECIFIED (AWS EFA). */
    private boolean unspecifiedTransport;
    private PasteFacts.PortFacts port;
    private boolean listing;
    private Integer width;
    private Double laneGbps;
    /** Port lines read before any "hca_id:" or "port:" line: an excerpt cut inside a port section. */
    private final List<String> cutPort = new ArrayList<>();
    private int cutFirst;
    /** Where the note on those lines is in the paste's notes, rewritten as lines come. */
    private int cutNote = -1;

    DevinfoReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        if (t.startsWith("hca_id:")) {
            device = facts.device(t.substring("hca_id:".length()).strip());
            port = null;
            unspecifiedTransport = false;
            listing = false;
            return Verdict.FACT;
        }
        if (t.matches("\\d+ HCAs? found:")) {
            listing = true;
            return Verdict.KNOWN;
        }
        if (t.matches("No IB devices found\\.?")) {
            facts.noDevices(at);
            return Verdict.FACT;
        }
        if (FAILED.matcher(t).matches()) {
            facts.unopened(at);
            return Verdict.FACT;
        }
        if (listing && t.matches("[\\w.-]+") && !line.equals(t)) {
            facts.device(t);
            return Verdict.FACT;
        }
        Matcher portLine = PORT.matcher(t);
        if (device == null && portLine.matches()) {
            device = facts.device(RdmaPaste.UNNAMED);
            facts.notes.add("ibv_devinfo port " + portLine.group(1) + " without the hca_id line above it (" + at + "): its device is "
                    + "not named in the input, and its device lines (fw_ver, node_guid) are not there");
        }
        if (device == null) {
            return cutPortLine(line, at);
        }
        if (portLine.matches()) {
            device.portsStated = true;
            port = device.port(Integer.parseInt(portLine.group(1)));
            width = null;
            laneGbps = null;
            return Verdict.FACT;
        }
        if (t.equals("Device ports:")) {
            return Verdict.KNOWN;
        }
        Matcher kv = KEY_VALUE.matcher(line);
        if (port != null) {
            return kv.matches() ? portKey(kv.group(1), kv.group(2), at) : Verdict.FOREIGN;
        }
        if (kv.matches() && kv.group(2).isEmpty() && Set.of("fw_ver", "node_guid", "vendor_part_id").contains(kv.group(1))) {
            // devinfo.c prints these with a value (fw_ver only when it has one): an empty one is where the excerpt was cut
            facts.notes.add(device.name + " " + kv.group(1) + " printed without its value (" + at + "): the input is cut there");
            return Verdict.KNOWN;
        }
        if (kv.matches() && deviceKey(kv.group(1), kv.group(2), at)) {
            return Verdict.FACT;
        }
        return line.startsWith("\t") || line.startsWith("  ") ? Verdict.KNOWN : Verdict.FOREIGN;
    }

    /**
     * A port line before any device or port line: the excerpt starts inside a port section, so neither the device nor
     * the port number is in the input. The lines are the tool's and are kept, in a note, as printed; they are no
     * port's facts, since a port needs its number, and a guessed one would be judged as that port.
     */
    private Verdict cutPortLine(String line, Slot.Line at) {
        Matcher kv = KEY_VALUE.matcher(line);
        if (!kv.matches() || !PORT_KEYS.contains(kv.group(1)) || line.equals(line.strip())) {
            return Verdict.FOREIGN;
        }
        if (cutPort.isEmpty()) {
            cutFirst = at.number();
            cutNote = facts.notes.size();
            facts.notes.add("");
        }
        cutPort.add(kv.group(1) + " " + kv.group(2));
        facts.notes.set(cutNote, "ibv_devinfo lines " + cutFirst + "-" + at.number() + " end a port section whose hca_id and port "
                + "lines are above the input's first line (" + String.join(", ", cutPort) + "): device and port not named, "
                + "so not judged");
        return Verdict.KNOWN;
    }

    private boolean deviceKey(String key, String value, Slot.Line at) {
        switch (key) {
            case "transport" -> unspecifiedTransport = value.startsWith("unspecified");
            case "fw_ver" -> device.fw.set(value, at, facts.notes);
            case "node_guid" -> device.guid.set(value, at, facts.notes);
            case "vendor_part_id" -> integer(value).ifPresentOrElse(v -> device.partId.set(v, at, facts.notes),
                    () -> device.partId.fail("unreadable vendor_part_id '" + value + "'", at));
            default -> {
                return false;
            }
        }
        return true;
    }

    private Verdict portKey(String key, String value, Slot.Line at) {
        if (key.startsWith("GID[")) {
            return gid(key, value, at);
        }
        if (!PORT_KEYS.contains(key)) {
            return Verdict.FOREIGN;
        }
        switch (key) {
            case "state" -> PortStates.state(value).ifPresentOrElse(s -> port.state.set(s, at, facts.notes),
                    () -> port.state.fail("unknown port state '" + value + "'", at));
            case "phys_state" -> PortStates.phys(value).ifPresentOrElse(s -> port.phys.set(s, at, facts.notes),
                    () -> port.phys.fail("unknown physical state '" + value + "'", at));
            case "max_mtu" -> mtu(value, port.maxMtu, at);
            case "active_mtu" -> mtu(value, port.activeMtu, at);
            case "sm_lid" -> integer(value).ifPresent(v -> port.smLid.set(v, at, facts.notes));
            case "port_lid" -> integer(value).ifPresent(v -> port.lid.set(v, at, facts.notes));
            case "link_layer" -> port.linkLayer.set(linkLayer(value, at), at, facts.notes);
            case "active_width" -> width = match(WIDTH, value).map(Integer::valueOf).orElse(null);
            case "active_speed" -> laneGbps = match(SPEED, value).map(Double::valueOf).orElse(null);
            default -> {
                return Verdict.KNOWN;
            }
        }
        if (width != null && laneGbps != null && !port.gbps.isSet()) {
            // ibv_devinfo -v prints lanes and per-lane speed; the kernel's rate is their product ("4X" × "25.0 Gbps").
            port.gbps.set(width * laneGbps, at, facts.notes);
            port.rate.set(width + "X × " + laneGbps + " Gbps (active_width × active_speed)", at, facts.notes);
        }
        return Verdict.FACT;
    }

    /**
     * devinfo.c before rdma-core 33 printed "InfiniBand" for IBV_LINK_LAYER_UNSPECIFIED too (link_layer_str fell through
     * to the InfiniBand case; fixed by "libibverbs: Fix reporting link_layer for efa devices", rdma-core PR #884, commit
     * b87d8c97, which prints "Unspecified"). A device of transport "unspecified" (EFA) has no InfiniBand link layer,
     * so its "InfiniBand" is read as what sysfs prints for it, "Unknown" (drivers/infiniband/core/sysfs.c
     * show_port_link_layer), as is the newer "Unspecified".
     */
    private String linkLayer(String printed, Slot.Line at) {
        if (printed.equals("Unspecified") || (unspecifiedTransport && printed.equals("InfiniBand"))) {
            if (printed.equals("InfiniBand")) {
                facts.notes.add(device.name + " link layer: printed InfiniBand, read as Unknown (" + at + "): the device's transport "
                        + "is unspecified (EFA), and ibv_devinfo before rdma-core 33 printed InfiniBand for an unspecified link layer");
            }
            return "Unknown";
        }
        return printed;
    }

    /** "GID[  3]:\t\t::ffff:10.0.0.5, RoCE v2"; the type is printed only for Ethernet ports, and only since rdma-core 28. */
    private Verdict gid(String key, String value, Slot.Line at) {
        Matcher idx = GID_INDEX.matcher(key);
        String[] parts = value.split(",\\s*", 2);
        Optional<String> full = Gids.full(parts[0]);
        if (!idx.find() || full.isEmpty()) {
            return Verdict.FOREIGN;
        }
        PasteFacts.GidFacts g = port.gid(Integer.parseInt(idx.group(1)), full.get(), facts.notes, at);
        if (parts.length == 2) {
            // devinfo.c gid_type_str prints "RoCE v1" for what sysfs calls "IB/RoCE v1"
            g.type.set(parts[1].strip().equals("RoCE v1") ? "IB/RoCE v1" : parts[1].strip(), at, facts.notes);
        }
        return Verdict.FACT;
    }

    /** "4096 (5)" → 4096; "invalid MTU (0)" is kept as unreadable. */
    private void mtu(String value, Slot<Integer> slot, Slot.Line at) {
        integer(value).ifPresentOrElse(v -> slot.set(v, at, facts.notes), () -> slot.fail("unreadable MTU '" + value + "'", at));
    }

    static Optional<Integer> integer(String value) {
        return match(LEADING_INT, value.strip()).map(Integer::valueOf);
    }

    private static Optional<String> match(Pattern p, String value) {
        Matcher m = p.matcher(value.strip());
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
