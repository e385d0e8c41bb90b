package io.nccldoctor.cli;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.sweep.ChildRequest;
import io.nccldoctor.collectives.sweep.SweepChild;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.GpuProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The child a sweep starts for one environment and library (collectives' SweepChild does the work). Not for people:
 * `sweep` starts it with the environment the point needs.
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
            throw new InputException(request + ": not a sweep request (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
        Host host = HostOptions.liveHost();
        return SweepChild.run(r, new LibrariesProbe().run(host), new GpuProbe().run(host).gpus().map(List::size), System.getenv(), result);
    }
}
