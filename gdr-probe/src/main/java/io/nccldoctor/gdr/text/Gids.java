package io.nccldoctor.gdr.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * GIDs in the form sysfs prints them (eight groups of four hex digits, "0000:0000:0000:0000:0000:ffff:0a00:0005"),
 * from the forms tools print: the same (show_gids, ibstatus, older ibv_devinfo) or compressed IPv6 with an embedded
 * IPv4 address ("::ffff:10.0.0.5", ibv_devinfo -v for RoCE v2 GIDs since rdma-core 28: it formats them with
 * inet_ntop, libibverbs/examples/devinfo.c print_formated_gid).
 */
final class Gids {

    static final String ZERO = "0000:0000:0000:0000:0000:0000:0000:0000";

    private Gids() {
    }

    /** The full form, or empty when the text is no IPv6 address. */
    static Optional<String> full(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        List<Integer> groups = new ArrayList<>();
        int dot = s.lastIndexOf(':');
        if (s.indexOf('.') > 0 && dot >= 0) {
            Optional<int[]> v4 = ipv4(s.substring(dot + 1));
            if (v4.isEmpty()) {
                return Optional.empty();
            }
            int[] b = v4.get();
            s = s.substring(0, dot + 1) + Integer.toHexString(b[0] << 8 | b[1]) + ":" + Integer.toHexString(b[2] << 8 | b[3]);
        }
        String[] halves = s.split("::", -1);
        if (halves.length > 2) {
            return Optional.empty();
        }
        Optional<List<Integer>> headGroups = hexGroups(halves[0]);
        Optional<List<Integer>> tailGroups = halves.length == 2 ? hexGroups(halves[1]) : Optional.of(List.of());
        if (headGroups.isEmpty() || tailGroups.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> head = headGroups.get();
        List<Integer> tail = tailGroups.get();
        int missing = 8 - head.size() - tail.size();
        if (missing < 0 || (halves.length == 1 && missing != 0) || (halves.length == 2 && missing < 1)) {
            return Optional.empty();
        }
        groups.addAll(head);
        for (int i = 0; i < missing && halves.length == 2; i++) {
            groups.add(0);
        }
        groups.addAll(tail);
        StringBuilder out = new StringBuilder();
        for (int g : groups) {
            out.append(out.length() == 0 ? "" : ":").append(String.format(Locale.ROOT, "%04x", g));
        }
        return Optional.of(out.toString());
    }

    /** "0000:…:ffff:0a00:0005" (IPv4-mapped, RoCE's form for an IPv4 address) → "10.0.0.5". */
    static Optional<String> mappedIpv4(String full) {
        if (!full.startsWith("0000:0000:0000:0000:0000:ffff:")) {
            return Optional.empty();
        }
        String[] g = full.split(":");
        int hi = Integer.parseInt(g[6], 16);
        int lo = Integer.parseInt(g[7], 16);
        return Optional.of((hi >> 8) + "." + (hi & 255) + "." + (lo >> 8) + "." + (lo & 255));
    }

    /** fe80::/64, which NCCL never picks (validGid in NVIDIA/nccl src/transport/net_ib/connect.cc). */
    static boolean linkLocal(String full) {
        return full.startsWith("fe80:0000:0000:0000:");
    }

    /** "fe80:0:ac0" → [0xfe80, 0, 0xac0]; empty when a group is no 1-4 hex digits. */
    private static Optional<List<Integer>> hexGroups(String s) {
        List<Integer> out = new ArrayList<>();
        if (s.isEmpty()) {
            return Optional.of(out);
        }
        for (String g : s.split(":", -1)) {
            if (!g.matches("[0-9a-f]{1,4}")) {
                return Optional.empty();
            }
            out.add(Integer.parseInt(g, 16));
        }
        return Optional.of(out);
    }

    private static Optional<int[]> ipv4(String s) {
        String[] p = s.split("\\.", -1);
        if (p.length != 4) {
            return Optional.empty();
        }
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) {
            if (!p[i].matches("\\d{1,3}") || Integer.parseInt(p[i]) > 255) {
                return Optional.empty();
            }
            b[i] = Integer.parseInt(p[i]);
        }
        return Optional.of(b);
    }
}
