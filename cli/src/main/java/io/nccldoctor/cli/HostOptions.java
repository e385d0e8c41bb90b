package io.nccldoctor.cli;

import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.capture.EnvChange;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --from DIR} and {@code --env VAR=VALUE} for every verb that reads a host: the live node by default, or a capture. */
final class HostOptions {

    @Option(names = "--from", paramLabel = "DIR",
            description = "Read a capture folder (written by 'nccl-doctor capture DIR') instead of this host.")
    Path from;

    @Option(names = "--env", paramLabel = "VAR=VALUE",
            description = "Judge as if VAR were set to VALUE (or, as --env VAR, unset): a what-if on the environment, e.g. "
                    + "--from node17-capture --env NCCL_NET_GDR_LEVEL=PHB (also on topo's text inputs). Repeat for several; "
                    + "files and commands stay as read.")
    List<String> env = new ArrayList<>();

    Host host() {
        Host h = from == null ? liveHost() : Capture.open(from).host();
        return EnvChange.parse(env).applyTo(h);
    }

    /** A snapshot read from text (no host, no environment of its own) with the --env what-if applied. */
    Snapshot onText(Snapshot s) {
        return EnvChange.parse(env).applyTo(s);
    }

    /** A folder standing for / (its sys/ and proc/) with commands run live: fake sysfs trees, a chroot's view, tests. */
    static Host rootHost(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new InputException("--root " + dir + ": no such folder");
        }
        return new Host(HostRoot.at(dir), new ProcessCommandRunner(), NativeQueries.live(), Environment.relevant(System.getenv()),
                "root " + dir);
    }

    static Host liveHost() {
        return new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(),
                Environment.relevant(System.getenv()), "live");
    }
}
