package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.measure.Backend;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.sweep.ChildLine;
import io.nccldoctor.collectives.sweep.ChildRequest;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.GpuProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The child a sweep starts for one environment and library: every collective of the request through NCCL on this
 * process's GPUs, one result line per collective, written and flushed as each finishes. Not for people: `sweep`
 * starts it with the environment the point needs.
 */
@Command(name = "sweep-child", hidden = true, description = "Internal: one child of `nccl-doctor sweep`.")
final class SweepChildCommand implements Callable<Integer> {

    @Option(names = "--request", required = true)
    Path request;

    @Option(names = "--result", required = true)
    Path result;

    @Override
    public Integer call() throws IOException {
        ChildRequest r;
        try {
            r = Json.mapper().readValue(request.toFile(), ChildRequest.class);
        } catch (IOException e) {
            throw new InputException(request + ": not a sweep request (" + e.getMessage() + ")", e);
        }
        Host host = HostOptions.liveHost();
        Libraries libs = new LibrariesProbe().run(host);
        List<String> missing = RunCommand.missingPieces(libs, new GpuProbe().run(host));
        String libnccl = libs.nccl().loaded().isValue() ? libs.nccl().loaded().get().realPath() : null;
        String version = libs.nccl().version().orElse(null);
        if (!missing.isEmpty()) {
            for (String c : r.collectives()) {
                line(new ChildLine(c, version, libnccl, null, null, "cannot run here: " + String.join("; ", missing)));
            }
            return 1;
        }
        LaunchEnv launch = LaunchEnv.from(System.getenv());
        int[] devices = new int[r.gpus()];
        for (int i = 0; i < devices.length; i++) {
            devices[i] = launch.localRank() * r.gpus() + i;
        }
        String libcuda = libs.cudaDriver().loaded().get().realPath();
        int code = 0;
        for (String c : r.collectives()) {
            Measurement.Plan plan = new Measurement.Plan(Collective.parse(c), DataType.parse(r.dtype()), r.op(), 0,
                    RunCommand.bytes(r.minBytes(), "-b"), RunCommand.bytes(r.maxBytes(), "-e"), r.stepFactor(), r.warmup(), r.iters(),
                    r.check() > 0, Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(r.timeoutSeconds()));
            boolean commId = System.getenv("NCCL_COMM_ID") != null && version != null
                    && io.nccldoctor.collectives.launch.CommIdPolicy.commIdSafe(version);
            if (launch.multiProcess() && !commId) {
                line(new ChildLine(c, version, libnccl, null, null, "a child of several processes (" + launch.source() + ") needs "
                        + "NCCL_COMM_ID=HOST:PORT in the plan's env, with NCCL " + (version == null ? "?" : version)
                        + (version == null ? "" : ": " + io.nccldoctor.collectives.launch.CommIdPolicy.why(version))));
                code = 1;
                continue;
            }
            try (JnaBackend b = launch.multiProcess()
                    ? JnaBackend.multiProcess(libcuda, libnccl, devices, launch.worldSize() * r.gpus(), launch.rank(), x -> x.uniqueId())
                    : JnaBackend.singleProcess(libcuda, libnccl, devices)) {
                Measurement.Result res = new Measurement(b).run(plan);
                line(new ChildLine(c, res.ncclVersion(), libnccl, res.worldSize(), res.sizes().stream().map(Measurement.SizeResult::row)
                        .toList(), res.failure().isValue() ? res.failure().get() : null));
            } catch (Backend.Failure f) {
                line(new ChildLine(c, version, libnccl, null, null, f.getMessage()));
                code = 1;
            }
        }
        return code;
    }

    /** One result line; in a child of several processes only rank 0 writes (the others measured the same collective). */
    private void line(ChildLine l) throws IOException {
        if (LaunchEnv.from(System.getenv()).rank() != 0) {
            return;
        }
        Files.writeString(result, Json.mapper().copy().disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(l) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
