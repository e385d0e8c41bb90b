package io.nccldoctor.collectives.launch;

import io.nccldoctor.collectives.measure.Backend;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.reference.NcclDebugCapture;
import io.nccldoctor.core.Fact;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One native run in this process: NCCL's debug log captured to a folder, the backend opened, the plan measured, the
 * backend closed, the logs read. An NCCL error or a hang before the first size is the run's failure; one during the
 * sweep is in the result, with the sizes done before it.
 */
public final class NativeRun {

    /**
     * @param result  the measurement, when the backend opened
     * @param failure why it did not (an NCCL or CUDA error, a hang in initialisation)
     */
    public record Outcome(Fact<Measurement.Result> result, Fact<String> failure, String logsNote, Map<String, NcclLog> logs) {

        /** Whether the run failed: no result, an error in it, wrong data, or an InfiniBand completion error in a log. */
        public boolean failed() {
            return failure.isValue() || result.get().failure().isValue() || !result.get().asNcclTestsOutput().failures().isEmpty()
                    || logs.values().stream().anyMatch(l -> !l.ibErrors().isEmpty());
        }
    }

    private NativeRun() {
    }

    /**
     * @param env      this process's environment (a user's own NCCL_DEBUG_FILE wins)
     * @param progress told of each step before it starts
     */
    public static Outcome run(NativeLaunch launch, Measurement.Plan plan, Path logDir, Map<String, String> env, Consumer<String> progress) {
        NcclDebugCapture capture = NcclDebugCapture.plan(env, logDir);
        Fact<Measurement.Result> result;
        Fact<String> failure = Fact.absent("the backend opened");
        try {
            JnaBackend.setenv(capture.set());
            progress.accept("initialising NCCL on " + launch.gpusPerProcess() + " GPU(s)");
            try (JnaBackend backend = launch.open()) {
                result = Fact.of(new Measurement(backend, progress).run(plan));
            }
        } catch (Backend.Failure f) {
            result = Fact.absent("no result: " + f.getMessage());
            failure = Fact.of(f.getMessage());
        }
        return new Outcome(result, failure, capture.note(), capture.read());
    }
}
