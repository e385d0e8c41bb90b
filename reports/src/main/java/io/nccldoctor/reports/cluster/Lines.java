package io.nccldoctor.reports.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The drift table as people read it: rows of one attribute that say the same thing (every HCA on the same firmware,
 * or the same three nodes off it on every HCA) merged into one line. The JSON form keeps every row.
 *
 * @param subjects the merged rows' subjects, in table order ("" for a node-wide attribute)
 * @param row      the first of them, standing for all
 */
public record Lines(String attribute, List<String> subjects, Row row) {

    /** Rows merged where attribute, status, majority, value groups and unknown count are all equal. */
    public static List<Lines> merge(List<Row> rows) {
        Map<List<Object>, Lines> out = new LinkedHashMap<>();
        for (Row r : rows) {
            List<Object> key = List.of(r.attribute(), r.status(), r.majority().describe(),
                    r.status() == Row.Status.AGREES ? r.values().get(0).value() : r.values(), r.unknownCount());
            Lines l = out.get(key);
            if (l == null) {
                out.put(key, new Lines(r.attribute(), new ArrayList<>(List.of(r.subject())), r));
            } else {
                l.subjects().add(r.subject());
            }
        }
        return out.values().stream().map(l -> new Lines(l.attribute(), List.copyOf(l.subjects()), l.row())).toList();
    }

    /** "mlx5_0", "mlx5_0, mlx5_1", or "mlx5_0 … mlx5_9 (10)"; "" for a node-wide attribute. */
    public String subjectText() {
        if (subjects.size() == 1) {
            return subjects.get(0);
        }
        return subjects.size() <= 3 ? String.join(", ", subjects)
                : subjects.get(0) + " … " + subjects.get(subjects.size() - 1) + " (" + subjects.size() + ")";
    }

    /** "NIC firmware mlx5_0 … mlx5_9 (10)". */
    public String label() {
        String s = subjectText();
        return s.isEmpty() ? attribute : attribute + " " + s;
    }

    /** The attributes of some rows with how many subjects each: "NVIDIA driver, NIC firmware ×10". */
    public static String attributes(List<Row> rows) {
        Map<String, Integer> count = new LinkedHashMap<>();
        rows.forEach(r -> count.merge(r.attribute(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        count.forEach((a, n) -> parts.add(n == 1 ? a : a + " ×" + n));
        return String.join(", ", parts);
    }

    public Lines {
        Objects.requireNonNull(row);
    }
}
