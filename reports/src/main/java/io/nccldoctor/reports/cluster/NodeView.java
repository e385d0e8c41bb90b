package io.nccldoctor.reports.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
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
import java.util.Map;

/**
 * The sections of one snapshot that the drift table reads, each converted once (a section read back from JSON is a
 * tree until then), or why it is not there. A section that does not convert (a newer schema, a hand-edited file)
 * becomes an unknown for the attributes that read it, not a failed run.
 */
record NodeView(Fact<Platform> platform, Fact<PciInventory> pci, Fact<NvidiaDriver> driver, Fact<Libraries> libraries,
                Fact<RdmaDevices> rdma, Fact<GdrHost> gdrHost, Fact<GpuSurvey> gpus) {

    private static final String NODE_SECTION = "preflight, gdr and topo take it";

    static NodeView of(Snapshot s) {
        return of(s.sections());
    }

    /**
     * From sections as a snapshot holds them (records), as JSON left them (trees, maps), or as a streaming reader
     * decided them already (a {@link Fact} of the record).
     */
    static NodeView of(Map<String, Object> sections) {
        return new NodeView(
                section(sections, PlatformProbe.KEY, Platform.class, NODE_SECTION),
                section(sections, PciInventoryProbe.KEY, PciInventory.class, NODE_SECTION),
                section(sections, NvidiaDriverProbe.KEY, NvidiaDriver.class, NODE_SECTION),
                section(sections, LibrariesProbe.KEY, Libraries.class, NODE_SECTION),
                section(sections, RdmaProbe.KEY, RdmaDevices.class, NODE_SECTION),
                section(sections, GdrHostProbe.KEY, GdrHost.class, NODE_SECTION),
                section(sections, GpuProbe.KEY, GpuSurvey.class, "gdr takes it, preflight does not"));
    }

    @SuppressWarnings("unchecked")
    private static <T> Fact<T> section(Map<String, Object> sections, String key, Class<T> type, String takenBy) {
        Object raw = sections.get(key);
        if (raw == null) {
            return Fact.error("the snapshot has no " + key + " section (" + takenBy + ")");
        }
        if (raw instanceof Fact<?> decided) {
            return (Fact<T>) decided;
        }
        try {
            // A tree straight to the record: faster than Snapshot.section's convertValue, which 1,000 nodes notice.
            T value = type.isInstance(raw) ? type.cast(raw) : raw instanceof JsonNode n ? Json.mapper().treeToValue(n, type)
                    : Json.mapper().convertValue(raw, type);
            return value == null ? Fact.error("the " + key + " section is null (" + takenBy + ")") : Fact.of(value);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return unreadable(key, type, e);
        }
    }

    static <T> Fact<T> unreadable(String key, Class<?> type, Exception e) {
        String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : String.valueOf(e.getMessage());
        return Fact.error("the " + key + " section does not read as this version's " + type.getSimpleName() + ": "
                + m.lines().findFirst().orElse(""));
    }
}
