package io.nccldoctor.cli;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.CaptureWriter;
import io.nccldoctor.core.capture.Manifest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {
            "Records what the probes read on this node, for replay with --from DIR.",
            "",
            "Files and links of /sys and /proc, command outputs and native library answers go into a folder, so that "
                + "any verb can replay them here or on another machine. Nothing else is copied; the folder is plain "
                + "files, easy to tar and send."},
        footer = {"",
            "DIR must be new or empty (--force empties it first). The earlier spelling -o DIR still works.",
            "",
            "Examples:",
            "  nccl-doctor capture node17-capture && tar czf node17.tgz node17-capture",
            "  nccl-doctor preflight --from node17-capture",
            "  nccl-doctor gdr --from node17-capture --env NCCL_NET_GDR_LEVEL=PHB",
            "",
            "Exit codes: 0 captured, 2 bad usage (DIR not empty), 3 the tool failed."})
final class CaptureCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "DIR", description = "The folder to write; it must be new or empty.")
    Path dir;

    @Option(names = "--dir", paramLabel = "DIR", description = "The same as DIR.")
    Path dirOption;

    /** The earlier spelling, kept working (the README showed it): -o means a report file on every other verb. */
    @Option(names = {"-o", "--output"}, hidden = true, paramLabel = "DIR")
    Path oldOutput;

    @Option(names = "--force", description = "Replace the content of a non-empty output folder.")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<Path> given = Stream.of(dir, dirOption, oldOutput).filter(Objects::nonNull).toList();
        if (given.size() != 1) {
            throw new InputException(given.isEmpty() ? "capture: name the folder to write, e.g. nccl-doctor capture node17-capture"
                    : "capture: one folder, not " + given.size() + " (" + given.stream().map(Path::toString).collect(Collectors.joining(", ")) + ")");
        }
        Path output = given.get(0);
        CaptureWriter writer = CaptureWriter.create(output, force);
        Host live = HostOptions.liveHost();
        List<Probe<?>> probes = Probes.capture();
        List<String> argv = spec.commandLine().getParseResult().originalArgs();
        Snapshot s = Snapshots.take(writer.recording(live), probes, argv, VersionInfo.toolVersion(), Clock.systemUTC());
        Manifest m = new Manifest(Manifest.FORMAT_VERSION, s.toolVersion(), s.createdAt(), s.hostName(), argv, live.env(),
                probes.stream().map(Probe::key).toList(), 0, 0, 0);
        writer.finish(m);
        spec.commandLine().getOut().printf("captured %s into %s%nreplay with: nccl-doctor preflight --from %s%n",
                String.join(", ", m.probes()), output, output);
        return 0;
    }
}
