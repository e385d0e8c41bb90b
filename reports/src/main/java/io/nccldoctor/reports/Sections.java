package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.pcie.PlatformProbe;
import java.util.Optional;

/** Typed access to the snapshot sections the rules read; a section a run did not probe is empty. */
public final class Sections {

    private Sections() {
    }

    public static Optional<Platform> platform(Snapshot s) {
        return Optional.ofNullable(s.section(PlatformProbe.KEY, Platform.class));
    }

    public static Optional<PciInventory> pci(Snapshot s) {
        return Optional.ofNullable(s.section(PciInventoryProbe.KEY, PciInventory.class));
    }

    public static Optional<NvidiaDriver> nvidiaDriver(Snapshot s) {
        return Optional.ofNullable(s.section(NvidiaDriverProbe.KEY, NvidiaDriver.class));
    }

    public static Optional<Libraries> libraries(Snapshot s) {
        return Optional.ofNullable(s.section(LibrariesProbe.KEY, Libraries.class));
    }

    public static Optional<GdrHost> gdrHost(Snapshot s) {
        return Optional.ofNullable(s.section(GdrHostProbe.KEY, GdrHost.class));
    }

    public static Optional<GpuSurvey> gpus(Snapshot s) {
        return Optional.ofNullable(s.section(GpuProbe.KEY, GpuSurvey.class));
    }

    public static Optional<RdmaDevices> rdma(Snapshot s) {
        return Optional.ofNullable(s.section(RdmaProbe.KEY, RdmaDevices.class));
    }
}
