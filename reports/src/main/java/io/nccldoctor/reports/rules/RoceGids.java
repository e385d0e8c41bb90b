package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.reports.Sections;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which GID NCCL uses on a RoCE port, as NVIDIA/nccl src/transport/net_ib/connect.cc picks it (ncclIbGetGidIndex,
 * ncclUpdateGidIndex; the same code in src/transport/net_ib.cc since 2.21.5):
 * <ul>
 *   <li>NCCL_IB_GID_INDEX &ge; 0 pins the index, whatever it holds;</li>
 *   <li>unset (-1), NCCL starts at index 0 and walks the table: a candidate of the family NCCL_IB_ADDR_FAMILY names
 *       (default AF_INET, an IPv4-mapped ::ffff:a.b.c.d GID) inside NCCL_IB_ADDR_RANGE replaces a current GID of the
 *       other family; one of the same family replaces it when the candidate is valid (set, not link-local fe80::/64)
 *       and of the RoCE version NCCL_IB_ROCE_VERSION_NUM asks for (default 2) while the current one is invalid or of
 *       another version;</li>
 *   <li>before 2.21.5 NCCL_IB_GID_INDEX defaulted to 0 and there was no walk (NCCL_PARAM(IbGidIndex, "IB_GID_INDEX",
 *       0) in src/transport/net_ib.cc of 2.18 and 2.20).</li>
 * </ul>
 * The snapshot keeps only non-zero GIDs; the indexes between them are zero GIDs here, as the kernel reports them.
 */
final class RoceGids {

    /** The first NCCL whose GID index is chosen by the walk above rather than fixed at 0. */
    static final String AUTO_SINCE = "2.21.5";
    static final String ZERO = "0000:0000:0000:0000:0000:0000:0000:0000";
    private static final int AF_INET = 4;
    private static final int AF_INET6 = 6;

    private RoceGids() {
    }

    /**
     * The GID NCCL uses on one port.
     *
     * @param index  the index NCCL uses
     * @param gid    what that index holds; empty for a zero GID (unset, or past the table)
     * @param pinned true when the index is fixed (NCCL_IB_GID_INDEX, or an NCCL before 2.21.5), not chosen
     * @param how    "NCCL_IB_GID_INDEX=3", "NCCL 2.18.5 uses index 0 …", "NCCL's choice (AF_INET, RoCE v2)"
     */
    record Choice(int index, Optional<RdmaDevices.Gid> gid, boolean pinned, String how) {

        String describe() {
            return "index " + index + " " + gid.map(g -> g.gid() + " (" + g.type().orElse("type not read") + ")").orElse("(zero: no GID)");
        }
    }

    /** The settings that decide the choice, read from the snapshot's environment and NCCL version. */
    record Settings(Optional<Integer> pinned, String pinnedHow, int family, int version, Optional<String> range) {

        static Settings of(Snapshot s) {
            Map<String, String> env = s.env();
            Optional<Integer> index = number(env.get("NCCL_IB_GID_INDEX")).filter(i -> i >= 0);
            String how = index.map(i -> "NCCL_IB_GID_INDEX=" + i).orElse("");
            Fact<String> nccl = Sections.libraries(s).map(l -> l.nccl().version()).orElse(Fact.absent("not probed"));
            if (index.isEmpty() && nccl.isValue() && Versions.compare(nccl.get(), AUTO_SINCE) < 0) {
                index = Optional.of(0);
                how = "NCCL " + nccl.get() + " uses index 0 when NCCL_IB_GID_INDEX is unset (NCCL chooses the GID itself only "
                        + "since " + AUTO_SINCE + ")";
            }
            int family = "AF_INET6".equals(env.get("NCCL_IB_ADDR_FAMILY")) ? AF_INET6 : AF_INET;
            int version = number(env.get("NCCL_IB_ROCE_VERSION_NUM")).orElse(2);
            return new Settings(index, how, family, version, Optional.ofNullable(env.get("NCCL_IB_ADDR_RANGE")).filter(r -> !r.isBlank()));
        }

        String wanted() {
            return (family == AF_INET ? "AF_INET" : "AF_INET6") + ", RoCE v" + version + range.map(r -> ", in " + r).orElse("");
        }
    }

    static Choice choose(RdmaPorts.Port p, Settings settings) {
        List<RdmaDevices.Gid> table = table(p.port().gids().orElse(List.of()));
        if (settings.pinned().isPresent()) {
            int i = settings.pinned().get();
            return new Choice(i, at(table, i), true, settings.pinnedHow());
        }
        int current = 0;
        for (int c = 1; c < table.size(); c++) {
            if (replaces(table.get(current), table.get(c), settings)) {
                current = c;
            }
        }
        return new Choice(current, at(table, current), false, "NCCL's own choice (" + settings.wanted() + ")");
    }

    /** ncclUpdateGidIndex: whether the candidate replaces the current GID. */
    private static boolean replaces(RdmaDevices.Gid current, RdmaDevices.Gid candidate, Settings s) {
        int fam = family(candidate.gid());
        boolean inRange = s.range().map(r -> inRange(candidate.gid(), r, s.family())).orElse(true);
        if (fam != family(current.gid()) && fam == s.family() && inRange) {
            return true;
        }
        if (fam != s.family() || !valid(candidate.gid()) || !inRange) {
            return false;
        }
        int cv = version(candidate);
        return (version(current) != cv || !valid(current.gid())) && cv == s.version();
    }

    /** What the port's GIDs hold instead of a GID NCCL can use across a routed network; empty when the choice is one. */
    static List<String> problem(RdmaPorts.Port p, Choice choice, Settings settings) {
        List<RdmaDevices.Gid> gids = p.port().gids().orElse(List.of());
        Optional<RdmaDevices.Gid> chosen = choice.gid();
        boolean v2 = chosen.map(g -> version(g) == 2).orElse(false);
        if (v2 && valid(chosen.get().gid())) {
            return List.of();
        }
        List<String> evidence = new ArrayList<>();
        List<RdmaDevices.Gid> roceV2 = gids.stream().filter(g -> version(g) == 2).toList();
        List<RdmaDevices.Gid> routable = roceV2.stream().filter(g -> !linkLocal(g.gid())).toList();
        if (roceV2.isEmpty()) {
            evidence.add(gids.size() + " GIDs, none of type RoCE v2" + (gids.isEmpty() ? "" : ": " + describe(gids)));
        } else if (routable.isEmpty()) {
            evidence.add("RoCE v2 GIDs are link-local only: " + describe(roceV2) + "; NCCL skips them and falls back to GID index 0");
        } else if (routable.stream().noneMatch(g -> family(g.gid()) == settings.family())) {
            evidence.add("RoCE v2 GIDs are " + (settings.family() == AF_INET ? "IPv6" : "IPv4") + " only: " + describe(routable)
                    + "; NCCL looks for an " + (settings.family() == AF_INET ? "IPv4 one (NCCL_IB_ADDR_FAMILY default AF_INET)"
                    : "IPv6 one (NCCL_IB_ADDR_FAMILY=AF_INET6)") + " and falls back to GID index 0");
        }
        evidence.add("NCCL uses " + choice.describe() + ": " + choice.how());
        if (settings.version() != 2) {
            evidence.add("NCCL_IB_ROCE_VERSION_NUM=" + settings.version() + " asks for RoCE v" + settings.version());
        }
        evidence.add("IPv4 on the port's net devices: " + p.port().netdevs().orElse(List.of()).stream()
                .map(n -> n.name() + " " + n.ipv4().fold(Object::toString, why -> "(not read)")).toList());
        return evidence;
    }

    /** The GIDs by index, the gaps filled with zero GIDs (whose type the kernel does not report). */
    private static List<RdmaDevices.Gid> table(List<RdmaDevices.Gid> gids) {
        int size = gids.stream().mapToInt(RdmaDevices.Gid::index).max().orElse(-1) + 1;
        List<RdmaDevices.Gid> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int index = i;
            out.add(gids.stream().filter(g -> g.index() == index).findFirst()
                    .orElse(new RdmaDevices.Gid(i, ZERO, Fact.absent("zero GID"), Fact.absent("zero GID"))));
        }
        if (out.isEmpty()) {
            out.add(new RdmaDevices.Gid(0, ZERO, Fact.absent("zero GID"), Fact.absent("zero GID")));
        }
        return out;
    }

    private static Optional<RdmaDevices.Gid> at(List<RdmaDevices.Gid> table, int i) {
        return i < table.size() && !table.get(i).gid().equals(ZERO) ? Optional.of(table.get(i)) : Optional.empty();
    }

    /** ncclIbRoceGetVersionNum: 1 for "IB/RoCE v1" and "RoCE v1", 2 for "RoCE v2", -1 when unknown. */
    static int version(RdmaDevices.Gid g) {
        String t = g.type().orElse("");
        return t.startsWith("IB/RoCE v1") || t.startsWith("RoCE v1") ? 1 : t.startsWith("RoCE v2") ? 2 : -1;
    }

    /** getGidAddrFamily: IPv4-mapped ::ffff:a.b.c.d (or its ff0e:: multicast form) is AF_INET, anything else AF_INET6. */
    static int family(String gid) {
        return gid.startsWith("0000:0000:0000:0000:0000:ffff:") || gid.startsWith("ff0e:0000:0000:0000:0000:ffff:") ? AF_INET : AF_INET6;
    }

    /** validGid: configured (not zero, not fe80:: with a zero interface id) and not link-local. */
    static boolean valid(String gid) {
        return !gid.equals(ZERO) && !linkLocal(gid);
    }

    static boolean linkLocal(String gid) {
        return gid.startsWith("fe80:0000:0000:0000:");
    }

    static boolean ipv4(String gid) {
        return family(gid) == AF_INET;
    }

    /**
     * matchGidAddrPrefix: "10.0.0.0/16" against the GID's last 32 bits (AF_INET) or "fd00::/8" against its first bits
     * (AF_INET6). A range NCCL cannot parse (no '/', a bad address) is ignored by NCCL, so everything matches.
     */
    static boolean inRange(String gid, String range, int family) {
        int slash = range.indexOf('/');
        if (slash < 0) {
            return true;
        }
        Optional<byte[]> base = Addresses.parse(range.substring(0, slash).strip(), family);
        Optional<Integer> bits = number(range.substring(slash + 1));
        if (base.isEmpty() || bits.isEmpty() || bits.get() > (family == AF_INET ? 32 : 128)) {
            return true;
        }
        byte[] g = Addresses.gidBytes(gid);
        byte[] ours = family == AF_INET ? new byte[] {g[12], g[13], g[14], g[15]} : g;
        return Addresses.samePrefix(base.get(), ours, bits.get());
    }

    private static String describe(List<RdmaDevices.Gid> gids) {
        return String.join(", ", gids.stream().map(g -> "index " + g.index() + " " + g.gid() + " (" + g.type().orElse("type ?")
                + ")").toList());
    }

    static Optional<Integer> number(String s) {
        if (s == null || !s.strip().matches("-?\\d{1,9}")) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(s.strip()));
    }
}
