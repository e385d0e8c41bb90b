package io.nccldoctor.cli;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Probe;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuHealthProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import java.util.List;

/** The node probes, in the order they run and appear in the snapshot. One explicit list. */
final class Probes {

    private Probes() {
    }

    static List<Probe<?>> node() {
        return List.of(new PlatformProbe(), new PciInventoryProbe(), new NvidiaDriverProbe(), new LibrariesProbe(),
                new RdmaProbe(), new GdrHostProbe(), new GpuHealthProbe());
    }

    /** What `capture` records: the node probes and the port counters, so that `counters --from` can replay them. */
    static List<Probe<?>> capture() {
        List<Probe<?>> all = new java.util.ArrayList<>(node());
        all.add(new io.nccldoctor.gdr.CounterProbe());
        return List.copyOf(all);
    }

    /** The node probes plus the GPU survey through CUDA and NVML (initialises the driver: slower on GPU nodes). */
    static List<Probe<?>> withGpus() {
        List<Probe<?>> all = new java.util.ArrayList<>(node());
        all.add(new GpuProbe());
        return List.copyOf(all);
    }
}
