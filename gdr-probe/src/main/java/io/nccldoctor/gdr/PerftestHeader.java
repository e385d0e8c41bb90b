package io.nccldoctor.gdr;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One line of perftest's header block split into its fields by the names perftest prints, not by the padding between
 * them: " Dual-port       : OFF\t\tDevice         : mlx5_0" and its Markdown-collapsed copy "Dual-port : OFF Device :
 * mlx5_1" give the same two fields.
 */
final class PerftestHeader {

    /**
     * The field names of ctx_print_test_info (linux-rdma/perftest src/perftest_parameters.c:4576-4686 at 00b55b6; the
     * same names since V4.1-0.2; "Using DDP" until commit 799923f renamed it "Using Enhanced Reorder"), "MAC attached"
     * of raw_ethernet_resources.c:253.
     */
    private static final List<String> NAMES = List.of("Dual-port", "Device", "Number of qps", "Transport type", "Connection type",
            "Using SRQ", "PCIe relax order", "Lock-free", "ibv_wr* API", "Using Enhanced Reorder", "Using DDP", "TX depth", "Post List",
            "Recv Post List", "RX depth", "DCS num streams", "DCS active num streams", "Number of data encryption keys", "Block Size",
            "CQ Moderation", "CQE Poll Batch", "Mtu", "Link type", "Buffer size", "GID index", "GID index2", "Max inline data",
            "Outstand reads", "rdma_cm QPs", "Use ROCm memory", "Use MUSA memory", "Data ex. method", "TOS", "NUMA node", "MAC attached");
    /** A known name where a field starts: at the line's start or after white space, then its colon. */
    private static final Pattern NAME = Pattern.compile("(?<=^|\\s)(" + NAMES.stream().sorted(Comparator.comparingInt(String::length).reversed())
            .map(Pattern::quote).collect(Collectors.joining("|")) + ")\\s*:");
    /** A field perftest versions not listed above may print: the name of letters, the value up to 2+ spaces or a tab. */
    private static final Pattern OTHER = Pattern.compile("([A-Za-z][^:\\t|]*?)\\s*:\\s*(\\S[^\\t]*?)(?=\\s{2,}|\\t|$)");
    /** A colon between spaces inside a value: two fields whose padding was collapsed, one name not known. */
    private static final Pattern COLLAPSED = Pattern.compile("\\s:\\s|\\s:$");

    private PerftestHeader() {
    }

    /** The fields of the stripped line {@code s}, in order, or null when it is not one or two header fields. */
    static Map<String, String> fields(String s) {
        Matcher m = NAME.matcher(s);
        if (m.find() && m.start() == 0) {
            return known(s, m);
        }
        Map<String, String> out = new LinkedHashMap<>();
        Matcher o = OTHER.matcher(s);
        int end = 0;
        while (o.find()) {
            if (!s.substring(end, o.start()).isBlank() || COLLAPSED.matcher(o.group(2)).find()) {
                return null; // text between fields, or "name : value name : value" with single spaces: not read
            }
            out.put(o.group(1).strip(), o.group(2).strip());
            end = o.end();
        }
        return out.isEmpty() || !s.substring(end).isBlank() ? null : out;
    }

    /** Each known name up to the next known name; text the names leave over makes the line not understood. */
    private static Map<String, String> known(String s, Matcher m) {
        Map<String, String> out = new LinkedHashMap<>();
        String name = m.group(1);
        int from = m.end();
        while (m.find()) {
            out.put(name, s.substring(from, m.start()).strip());
            name = m.group(1);
            from = m.end();
        }
        out.put(name, s.substring(from).strip());
        return out.values().stream().anyMatch(v -> v.isEmpty() || COLLAPSED.matcher(v).find()) ? null : out;
    }
}
