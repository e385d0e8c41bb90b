package io.nccldoctor.collectives.sweep;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.coll.ByteSizes;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.launch.CommIdPolicy;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.launch.NativeLaunch;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.measure.Backend;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The work of one sweep child: every collective of the request through NCCL on this process's GPUs, one result line
 * per collective, written and flushed as each finishes (the parent kills a child past its limit and keeps what was
 * written). In a child of several processes only rank 0 writes.
 */
public final class SweepChild {

    private final ChildRequest request;
    private final Path result;
    private final LaunchEnv launch;

    private SweepChild(ChildRequest request, Path result, LaunchEnv launch) {
        this.request = request;
        this.result = result;
        this.launch = launch;
    }

    /**
     * @param gpus how many GPUs the CUDA driver sees, or why that is unknown
     * @return the exit code: 0 when every collective ran
     */
    public static int run(ChildRequest r, Libraries libs, Fact<Integer> gpus, Map<String, String> env, Path result) throws IOException {
        LaunchEnv launch = LaunchEnv.from(env);
        SweepChild child = new SweepChild(r, result, launch);
        List<String> missing = Readiness.missing(libs, gpus, (launch.localRank() + 1) * r.gpus(), env);
        String libnccl = libs.nccl().loaded().map(c -> c.realPath()).orElse(null);
        String version = libs.nccl().version().orElse(null);
        if (!missing.isEmpty()) {
            for (String c : r.collectives()) {
                child.line(new ChildLine(c, version, libnccl, null, null, "cannot run here: " + String.join("; ", missing)));
            }
            return 1;
        }
        boolean commId = env.get("NCCL_COMM_ID") != null && CommIdPolicy.commIdSafe(version);
        if (launch.multiProcess() && !commId) {
            for (String c : r.collectives()) {
                child.line(new ChildLine(c, version, libnccl, null, null, "a child of several processes (" + launch.source() + ") needs "
                        + "NCCL_COMM_ID=HOST:PORT in the plan's env, with NCCL " + version + ": " + CommIdPolicy.why(version)));
            }
            return 1;
        }
        NativeLaunch nl = new NativeLaunch(libs.cudaDriver().loaded().get().realPath(), libnccl, r.gpus(), launch, Optional.empty(), commId,
                Duration.ofSeconds(r.timeoutSeconds()));
        int code = 0;
        for (String c : r.collectives()) {
            code |= child.collective(c, nl, libnccl, version);
        }
        return code;
    }

    private int collective(String c, NativeLaunch nl, String libnccl, String version) throws IOException {
        Measurement.Plan plan = new Measurement.Plan(Collective.parse(c), DataType.parse(request.dtype()), request.op(), 0,
                ByteSizes.parse(request.minBytes(), "-b"), ByteSizes.parse(request.maxBytes(), "-e"), request.stepFactor(), request.warmup(),
                request.iters(), request.check() > 0, Measurement.Conditioning.NCCL_TESTS, 0, nl.timeout());
        try (JnaBackend b = nl.open()) {
            Measurement.Result res = new Measurement(b).run(plan);
            line(new ChildLine(c, res.ncclVersion(), libnccl, res.worldSize(), res.sizes().stream().map(Measurement.SizeResult::row).toList(),
                    res.failure().isValue() ? res.failure().get() : null));
            return res.failure().isValue() ? 1 : 0;
        } catch (Backend.Failure f) {
            line(new ChildLine(c, version, libnccl, null, null, f.getMessage()));
            return 1;
        }
    }

    private void line(ChildLine l) throws IOException {
        if (launch.rank() != 0) {
            return;
        }
        Files.writeString(result, Json.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(l) + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
