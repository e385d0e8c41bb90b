package io.nccldoctor.reports.parsed;

import io.nccldoctor.gdr.PerftestOutput;
import java.util.Locale;

/** The human form of `parse perftest`: header, rows, warnings and errors. */
public final class PerftestText {

    private PerftestText() {
    }

    public static String render(PerftestOutput p, String file) {
        StringBuilder out = new StringBuilder(p.test().orElse("perftest (no title)") + " from " + file
                + (p.gpu().isValue() ? ", GPU memory of " + p.gpu().get() : ", host memory") + "\n");
        p.header().forEach((k, v) -> out.append("  ").append(k).append(": ").append(v).append('\n'));
        if (!p.rows().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  %12s %12s %14s %14s%n", "bytes", "iterations", "peak " + p.unit(), "average " + p.unit()));
            p.rows().forEach(r -> out.append(String.format(Locale.ROOT, "  %12d %12d %14.2f %14.2f%n", r.bytes(), r.iterations(), r.peak(), r.average())));
        }
        p.warnings().forEach(w -> out.append("warning: ").append(w).append('\n'));
        p.errors().forEach(e -> out.append("error: ").append(e).append('\n'));
        return out.toString();
    }
}
