package io.nccldoctor.reports.cluster;

import io.nccldoctor.reports.Finding;
import java.util.List;
import java.util.Locale;

/**
 * The terminal form: the verdict first, then the findings, the drifting lines, the agreeing lines, the bandwidth and
 * what no node could say; about one screen for a uniform cluster, whatever its size (node lists are cut to a few
 * names: the files -o writes hold them all).
 */
public final class ClusterText {

    private static final int NAMES = 3;
    private static final int VALUE = 34;

    private ClusterText() {
    }

    public static String render(ClusterReport r) {
        StringBuilder s = new StringBuilder();
        s.append("nccl-doctor cluster: ").append(r.nodes().size()).append(r.nodes().size() == 1 ? " node" : " nodes").append('\n');
        s.append('\n').append(line(r.verdictLine())).append("\n\n");
        if (!r.findings().isEmpty()) {
            s.append("Findings (every node, evidence and remedy: -o cluster.html, .md or .json)\n");
            for (Finding f : r.findings()) {
                s.append(String.format(Locale.ROOT, "  %-5s %-26s %s%n", f.severity().label().toUpperCase(Locale.ROOT), f.code(), line(f.title())));
            }
            s.append('\n');
        }
        List<Lines> drifting = Lines.merge(r.drifting());
        if (!drifting.isEmpty()) {
            s.append(String.format(Locale.ROOT, "Drift%-35s %-" + VALUE + "s %s%n", "", "majority (nodes)", "odd nodes: value"));
            for (Lines l : drifting) {
                Row row = l.row();
                String majority = row.majority().isValue() ? cut(row.majority().get()) + " (" + row.majorityCount() + ")" : "no majority";
                StringBuilder odd = new StringBuilder();
                for (Row.Group g : row.odd()) {
                    odd.append(odd.length() == 0 ? "" : " · ").append(names(g.nodes())).append(": ").append(cut(g.value()));
                }
                s.append(String.format(Locale.ROOT, "  %-38s %-" + VALUE + "s %s%s%n", cut(l.label(), 38), majority, line(odd.toString()),
                        unknown(row)));
            }
            s.append('\n');
        }
        List<Lines> agreeing = Lines.merge(r.agreeing());
        if (!agreeing.isEmpty()) {
            s.append("Same on every node that knows it (").append(r.agreeing().size()).append(r.agreeing().size() == 1 ? " row" : " rows")
                    .append(")\n");
            for (Lines l : agreeing) {
                s.append(String.format(Locale.ROOT, "  %-38s %s%s%n", cut(l.label(), 38), cut(l.row().values().get(0).value(), 90),
                        unknown(l.row())));
            }
            s.append('\n');
        }
        bandwidth(s, r);
        List<Lines> none = Lines.merge(r.unknownEverywhere());
        if (!none.isEmpty()) {
            s.append("Unknown on every node\n");
            for (Lines l : none) {
                List<Row.Unknown> why = l.row().unknown();
                s.append("  ").append(line(l.label())).append(": ").append(cut(why.get(0).reason(), 90))
                        .append(why.size() > 1 ? " (and " + (why.size() - 1) + " other reason" + (why.size() > 2 ? "s" : "") + ")" : "").append('\n');
            }
            s.append('\n');
        }
        long notes = r.notes().size() - r.unknownEverywhere().size();
        if (notes > 0) {
            s.append(notes).append(notes == 1 ? " note" : " notes").append(" on what the table leaves out: in the -o forms\n");
        }
        return s.toString();
    }

    private static void bandwidth(StringBuilder s, ClusterReport r) {
        if (r.bandwidth().isEmpty()) {
            return;
        }
        s.append("Bandwidth (busbw GB/s; slow: below median − ").append(num(r.outlierK()))
                .append(" × max(1.4826 × MAD, 1 % of the median))\n");
        for (Spread b : r.bandwidth()) {
            String verdict;
            if (!b.thresholdGBps().isValue()) {
                verdict = "not judged: " + b.thresholdGBps().reason();
            } else if (b.below().isEmpty()) {
                verdict = "threshold " + num2(b.thresholdGBps().get()) + ", none below";
            } else {
                StringBuilder slow = new StringBuilder();
                for (int i = 0; i < b.below().size() && i < NAMES; i++) {
                    Sample x = b.below().get(i);
                    slow.append(i == 0 ? "" : ", ").append(x.host()).append(' ').append(num2(x.busBwGBps()));
                }
                if (b.below().size() > NAMES) {
                    slow.append(" +").append(b.below().size() - NAMES).append(" more");
                }
                verdict = "threshold " + num2(b.thresholdGBps().get()) + ", " + b.below().size() + " below: " + slow;
            }
            s.append(String.format(Locale.ROOT, "  %-30s median %s over %d %s; %s%n", cut(b.label(), 30), num2(b.medianGBps()), b.nodeCount(),
                    b.nodeCount() == 1 ? "node" : "nodes", line(verdict)));
        }
        s.append('\n');
    }

    private static String unknown(Row r) {
        int n = r.unknownCount();
        return n == 0 ? "" : "  (unknown on " + n + ")";
    }

    private static String names(List<String> nodes) {
        String shown = String.join(", ", nodes.subList(0, Math.min(NAMES, nodes.size())));
        return nodes.size() > NAMES ? shown + " +" + (nodes.size() - NAMES) + " more" : shown;
    }

    private static String cut(String v) {
        return cut(v, VALUE - 8);
    }

    private static String cut(String v, int max) {
        String one = line(v);
        return one.length() <= max ? one : one.substring(0, max - 1) + "…";
    }

    /** Host, device and log strings may hold newlines or escape sequences; a terminal line must not. */
    static String line(String v) {
        return v == null ? "" : v.replaceAll("[\\p{Cntrl}\\u0080-\\u009f]", " ");
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
