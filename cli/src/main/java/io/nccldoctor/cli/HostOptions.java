package io.nccldoctor.cli;

import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --from DIR} for every verb that reads a host: the live node by default, or a capture. */
final class HostOptions {

    @Option(names = "--from", paramLabel = "DIR",
            description = "Read a capture folder (written by 'nccl-doctor capture -o DIR') instead of this host.")
    Path from;

    Host host() {
        return from == null ? liveHost() : Capture.open(from).host();
    }

    static Host liveHost() {
        return new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(),
                Environment.relevant(System.getenv()), "live");
    }
}
