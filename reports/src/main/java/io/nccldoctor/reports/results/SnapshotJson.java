package io.nccldoctor.reports.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.RecordNulls;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.CounterProbe;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.gdr.GpuHealthProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NicPortProbe;
import io.nccldoctor.gdr.NicPorts;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.gdr.Registration;
import io.nccldoctor.gdr.RegistrationProbe;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.pcie.PlatformProbe;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node snapshot read back from JSON (the --json of preflight, topo or gdr, or a bare snapshot): bound to the record
 * and every section the rules read converted to its type at once. So a value of the wrong type, a schema version out
 * of range or a null where a section belongs is one line naming the file and the field now, never an internal error
 * later when a rule reads the section. Sections this version does not know stay as they are.
 */
public final class SnapshotJson {

    /** Each probe's section and its type: what the rules and renderers read. */
    private static final Map<String, Class<?>> SECTIONS = Map.ofEntries(Map.entry(PlatformProbe.KEY, Platform.class),
            Map.entry(PciInventoryProbe.KEY, PciInventory.class), Map.entry(NvidiaDriverProbe.KEY, NvidiaDriver.class),
            Map.entry(LibrariesProbe.KEY, Libraries.class), Map.entry(RdmaProbe.KEY, RdmaDevices.class), Map.entry(GdrHostProbe.KEY,
            GdrHost.class), Map.entry(GpuProbe.KEY, GpuSurvey.class), Map.entry(RegistrationProbe.KEY, Registration.class),
            Map.entry(PerftestMatrixProbe.KEY, PerftestMatrix.class), Map.entry(CounterProbe.KEY, CounterSnapshot.class),
            Map.entry(GpuHealthProbe.KEY, GpuHealth.class), Map.entry(NicPortProbe.KEY, NicPorts.class));

    private SnapshotJson() {
    }

    /** @param where the file, and the field of the document that holds the snapshot ("FILE: snapshot") */
    public static Snapshot read(JsonNode node, String where) {
        JsonNode version = node.path("schemaVersion");
        if (version.isIntegralNumber() && version.canConvertToInt() && version.asInt() > Snapshot.SCHEMA_VERSION) {
            throw new InputException(where + ": snapshot schema version " + version.asInt() + "; this nccl-doctor reads up to "
                    + Snapshot.SCHEMA_VERSION + " (use the nccl-doctor that wrote it)");
        }
        Snapshot s = Json.convert(node, Snapshot.class, where);
        if (s.hostName() == null || s.hostName().isBlank()) {
            throw new InputException(where + ": the snapshot has no hostName");
        }
        Map<String, Object> typed = new LinkedHashMap<>();
        s.sections().forEach((key, raw) -> {
            Class<?> type = SECTIONS.get(key);
            if (type != null && raw == null) {
                throw new InputException(where + ": sections." + key + ": null where the " + key + " section belongs (leave the "
                        + "section out when it was not probed)");
            }
            if (raw != null && !(raw instanceof Map) && !(raw instanceof JsonNode n && n.isObject())) { // every probe's section is an object, also one this version does not know
                throw new InputException(where + ": sections." + key + ": expected an object, got " + (raw instanceof String ? "a string"
                        : raw instanceof List ? "a list" : "the value " + raw));
            }
            typed.put(key, type == null || type.isInstance(raw) ? raw : Json.convert(Json.mapper().valueToTree(raw), type,
                    where + ": sections." + key));
        });
        typed.forEach((key, section) -> {
            if (SECTIONS.containsKey(key)) { // a section this version does not know is kept as it is
                RecordNulls.find(section, "sections." + key).ifPresent(path -> {
                    throw new InputException(where + ": " + path + ": null or missing where a value belongs (a probe writes an "
                            + "absent fact with its reason, never a null)");
                });
            }
        });
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), s.env(), typed);
    }
}
