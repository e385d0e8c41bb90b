package io.nccldoctor.reports.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of the tuner configuration: comment lines that say where it comes from and what it applies to, then the
 * rows. NCCL's example reads it line by line with fgets into 256 bytes (plugin.c MAX_LINE_LENGTH), skips a line whose
 * first byte is '#' or '\n', and parses anything else as a row: so every line here is at most {@value #MAX_LINE}
 * characters (a longer comment would be cut and its tail read as a row), every comment starts in the first column, no
 * line is blank but for its newline, and lines end in '\n' alone. The first line carries the marker by which `tune`
 * recognises a file it may replace.
 *
 * <p>Channels: NVIDIA's example (plugin.c of 2.27.5 to 2.29.7 and master at 5067397c) sets {@code *nChannels = 1}
 * before matching and only overwrites it from a row whose channels is not -1, and NCCL (enqueue.cc ncclGetAlgoInfo)
 * keeps NCCL's own count only when the tuner leaves 0. So with that plugin a row with -1, and every collective no row
 * matches, runs on one channel; ROCm's copy was changed to 0 for that reason (ROCm/rccl#1985).
 */
final class TunerFile {

    /** Marker of the first line: a file that starts so was written by `tune` and may be replaced. */
    static final String MARKER = "# nccl-doctor tune";

    /** fgets into char[256] reads at most 255 bytes, newline included; kept well below for paths that vary. */
    static final int MAX_LINE = 200;

    private TunerFile() {
    }

    static String render(Tuning t) {
        List<String> lines = new ArrayList<>();
        lines.add(MARKER + ": rows for NCCL's example tuner plugin (NCCL_TUNER_PLUGIN, NCCL_TUNER_CONFIG_FILE=this file)");
        lines.add("# NCCL " + t.ncclVersion().orElse("version not recorded") + "; " + shapes(t));
        for (String in : t.inputs()) {
            lines.add(fit("# from " + in));
        }
        lines.add(String.format(Locale.ROOT, "# a row: busbw above x%.2f of NCCL's own choice (95 %% interval), p below %s, %d runs or more",
                1 + t.thresholds().minGain(), t.thresholds().alpha(), t.thresholds().minSamples()));
        lines.add("# " + TunerRow.COLUMNS);
        if (t.rows().isEmpty()) {
            lines.add("# no rows: nothing measured beats NCCL's own choice for real; without rows NCCL's example tuner still");
            lines.add("# runs every collective on one channel, so do not load the plugin with this file");
        } else {
            lines.add("# channels -1: NVIDIA's example gives such rows, and sizes no row covers, one channel unless its");
            lines.add("# pluginGetCollInfo starts from *nChannels = 0 (docs/tune.md); check with --verify-plan");
            for (Shape s : shapesOf(t)) {
                lines.add("# " + s.collective() + " on " + s.ranks() + " ranks, " + s.nodes() + (s.nodes() == 1 ? " node" : " nodes"));
                t.rows().stream().filter(r -> r.collective().equals(s.collective()) && r.nRanks() == s.ranks() && r.nNodes() == s.nodes())
                        .forEach(r -> lines.add(r.csv()));
            }
        }
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(clean(l)).append('\n');
        }
        return b.toString();
    }

    private record Shape(String collective, int ranks, int nodes) {
    }

    private static List<Shape> shapesOf(Tuning t) {
        List<Shape> out = new ArrayList<>();
        t.rows().forEach(r -> {
            Shape s = new Shape(r.collective(), r.nRanks(), r.nNodes());
            if (!out.contains(s)) {
                out.add(s);
            }
        });
        return out;
    }

    /** "1 node, 2 ranks" for each shape measured, as the rows' nNodes and nRanks columns match them. */
    private static String shapes(Tuning t) {
        List<String> out = new ArrayList<>();
        for (Tuning.Shape s : t.shapes()) {
            String one = s.nodes() + (s.nodes() == 1 ? " node, " : " nodes, ") + s.ranks() + " ranks";
            if (!out.contains(one)) {
                out.add(one);
            }
        }
        return fit(out.isEmpty() ? "no shape measured" : String.join("; ", out) + " (rows match only these)");
    }

    /** A comment cut to the line limit, its end kept ("…" marks the cut). */
    static String fit(String comment) {
        if (comment.length() <= MAX_LINE) {
            return comment;
        }
        return comment.substring(0, 40) + "..." + comment.substring(comment.length() - (MAX_LINE - 43));
    }

    /**
     * Printable ASCII only: a newline or carriage return in a path would end the comment early, and a character of
     * several UTF-8 bytes would count more than once against fgets' 255.
     */
    private static String clean(String line) {
        StringBuilder b = new StringBuilder(line.length());
        line.chars().forEach(c -> b.append(c < 0x20 || c > 0x7e ? '?' : (char) c));
        return b.toString();
    }
}
