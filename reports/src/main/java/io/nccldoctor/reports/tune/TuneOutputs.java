package io.nccldoctor.reports.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes what `tune` was asked to write, and says so in a line each. */
public final class TuneOutputs {

    private TuneOutputs() {
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
            OwnedFile.write(tunerFile, TunerFile.render(t), force, "-o");
            lines.add("wrote " + tunerFile + ": " + (t.rows().isEmpty() ? "no rows: nothing measured beats NCCL's own choice for real "
                    + "(do not load the example tuner with it: without a matching row it runs every collective on one channel)"
                    : rows + " (" + String.join("; ", t.rows().stream().map(TunerRow::csv).toList()) + ")"));
        }
        if (planFile != null) {
            OwnedFile.write(planFile, planText, force, "--verify-plan");
            lines.add("wrote " + planFile + ": NCCL's defaults against " + tunerFile + ", interleaved; then:");
            lines.add("  nccl-doctor sweep " + planFile + " -o verify.jsonl && nccl-doctor compare verify.jsonl");
        }
        return lines;
    }
}
