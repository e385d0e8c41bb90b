package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Layouts no public output shows (fixtures/public/README.md says so), written here with the printf formats of NVIDIA/
 * nccl-tests src/util.cu at v2.19.6 (writeResultHeader, writeBenchmarkLinePreamble, writeBenchmarkLineBody,
 * writePerIterReport, writeTimestamp): synthetic text, real formats.
 */
class NcclTestsLayoutTest {

    /** writeResultHeader's two header lines without -I, %*s with 19 for the timestamp label when -S is on. */
    static List<String> header(boolean stamps, String time) {
        String label = stamps ? "timestamp" : "";
        String format = stamps ? "%Y-%m-%d %H:%M:%S" : "";
        int pad = stamps ? 19 : 0;
        return List.of(
                String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          ", "", "", "", "", ""),
                String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " + (pad > 0 ? "%" + pad + "s" : "%s"),
                        "size", "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong", time, "algbw", "busbw", "#wrong", label),
                String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " + (pad > 0 ? "%" + pad + "s" : "%s"),
                        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", format));
    }

    /** writeBenchmarkLinePreamble + two writeBenchmarkLineBody calls (+ writeTimestamp "%21s" after the in-place body). */
    static String row(long size, String redop, String[] out, String[] in, String stamp) {
        return String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", size, size / 4, "float", redop, "-1")
                + String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", (Object[]) out)
                + String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", (Object[]) in)
                + (stamp == null ? "" : String.format(Locale.ROOT, "%21s", stamp));
    }

    static NcclTestsOutput parse(List<String> lines) {
        return NcclTestsOutput.parse(lines, "synthetic.txt");
    }

    /**
     * The field report's misread: with -S each row ends in a date and a time, and a reader that guessed the lead columns
     * from the cell count read algbw (36.52) as the peak busbw where the run reached 73.03.
     */
    @Test
    void timestampColumnsAreReadNotShifted() {
        List<String> text = new ArrayList<>(header(true, "time"));
        text.add(row(536870912, "sum", new String[] {"14698", "36.52", "73.03", "0"}, new String[] {"14712", "36.49", "72.98", "0"},
                "2025-11-03 16:40:57"));
        text.add(row(1073741824, "sum", new String[] {"29476", "36.43", "72.85", "0"}, new String[] {"29480", "36.42", "72.84", "0"},
                "2025-11-03 16:40:59"));
        NcclTestsOutput out = parse(text);
        assertThat(out.columns()).endsWith("timestamp");
        assertThat(out.rows()).hasSize(2);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(73.03);
        NcclTestsOutput.Row first = out.rows().get(0);
        assertThat(first.root().get()).isEqualTo(-1);
        assertThat(first.inPlace().get().busBwGBps()).isEqualTo(72.98);
        assertThat(first.timestamp().get()).isEqualTo("2025-11-03 16:40:57");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.warnings()).isEmpty();
    }

    @Test
    void timestampRowsWithoutTheirHeaderAreToldFromTheirCells() {
        NcclTestsOutput out = parse(List.of(row(536870912, "sum", new String[] {"14698", "36.52", "73.03", "0"},
                new String[] {"14712", "36.49", "72.98", "0"}, "2025-11-03 16:40:57")));
        assertThat(out.rows()).singleElement().satisfies(r -> {
            assertThat(r.outOfPlace().busBwGBps()).isEqualTo(73.03);
            assertThat(r.timestamp().get()).isEqualTo("2025-11-03 16:40:57");
        });
        assertThat(out.warnings()).singleElement().asString().startsWith("no column header line");
    }

    /** A -S row under a header without the timestamp column: the cell counts disagree, so the row is refused. */
    @Test
    void aRowWithMoreCellsThanItsHeaderIsRefusedNotShifted() {
        List<String> text = new ArrayList<>(header(false, "time"));
        text.add(row(536870912, "sum", new String[] {"14698", "36.52", "73.03", "0"}, new String[] {"14712", "36.49", "72.98", "0"},
                "2025-11-03 16:40:57"));
        NcclTestsOutput out = parse(text);
        assertThat(out.rows()).isEmpty();
        assertThat(out.notUnderstood()).singleElement().asString().contains("15 cells where the columns take 13");
    }

    /** -I 1: writeResultHeader's per-iteration header, and writePerIterReport's four "%7s" cells after each body. */
    @Test
    void perIterationColumns() {
        String head = String.format(Locale.ROOT,
                "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %s",
                "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%",
                "time", "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%", "");
        String line = String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", 1048576L, 262144L, "float", "sum", "-1")
                + String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", "20.10", "52.17", "97.82", "0")
                + String.format(Locale.ROOT, "  %7s  %7s  %7s  %7s", "19.80", "24.61", "23.90", "4.12")
                + String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", "19.90", "52.69", "98.80", "0")
                + String.format(Locale.ROOT, "  %7s  %7s  %7s  %7s", "19.70", "22.05", "21.99", "2.50");
        NcclTestsOutput out = parse(List.of("# Per-Iteration Report: CUDA event timing; i_* uses max over process rows ", head, line));
        NcclTestsOutput.Row r = out.rows().get(0);
        assertThat(r.outOfPlace().busBwGBps()).isEqualTo(97.82);
        assertThat(r.outOfPlace().perIteration().get()).isEqualTo(new NcclTestsOutput.PerIteration(19.80, 24.61, 23.90, 4.12));
        assertThat(r.inPlace().get().timeUs()).isEqualTo(19.90);
        assertThat(r.inPlace().get().perIteration().get().cvPercent()).isEqualTo(2.50);
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.warnings()).singleElement().asString().startsWith("mode lines without a '# nThread' parameters line");
    }

    @Test
    void cpuTimeColumnsAreFlagged() {
        List<String> text = new ArrayList<>(header(false, "cputime"));
        text.add(row(1048576, "sum", new String[] {"3.10", "52.17", "97.82", "0"}, new String[] {"3.05", "52.69", "98.80", "0"}, null));
        NcclTestsOutput out = parse(text);
        assertThat(out.rows().get(0).outOfPlace().timeUs()).isEqualTo(3.10);
        assertThat(out.warnings()).singleElement().asString().contains("CPU time (-C 1");
    }

    @Test
    void aColumnNoReleasePrintsIsReportedAndSkippedByPosition() {
        String head = "#       size         count      type   redop    root     time   algbw   busbw #wrong  i_p50     time   algbw   busbw #wrong  i_p50";
        NcclTestsOutput out = parse(List.of(head,
                "     1048576        262144     float     sum      -1    20.10   52.17   97.82      0  19.00    19.90   52.69   98.80      0  18.50"));
        assertThat(out.rows().get(0).outOfPlace().busBwGBps()).isEqualTo(97.82);
        assertThat(out.rows().get(0).inPlace().get().busBwGBps()).isEqualTo(98.80);
        assertThat(out.warnings()).singleElement().asString().startsWith("column i_p50 not printed by any nccl-tests release");
    }

    /** The footer prints an int; a count past the 64-bit range is a garbled paste, said so, never an exception. */
    @Test
    void hugeNumbersAreFactsNotExceptions() {
        List<String> text = new ArrayList<>(header(false, "time"));
        text.add("99999999999999999999999  262144     float     sum      -1    20.10   52.17   97.82      0    19.90   52.69   98.80      0");
        text.add("     1048576        262144     float     sum      -1    20.10   52.17   97.82  99999999999999999999999    19.90   52.69   98.80      0");
        text.add("# Out of bounds values : 99999999999999999999999 FAILED");
        text.add("# nThread 99999999999 nGpus 1 minBytes 99999999999999999999999 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0");
        assertThatCode(() -> parse(text)).doesNotThrowAnyException();
        NcclTestsOutput out = parse(text);
        assertThat(out.outOfBounds().isError()).isTrue();
        assertThat(out.outOfBounds().reason()).contains("past the 64-bit range");
        assertThat(out.failures()).contains("the footer says 'Out of bounds values : ? FAILED'");
        assertThat(out.notUnderstood()).hasSize(1).first().asString().contains("past the 64-bit range");
        assertThat(out.rows()).singleElement().satisfies(r -> assertThat(r.outOfPlace().wrong().isError()).isTrue());
        NcclTestsParameters p = out.furtherRuns().get(0).parameters().get(0); // a parameters line after the footer starts another run
        assertThat(p.threads().isError()).isTrue();
        assertThat(p.minBytes().isError()).isTrue();
        NcclTestsOutput footerOnly = parse(List.of("# Out of bounds values : 99999999999999999999999 FAILED"));
        assertThat(footerOnly.outOfBounds().isError()).as("a garbled footer is still a footer").isTrue();
    }

    @Test
    void modeLinesErrorsAndRepeatedRuns() {
        List<String> text = new ArrayList<>();
        text.add("# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 2 unalign: 0");
        text.add("# Blocking Enabled: wait and barrier after each inner iteration (-m) ");
        text.add("# Parallel Init Enabled: threads call into NcclInitRank concurrently ");
        text.add("#  Rank  0 Group  0 Pid   4242 on node-a device  0 [0000:18:00] NVIDIA H100");
        text.addAll(header(false, "time"));
        text.add(row(8, "sum", new String[] {"20.10", "0.00", "0.00", "0"}, new String[] {"19.90", "0.00", "0.00", "0"}, null));
        text.add("#  Rank  0 Group  0 Pid   4243 on node-b device  0 [0000:18:00] NVIDIA H100");
        text.addAll(header(false, "time"));
        text.add(row(16, "sum", new String[] {"20.10", "0.00", "0.00", "0"}, new String[] {"19.90", "0.00", "0.00", "0"}, null));
        text.add("# GPU memory usage     : Initialization 1.20 GB | User-Allocated 64 B | Collective 0 B | Total  1.20 GB");
        text.add("# error: unhandled system error (run with NCCL_DEBUG=INFO for details)");
        NcclTestsOutput out = parse(text);
        NcclTestsParameters p = out.parameters().get(0);
        assertThat(p.graphLaunches().get()).isEqualTo(2);
        assertThat(p.unalign().get()).isZero();
        assertThat(p.modes()).containsExactly("Blocking Enabled: wait and barrier after each inner iteration (-m)",
                "Parallel Init Enabled: threads call into NcclInitRank concurrently");
        assertThat(out.rows()).hasSize(1); // the second device line and table are another run's, read on their own
        assertThat(out.warnings()).anyMatch(w -> w.startsWith("1 further run in this text, starting at line 9"));
        NcclTestsOutput second = out.furtherRuns().get(0);
        assertThat(second.rows()).singleElement().satisfies(r -> assertThat(r.sizeBytes()).isEqualTo(16));
        assertThat(second.errors()).containsExactly("unhandled system error (run with NCCL_DEBUG=INFO for details)");
        assertThat(second.failures()).containsExactly("nccl-tests printed NCCL's last error: unhandled system error (run with NCCL_DEBUG=INFO for details)");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(second.notUnderstood()).isEmpty();
        assertThat(second.warnings()).contains("mode lines without a '# nThread' parameters line: "
                + "GPU memory usage     : Initialization 1.20 GB | User-Allocated 64 B | Collective 0 B | Total  1.20 GB");
    }

    /** An N/A that neither "validation: 0" nor the in-place rule of alltoall/sendrecv explains is said so, and warned. */
    @Test
    void anUnexplainedNotApplicableCellIsWarned() {
        List<String> text = new ArrayList<>();
        text.add("# Collective test starting: all_reduce_perf");
        text.add("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 0");
        text.addAll(header(false, "time"));
        text.add(row(8, "sum", new String[] {"20.10", "0.00", "0.00", "N/A"}, new String[] {"19.90", "0.00", "0.00", "0"}, null));
        NcclTestsOutput out = parse(text);
        assertThat(out.rows().get(0).outOfPlace().wrong().reason()).startsWith("N/A although the header says validation: 1");
        assertThat(out.warnings()).singleElement().asString().startsWith("N/A in an out-of-place #wrong cell although");
    }

    /** mpirun --tag-output lines indented by a Markdown list (corpus file nccl-tests-h100-p5-eks-mpi-tag-elided-indented.txt). */
    @Test
    void indentedLauncherPrefixes() {
        NcclTestsOutput out = parse(List.of(
                "   [1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "   [1,0]<stdout>:  2147483648     536870912     float     sum      -1   9197.5  233.49  437.79      0   9195.2  233.54  437.89      0"));
        assertThat(out.rows()).singleElement().satisfies(r -> assertThat(r.outOfPlace().busBwGBps()).isEqualTo(437.79));
        assertThat(out.notUnderstood()).isEmpty();
    }
}
