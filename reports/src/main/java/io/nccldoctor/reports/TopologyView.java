package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.NcclTopoNets;
import io.nccldoctor.pcie.PciCensus;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds the GPU/NIC topology of a snapshot, in the numbering of the NCCL version that applies. */
public final class TopologyView {

    private TopologyView() {
    }

    /** The PCI inventory as a list, when the bus could be read. */
    public static Optional<List<PciDevice>> devices(Snapshot s) {
        return Sections.pci(s).map(p -> p.devices()).filter(Fact::isValue).map(Fact::get);
    }

    /**
     * {@code override} (from --nccl-version) wins; else the version the NCCL on the loader path reports; else the
     * newest numbering this tool knows.
     */
    public static Optional<Topology> of(Snapshot s, Optional<String> override) {
        Object[] last = lastTopology;
        if (last[0] == s && override.equals(last[1])) { // several rules ask for the same snapshot's topology in a row
            @SuppressWarnings("unchecked")
            Optional<Topology> t = (Optional<Topology>) last[2];
            return t;
        }
        Optional<Topology> t = devices(s).map(devices -> {
            String[] version = version(s, override);
            NcclTopoNets nets = s.section(NcclTopoNets.KEY, NcclTopoNets.class);
            return Topology.of(devices, rdmaNames(s), version[0], version[1], nets == null ? NcclTopoNets.none() : nets);
        });
        lastTopology = new Object[] {s, override, t};
        return t;
    }

    /** The last snapshot's topology, matched by identity (a snapshot is immutable): built once, not once per rule. */
    private static volatile Object[] lastTopology = {null, null, null};

    private static String[] version(Snapshot s, Optional<String> override) {
        if (override.isPresent()) {
            String v = override.get();
            if (!v.matches("\\d+\\.\\d+(\\.\\d+)?") || NcclPathTypes.compareVersions(v, "2.7.0") < 0) {
                throw new InputException("--nccl-version " + v + ": give a version such as 2.27.5 (2.7.0 or newer)");
            }
            return new String[] {v, "--nccl-version"};
        }
        Fact<String> detected = Sections.libraries(s).map(Libraries::nccl).map(n -> n.version())
                .orElse(Fact.absent("not probed"));
        if (detected.isValue()) {
            return new String[] {detected.get(), "the NCCL this node loads"};
        }
        return new String[] {NcclPathTypes.NEWEST, "the newest numbering known (no NCCL version on this node)"};
    }

    private static Map<String, String> rdmaNames(Snapshot s) {
        Map<String, String> names = new LinkedHashMap<>();
        Sections.rdma(s).map(RdmaDevices::devices).filter(Fact::isValue).ifPresent(list -> {
            for (RdmaDevices.RdmaDevice d : list.get()) {
                if (d.pciAddress().isValue()) {
                    names.putIfAbsent(d.pciAddress().get(), d.name());
                }
            }
        });
        return names;
    }

    /** Every PCI function of the snapshot counted, with what is outside the matrix and what is not understood. */
    public static Optional<PciCensus> census(Snapshot s) {
        return devices(s).map(d -> PciCensus.of(d, rdmaNames(s)));
    }

    public static Fact<PlatformIdentity> platform(Snapshot s) {
        return Sections.platform(s).map(p -> PlatformIdentity.of(p.cpu())).orElse(Fact.absent("platform not probed"));
    }
}
