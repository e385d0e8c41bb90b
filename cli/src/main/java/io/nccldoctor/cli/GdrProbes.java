package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Probe;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.RegistrationProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The probes of `gdr` for its flags: the node's, plus real registrations with --active, plus perftest with a peer or a namespace. */
final class GdrProbes {

    private GdrProbes() {
    }

    record Perftest(String peer, String netns, int port, String bin, boolean dmabuf, long timeoutSeconds) {
    }

    static List<Probe<?>> of(boolean active, Perftest p) {
        List<Probe<?>> probes = new ArrayList<>(Probes.withGpus());
        if ((p.peer() != null || p.netns() != null) && !active) {
            throw new InputException((p.peer() != null ? "--perftest-peer" : "--perftest-netns") + " runs traffic: give --active with it");
        }
        if (p.peer() != null && p.netns() != null) {
            throw new InputException("--perftest-peer and --perftest-netns are two ways to measure: give one");
        }
        Optional<PerftestMatrixProbe.Loopback> loopback = Optional.empty();
        if (p.netns() != null) {
            loopback = PerftestMatrixProbe.Loopback.parse(p.netns(), "ip");
            if (loopback.isEmpty()) {
                throw new InputException("--perftest-netns '" + p.netns()
                        + "': expected NAMESPACE/HCA, e.g. rdma1/mlx5_1 (the namespace holding that HCA's netdev)");
            }
        }
        if (!active) {
            return probes;
        }
        probes.add(new RegistrationProbe());
        if (p.peer() != null || loopback.isPresent()) {
            if (p.port() < 1 || p.port() > 65534 || p.timeoutSeconds() < 1) {
                throw new InputException("--perftest-port " + p.port() + " --perftest-timeout " + p.timeoutSeconds()
                        + ": the port must be 1 to 65534 (PORT+1 is used too) and the timeout at least 1 s");
            }
            Duration t = Duration.ofSeconds(p.timeoutSeconds());
            probes.add(loopback.isPresent() ? PerftestMatrixProbe.loopback(loopback.get(), p.bin(), p.port(), p.dmabuf(), t)
                    : new PerftestMatrixProbe(p.peer(), p.bin(), p.port(), p.dmabuf(), t));
        }
        return probes;
    }
}
