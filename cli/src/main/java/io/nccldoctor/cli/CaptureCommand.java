package io.nccldoctor.cli;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.CaptureWriter;
import io.nccldoctor.core.capture.Manifest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
            "Example:",
            "  nccl-doctor capture -o node17-capture && tar czf node17.tgz node17-capture",
            "  nccl-doctor preflight --from node17-capture"})
final class CaptureCommand implements Callable<Integer> {

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR",
            description = "The folder to write; it must be new or empty.")
    Path output;

    @Option(names = "--force", description = "Replace the content of a non-empty output folder.")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
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
