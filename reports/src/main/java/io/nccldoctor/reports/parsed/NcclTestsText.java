package io.nccldoctor.reports.parsed;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.util.Locale;

/** The human form of `parse nccl-tests`: versions, the table per placement, the footer. */
public final class NcclTestsText {

    private NcclTestsText() {
    }

    public static String render(NcclTestsOutput r, String file) {
        StringBuilder out = new StringBuilder(r.test().orElse("nccl-tests") + " from " + file + ": nccl-tests " + r.testsVersion().orElse("?")
                + ", NCCL headers " + r.ncclHeaders().orElse("?") + ", library " + r.ncclLibrary().orElse("?") + ", "
                + r.devices().size() + " device lines\n");
        String check = r.errorColumn() ? "error" : "#wrong";
        out.append(String.format(Locale.ROOT, "  %14s %12s %8s  %-37s  %s", "", "", "", "out-of-place", "in-place").stripTrailing())
                .append('\n');
        out.append(String.format(Locale.ROOT, "  %14s %12s %8s  %10s %8s %8s %8s  %10s %8s %8s %8s%n", "size (B)", "count", "type",
                "time (us)", "algbw", "busbw", check, "time (us)", "algbw", "busbw", check));
        for (NcclTestsOutput.Row row : r.rows()) {
            out.append(String.format(Locale.ROOT, "  %14d %12d %8s  %s  %s%n", row.sizeBytes(), row.count(), row.type(),
                    placement(row.outOfPlace(), r.errorColumn()),
                    row.inPlace().map(p -> placement(p, r.errorColumn())).orElse(String.format(Locale.ROOT, "%37s", "N/A"))));
        }
        if (r.peakBusBw().isValue()) {
            NcclTestsOutput.Row p = r.peakBusBw().get();
            out.append(String.format(Locale.ROOT, "  peak bus bandwidth: %.2f GB/s at %,d bytes (out-of-place)%n", p.outOfPlace().busBwGBps(),
                    p.sizeBytes()));
        }
        out.append("  avg bus bandwidth: ").append(r.avgBusBwGBps().map(v -> v + " GB/s").describe()).append("; out of bounds: ")
                .append(r.outOfBounds().describe()).append("; NCCL INFO/WARN lines skipped: ").append(r.ncclInfoLines()).append('\n');
        r.failures().forEach(f -> out.append("FAILED: ").append(f).append('\n'));
        r.notUnderstood().forEach(s -> out.append("not understood: ").append(s).append('\n'));
        return out.toString();
    }

    private static String placement(NcclTestsOutput.Placement p, boolean errorColumn) {
        String check = errorColumn ? p.maxError().map(String::valueOf).orElse("N/A") : p.wrong().map(String::valueOf).orElse("N/A");
        return String.format(Locale.ROOT, "%10.2f %8.2f %8.2f %8s", p.timeUs(), p.algBwGBps(), p.busBwGBps(), check);
    }
}
