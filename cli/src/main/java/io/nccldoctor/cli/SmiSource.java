package io.nccldoctor.cli;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** nvidia-smi's matrix from a file, or from running `nvidia-smi topo -m` on the host being examined. */
final class SmiSource {

    static final List<String> COMMAND = List.of("nvidia-smi", "topo", "-m");

    private SmiSource() {
    }

    static SmiTopoMatrix matrix(String fileOrLive, Host host) {
        if (fileOrLive.equals("live")) {
            if (host == null) {
                throw new InputException("--compare-nvidia-smi live needs a host (this node or --from); with text inputs give a file");
            }
            var out = host.commands().run(COMMAND, Duration.ofSeconds(20)).stdoutIfSucceeded();
            if (!out.isValue()) {
                throw new InputException("--compare-nvidia-smi live: " + out.reason());
            }
            return SmiTopoMatrix.parse(out.get().lines().toList(), "nvidia-smi topo -m");
        }
        SmiTopoMatrix m = SmiTopoMatrix.parse(TopoSources.read(Path.of(fileOrLive), "--compare-nvidia-smi").lines().toList(), fileOrLive);
        if (m.p2p()) { // said here, where the file is known: the comparison itself has only the matrix
            throw new InputException("--compare-nvidia-smi " + fileOrLive + ": `nvidia-smi topo -p2p` output (P2P status: OK, NS …), not the "
                    + "link types of `nvidia-smi topo -m`; give the output of `nvidia-smi topo -m`");
        }
        return m;
    }
}
