package io.nccldoctor.reports;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.LspciFragments;
import io.nccldoctor.pcie.NcclTopoNets;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PciReading;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot made from pasted text (lspci, NCCL topology XML) instead of a host, so that the same rules judge it.
 * It holds only what the text gave: a PCI section, and RDMA names where the text named them.
 */
public final class ImportedSnapshot {

    private ImportedSnapshot() {
    }

    /**
     * A reading's functions and RDMA names, an NCCL topology file's nets and gdr attributes (section {@link NcclTopoNets#KEY})
     * and lspci excerpts without device headers (section {@link LspciFragments#KEY}).
     */
    public static Snapshot of(PciReading r, String source, List<String> argv, String toolVersion, String createdAt) {
        Snapshot s = of(r.devices(), r.rdmaNets(), source, argv, toolVersion, createdAt);
        if (r.ncclNets().holdsNothing() && r.fragments().isEmpty()) {
            return s;
        }
        Map<String, Object> sections = new LinkedHashMap<>(s.sections());
        if (!r.ncclNets().holdsNothing()) {
            sections.put(NcclTopoNets.KEY, r.ncclNets());
        }
        if (!r.fragments().isEmpty()) {
            sections.put(LspciFragments.KEY, new LspciFragments(r.fragments()));
        }
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), s.env(), sections);
    }

    /**
     * @param rdmaNets PCI address → every RDMA device name the text gives it: NCCL's topology file names each port of a NIC
     *                 it merged into one function (NVIDIA/nccl#1505: mlx5_4 and mlx5_5 under 0000:61:00.0), each an RDMA
     *                 device of its own here
     */
    public static Snapshot of(List<PciDevice> devices, Map<String, List<String>> rdmaNets, String source, List<String> argv,
                              String toolVersion, String createdAt) {
        Map<String, Object> sections = new LinkedHashMap<>();
        sections.put(PciInventoryProbe.KEY, new PciInventory(Fact.of(devices), Fact.absent("names come from " + source)));
        if (!rdmaNets.isEmpty()) {
            List<RdmaDevices.RdmaDevice> rdma = rdmaNets.entrySet().stream().flatMap(e -> e.getValue().stream()
                    .map(name -> new RdmaDevices.RdmaDevice(name, Fact.of(e.getKey()), Fact.absent("not in " + source)))).toList();
            sections.put(RdmaProbe.KEY, new RdmaDevices(Fact.of(rdma)));
        }
        return new Snapshot(Snapshot.SCHEMA_VERSION, toolVersion, "unknown (" + source + ")", createdAt, source, argv,
                Map.of(), sections);
    }
}
