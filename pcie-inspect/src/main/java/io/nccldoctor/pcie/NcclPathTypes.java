package io.nccldoctor.pcie;

import java.util.List;

/**
 * NCCL's PATH_* types and their numbers, which changed across versions (reference/nccl-internals.md §3, read from
 * src/graph/topo.h of each tag). The one place that knows the numbering: a log line "distance 8 > 5" means
 * PHB > PXB on 2.27.5+, but "distance 7 > 4" means SYS > PXB on 2.12–2.25.
 */
public final class NcclPathTypes {

    /** Names in numeric order (index = PATH_* value), with the first NCCL version that used this numbering. */
    private record Numbering(String since, String until, List<String> names) {
    }

    private static final List<Numbering> TABLE = List.of(
            new Numbering("2.7.0", "2.8.0", List.of("LOC", "NVL", "PIX", "PXB", "PHB", "SYS", "NET")),
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

    private NcclPathTypes() {
    }

    private static Numbering numbering(String version) {
        for (Numbering n : TABLE) {
            if (compare(version, n.since) >= 0 && (n.until == null || compare(version, n.until) < 0)) {
                return n;
            }
        }
        throw new IllegalArgumentException("NCCL " + version + " predates the path table (2.7)");
    }

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
        java.util.List<Integer> out = new java.util.ArrayList<>();
        int i = 0;
        while (i <= v.length()) {
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
            out.add(n);
            i = end + 1;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
