package io.nccldoctor.reports.tune;

import io.nccldoctor.core.output.Marker;
import io.nccldoctor.core.output.OutputFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes what `tune` was asked to write, and says so in a line each. Both files follow the output rule of every verb
 * ({@link OutputFile}: replaced only when a first line carries the {@link Marker}, else with --force; atomic), readable
 * by all (NCCL reads the tuner file in every job, often as another user). The marker is a '#' comment line, which
 * NCCL's example tuner skips (plugin.c: a line whose first byte is '#') and YAML ignores.
 */
public final class TuneOutputs {

    private TuneOutputs() {
    }

    /** Refuses, before any work, a file the rule would refuse at the end. */
    public static void check(Path tunerFile, Path planFile, boolean force) {
        if (tunerFile != null) {
            OutputFile.check(tunerFile, force, "-o");
        }
        if (planFile != null) {
            OutputFile.check(planFile, force, "--verify-plan");
        }
    }

    /**
     * @param tunerFile the tuner configuration's path, or null
     * @param planFile  the verification plan's path, or null
     * @param planText  its text (rendered and checked before anything is written)
     * @return a line per file, for the terminal
     */
    public static List<String> write(Tuning t, Path tunerFile, Path planFile, String planText, boolean force) {
        List<String> lines = new ArrayList<>();
        String rows = t.rows().size() == 1 ? "1 row" : t.rows().size() + " rows";
        if (tunerFile == null) {
            lines.add("no tuner file written (-o nccl_tuner.conf writes one): it would hold " + (t.rows().isEmpty() ? "no row" : rows));
        } else {
            write(tunerFile, TunerFile.render(t), force, "-o");
            lines.add("wrote " + tunerFile + ": " + (t.rows().isEmpty() ? "no rows: nothing measured beats NCCL's own choice for real "
                    + "(do not load the example tuner with it: without a matching row it runs every collective on one channel)"
                    : rows + " (" + String.join("; ", t.rows().stream().map(TunerRow::csv).toList()) + ")"));
        }
        if (planFile != null) {
            write(planFile, planText, force, "--verify-plan");
            lines.add("wrote " + planFile + ": NCCL's defaults against " + tunerFile + ", interleaved; then:");
            lines.add("  nccl-doctor sweep " + planFile + " --results verify.jsonl && nccl-doctor compare verify.jsonl");
        }
        return lines;
    }

    private static void write(Path file, String text, boolean force, String flag) {
        OutputFile.writeShared(file, Marker.add(Marker.Style.HASH, text.getBytes(StandardCharsets.UTF_8), "tune " + flag), force, flag);
    }
}
