package io.nccldoctor.pcie;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NCCL's PATH_* types and their numbers, which changed across versions (reference/nccl-internals.md §3, read from
 * src/graph/topo.h of each tag), and NCCL's default GPU Direct RDMA threshold per version. The one place that knows
 * the numbering: a log line "distance 8 > 5" means PHB > PXB on 2.27.5+, but "distance 7 > 4" means SYS > PXB on
 * 2.12–2.25. A line whose log names no version is read through its threshold, which is NCCL's default unless
 * NCCL_NET_GDR_LEVEL was set ({@link #readings}).
 */
public final class NcclPathTypes {

    /** Names in numeric order (index = PATH_* value), with the first NCCL version that used this numbering. */
    private record Numbering(String since, String until, List<String> names) {
    }

    private static final List<Numbering> TABLE = List.of(
            // 2.6 and 2.7: src/graph/topo.h@v2.6.4-1 and @v2.7.8-1 (2.4 and 2.5 measured a PCI distance of their own)
            new Numbering("2.6.0", "2.8.0", List.of("LOC", "NVL", "PIX", "PXB", "PHB", "SYS", "NET")),
            new Numbering("2.8.0", "2.12.0", List.of("LOC", "NVL", "NVB", "PIX", "PXB", "PHB", "SYS")),
            // 2.12–2.17: PATH_DIS was #defined as PATH_SYS (7)
            new Numbering("2.12.0", "2.18.0", List.of("LOC", "NVL", "NVB", "PIX", "PXB", "PXN", "PHB", "SYS")),
            new Numbering("2.18.0", "2.26.0", List.of("LOC", "NVL", "NVB", "PIX", "PXB", "PXN", "PHB", "SYS", "NET", "DIS")),
            new Numbering("2.26.0", "2.27.0", List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "PXN", "PHB", "SYS", "NET", "DIS")),
            // 2.27.3 placed P2C after PXN; 2.27.5 moved it before.
            new Numbering("2.27.0", "2.27.5", List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "PXN", "P2C", "PHB", "SYS", "NET", "DIS")),
            new Numbering("2.27.5", null, List.of("LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS")));

    /** The newest numbering known, used when no NCCL version is known. */
    public static final String NEWEST = "2.30.7";

    /**
     * Since 2.29 the default GPU Direct RDMA threshold is P2C while NCCL_NET_GDR_C2C is on (its default since 2.27), so
     * that a NIC behind the CPU of a C2C-attached GPU (Grace) gets GDR: {@code int netGdrLevel = ncclParamNetGdrC2c() ?
     * PATH_P2C : PATH_PXB;} in ncclTopoCheckGdr (src/graph/paths.cc@v2.29.2-1 L456, unchanged in v2.30.7-1 L511; PATH_PXB
     * in every release from v2.6.4-1 to v2.28.9-1).
     */
    private static final String GDR_C2C_DEFAULT_SINCE = "2.29.0";

    private NcclPathTypes() {
    }

    private static Numbering numbering(String version) {
        Numbering known = NUMBERING_OF.get(version);
        if (known != null) {
            return known;
        }
        for (Numbering n : TABLE) {
            if (compare(version, n.since) >= 0 && (n.until == null || compare(version, n.until) < 0)) {
                if (NUMBERING_OF.size() < 256) {
                    NUMBERING_OF.put(version, n);
                }
                return n;
            }
        }
        throw new IllegalArgumentException("NCCL " + version + " predates the path table (2.6; 2.4 and 2.5 measured a PCI distance of their own)");
    }

    /** The numbering of each version string looked up (a log's GPU Direct RDMA lines decode two names each with one). */
    private static final Map<String, Numbering> NUMBERING_OF = new ConcurrentHashMap<>();

    /** PATH_&lt;name&gt; as a number in {@code version}; -1 when that version has no such type. */
    public static int number(String name, String version) {
        return numbering(version).names.indexOf(name);
    }

    /** The type name of PATH number {@code value} in {@code version}, e.g. 8 → "PHB" in 2.27.5. */
    public static String name(int value, String version) {
        List<String> names = numbering(version).names;
        if (value < 0 || value >= names.size()) {
            if (value == 7 && compare(version, "2.18.0") < 0 && compare(version, "2.12.0") >= 0) {
                return "SYS";
            }
            throw new IllegalArgumentException("NCCL " + version + " has no path type " + value);
        }
        return names.get(value);
    }

    /**
     * NCCL's GPU Direct RDMA threshold when NCCL_NET_GDR_LEVEL is not set: PXB, or P2C from 2.29 on while
     * NCCL_NET_GDR_C2C is on ({@code c2c}; NCCL's default is on).
     */
    public static String defaultGdrLevel(String version, boolean c2c) {
        return c2c && compare(version, GDR_C2C_DEFAULT_SINCE) >= 0 ? "P2C" : "PXB";
    }

    /**
     * One reading of a GPU Direct RDMA distance line: the NCCL versions it holds for ({@code since} inclusive,
     * {@code until} exclusive, empty when still current) and the line in names ("SYS > PXB").
     */
    public record Reading(String since, Optional<String> until, String text) {

        /** "NCCL 2.12.0 up to 2.26.0" or "NCCL 2.29.0 and later". */
        public String versions() {
            return "NCCL " + since + until.map(u -> " up to " + u + " (exclusive)").orElse(" and later");
        }
    }

    /**
     * How "distance D REL T" reads in each NCCL version that prints the line's wording ({@code since} inclusive,
     * {@code until} exclusive, empty: still printed) when the log names no version. The threshold T is NCCL's default
     * ({@link #defaultGdrLevel}) unless NCCL_NET_GDR_LEVEL was set, whose value NCCL logs by name ("NCCL_NET_GDR_LEVEL set
     * by environment to PHB", {@code level}): the versions where T is that level's number are the candidates, and D is
     * read with each one's numbering. Versions that read the line alike are joined; one reading is an answer, several
     * mean the line is ambiguous without the version, none that no version printing this wording gives T that meaning.
     */
    public static List<Reading> readings(int distance, String relation, int threshold, String since, Optional<String> until,
                                         Optional<String> level, boolean c2c) {
        TreeSet<String> cuts = new TreeSet<>(NcclPathTypes::compare);
        cuts.add(since);
        cuts.add(GDR_C2C_DEFAULT_SINCE);
        TABLE.forEach(n -> {
            cuts.add(n.since);
            if (n.until != null) {
                cuts.add(n.until);
            }
        });
        until.ifPresent(cuts::add);
        List<String> bounds = new ArrayList<>(cuts.tailSet(since, true));
        until.ifPresent(u -> bounds.removeIf(b -> compare(b, u) >= 0));
        List<Reading> out = new ArrayList<>();
        for (int i = 0; i < bounds.size(); i++) {
            String from = bounds.get(i);
            Optional<String> to = i + 1 < bounds.size() ? Optional.of(bounds.get(i + 1)) : until;
            if (compare(from, TABLE.get(0).since) < 0) {
                continue;
            }
            List<String> names = numbering(from).names;
            String expected = level.orElse(defaultGdrLevel(from, c2c));
            if (threshold >= names.size() || !names.get(threshold).equals(expected) || distance < 0 || distance >= names.size()) {
                continue;
            }
            String text = names.get(distance) + " " + relation + " " + names.get(threshold);
            Reading last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.text.equals(text) && last.until.equals(Optional.of(from))) {
                out.set(out.size() - 1, new Reading(last.since, to, text));
            } else {
                out.add(new Reading(from, to, text));
            }
        }
        return List.copyOf(out);
    }

    /** NCCL's type for an nvidia-smi path: PHB and NODE are both "through the CPU" (PHB) to NCCL. */
    public static String ofSmi(SmiPath p) {
        return switch (p) {
            case X -> "LOC";
            case PIX -> "PIX";
            case PXB -> "PXB";
            case PHB, NODE -> "PHB";
            case SYS -> "SYS";
        };
    }

    /**
     * Reads "distance D > T" from a "GPU Direct RDMA Disabled" line as names for {@code version}:
     * ("8", "5", "2.27.5") → "PHB > PXB".
     */
    public static String decodeDistance(int distance, int threshold, String version) {
        return decodeDistance(distance, ">", threshold, version);
    }

    /** The same for any comparison NCCL printed: (4, "<=", 5, "2.27.5") → "PIX <= PXB" (an Enabled line). */
    public static String decodeDistance(int distance, String relation, int threshold, String version) {
        return name(distance, version) + " " + relation + " " + name(threshold, version);
    }

    /** Dotted version order: 2.27.5 &lt; 2.28.3. */
    public static int compareVersions(String a, String b) {
        return compare(a, b);
    }

    static int compare(String a, String b) {
        int[] x = parts(a);
        int[] y = parts(b);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Integer.compare(i < x.length ? x[i] : 0, i < y.length ? y[i] : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** "2.27.5+cuda12.9" → {2, 27, 5}: each dot-separated part's leading digits (no regex: it runs per device pair). */
    private static int[] parts(String v) {
        int dots = 0;
        for (int k = v.indexOf('.'); k >= 0; k = v.indexOf('.', k + 1)) {
            dots++;
        }
        int[] out = new int[dots + 1];
        int i = 0;
        for (int p = 0; p < out.length; p++) {
            int end = v.indexOf('.', i);
            end = end < 0 ? v.length() : end;
            int n = 0;
            int k = i;
            while (k < end && Character.isDigit(v.charAt(k))) {
                n = n * 10 + (v.charAt(k) - '0');
                k++;
            }
            if (k == i) {
                throw new NumberFormatException("not a version part: '" + v.substring(i, end) + "' in " + v);
            }
            out[p] = n;
            i = end + 1;
        }
        return out;
    }
}
