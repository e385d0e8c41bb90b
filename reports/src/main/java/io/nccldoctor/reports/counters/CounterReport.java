package io.nccldoctor.reports.counters;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.CounterWindow;
import io.nccldoctor.gdr.ForegroundCommand;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.ExitCodes;
import io.nccldoctor.reports.Finding;
import java.util.List;

/**
 * {@code counters}: one snapshot (kind "counters"), or the deltas of a run with their findings (kind "counterDelta").
 * Fields that do not apply are left out of the JSON.
 *
 * @param source   where the counters were read: "live", "capture DIR"
 * @param snapshot the counters as read (kind counters)
 * @param delta    what they did between two snapshots (kind counterDelta)
 * @param command  the command run between them (--during)
 * @param exitCode 1 on an error-level finding or a command that failed, else 0
 */
public record CounterReport(int schemaVersion, String kind, String source, CounterSnapshot snapshot, CounterDelta delta,
                            ForegroundCommand.Result command, List<Finding> findings, List<Evaluation.NotChecked> notChecked,
                            List<String> passed, int exitCode) {

    public static CounterReport of(String source, CounterSnapshot s) {
        return new CounterReport(Snapshot.SCHEMA_VERSION, "counters", source, s, null, null, List.of(), List.of(), List.of(),
                ExitCodes.OK);
    }

    public static CounterReport of(String source, CounterWindow w, Evaluation e) {
        ForegroundCommand.Result command = w.command().orElse(null);
        int exit = command != null && command.failed() ? ExitCodes.FINDINGS : e.exitCode();
        return new CounterReport(Snapshot.SCHEMA_VERSION, "counterDelta", source, null, w.delta(), command, e.findings(),
                e.notChecked(), e.passed(), exit);
    }
}
