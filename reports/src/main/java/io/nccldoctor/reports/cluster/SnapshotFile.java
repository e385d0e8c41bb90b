package io.nccldoctor.reports.cluster;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.read.Decoded;
import io.nccldoctor.core.read.Inputs;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PcieConfig;
import io.nccldoctor.pcie.PlatformProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one snapshot file (the --json of preflight, gdr or topo, or a bare snapshot) for the cluster view in a single
 * streaming pass. A DGX-class node's snapshot is about 400 KB, nearly all of it the PCI inventory; a thousand of them
 * is 400 MB, and building a tree and then records of all of it takes seconds per hundred nodes. So the small sections
 * become records as usual, the PCI inventory is read for the fields the drift table uses (address, ids, class, kind,
 * sysfs path, link) and everything else is skipped unparsed. Fields this version does not know are skipped too.
 */
final class SnapshotFile {

    /** The sections read whole, as trees then records; the PCI inventory is read by {@link #pci}. */
    private static final Set<String> SMALL = Set.of(PlatformProbe.KEY, NvidiaDriverProbe.KEY, LibrariesProbe.KEY, RdmaProbe.KEY,
            GdrHostProbe.KEY, GpuProbe.KEY);

    /** What the cluster view does not read of a PCI device: never shown, never compared. */
    private static final String NOT_READ = "not read by the cluster view";

    private SnapshotFile() {
    }

    /** One level of the document: the wrapper of preflight/gdr/topo, or the snapshot itself. */
    private static final class Level {
        String hostName;
        String createdAt;
        String source;
        Integer schemaVersion;
        String schemaVersionOutOfRange;
        Map<String, Object> sections;
        Level snapshot;
    }

    static NodeReading read(Path p) {
        return read(Inputs.text(p), p);
    }

    /** The snapshot in a text already read (bytes that are not UTF-8 replaced: the caller says how many). */
    static NodeReading read(Decoded text, Path p) {
        Level top = new Level();
        try (JsonParser jp = Json.mapper().getFactory().createParser(text.text())) {
            if (jp.nextToken() != JsonToken.START_OBJECT) {
                throw notASnapshot(p);
            }
            object(jp, top, true);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(p + (at == null ? "" : ":" + at.getLineNr()) + ": not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new InputException(p + ": cannot read (" + e.getMessage() + ")", e);
        }
        Level s = top.snapshot != null && top.snapshot.sections != null ? top.snapshot
                : top.sections != null && top.hostName != null ? top : null;
        if (s == null) {
            throw notASnapshot(p);
        }
        if (s.schemaVersionOutOfRange != null) {
            throw new InputException(p + ": schemaVersion " + s.schemaVersionOutOfRange + " is out of range; this nccl-doctor reads "
                    + "snapshot schema version up to " + Snapshot.SCHEMA_VERSION);
        }
        if (s.schemaVersion != null && s.schemaVersion > Snapshot.SCHEMA_VERSION) {
            throw new InputException(p + ": snapshot schema version " + s.schemaVersion + "; this nccl-doctor reads up to "
                    + Snapshot.SCHEMA_VERSION + " (use the nccl-doctor that wrote it)");
        }
        if (s.hostName == null || s.hostName.isBlank()) {
            throw new InputException(p + ": the snapshot has no hostName");
        }
        ClusterReport.Node node = new ClusterReport.Node(s.hostName.strip(), p.toString(), orNotRecorded(s.createdAt), orNotRecorded(s.source));
        return NodeReading.of(node, NodeView.of(s.sections));
    }

    private static InputException notASnapshot(Path p) {
        return new InputException(p + ": JSON that is neither the --json of preflight, gdr or topo nor a snapshot "
                + "(an object with hostName and sections)");
    }

    private static String orNotRecorded(String s) {
        return s == null ? "not recorded" : s;
    }

    /** The fields of one object level; a "snapshot" object inside the top level is read as a level of its own. */
    private static void object(JsonParser jp, Level level, boolean top) throws IOException {
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.currentName();
            JsonToken t = jp.nextToken();
            switch (name) {
                case "snapshot" -> {
                    if (top && t == JsonToken.START_OBJECT) {
                        level.snapshot = new Level();
                        object(jp, level.snapshot, false);
                    } else {
                        jp.skipChildren();
                    }
                }
                case "hostName" -> level.hostName = t == JsonToken.VALUE_STRING ? jp.getText() : skip(jp);
                case "createdAt" -> level.createdAt = t == JsonToken.VALUE_STRING ? jp.getText() : skip(jp);
                case "source" -> level.source = t == JsonToken.VALUE_STRING ? jp.getText() : skip(jp);
                case "schemaVersion" -> level.schemaVersion = schemaVersion(jp, t, level);
                case "sections" -> {
                    if (t == JsonToken.START_OBJECT) {
                        level.sections = sections(jp);
                    } else {
                        jp.skipChildren();
                    }
                }
                default -> jp.skipChildren();
            }
        }
    }

    /** A whole number: the version; past int range it is kept as text, and refused with the file's name. */
    private static Integer schemaVersion(JsonParser jp, JsonToken t, Level level) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            jp.skipChildren();
            return null;
        }
        if (jp.getNumberType() != JsonParser.NumberType.INT) {
            level.schemaVersionOutOfRange = jp.getText();
            return null;
        }
        return jp.getIntValue();
    }

    private static String skip(JsonParser jp) throws IOException {
        jp.skipChildren();
        return null;
    }

    private static Map<String, Object> sections(JsonParser jp) throws IOException {
        Map<String, Object> out = new HashMap<>();
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String key = jp.currentName();
            JsonToken t = jp.nextToken();
            if (key.equals(PciInventoryProbe.KEY)) {
                out.put(key, t == JsonToken.START_OBJECT ? pci(jp) : wrong(jp, "the pci section is not an object"));
            } else if (SMALL.contains(key)) {
                out.put(key, jp.<JsonNode>readValueAsTree());
            } else {
                jp.skipChildren();
            }
        }
        return out;
    }

    /** The pci section: {devices: fact of a list, namesSource: fact}. */
    private static Fact<PciInventory> pci(JsonParser jp) throws IOException {
        Fact<List<PciDevice>> devices = null;
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.currentName();
            jp.nextToken();
            if (name.equals("devices")) {
                devices = fact(jp, SnapshotFile::devices);
            } else {
                jp.skipChildren();
            }
        }
        return devices == null ? Fact.error("the pci section has no devices") : Fact.of(new PciInventory(devices, Fact.absent(NOT_READ)));
    }

    @FunctionalInterface
    private interface Reader<T> {
        /** Reads the value at the current token, consuming all of it; null when it is not of the expected shape. */
        T read(JsonParser jp) throws IOException;
    }

    /** {"value": …}, {"absent": "…"} or {"error": "…"}; anything else is an error fact, and is consumed whole. */
    private static <T> Fact<T> fact(JsonParser jp, Reader<T> value) throws IOException {
        if (jp.currentToken() != JsonToken.START_OBJECT) {
            return wrong(jp, "not a fact");
        }
        Fact<T> out = null;
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.currentName();
            JsonToken t = jp.nextToken();
            if (out == null && name.equals("value")) {
                T v = value.read(jp);
                out = v == null ? Fact.error("a value of an unexpected shape") : Fact.of(v);
            } else if (out == null && (name.equals("absent") || name.equals("error")) && t == JsonToken.VALUE_STRING) {
                out = name.equals("absent") ? Fact.absent(jp.getText()) : Fact.error(jp.getText());
            } else {
                jp.skipChildren();
                out = Fact.error("a fact has exactly one of value, absent, error");
            }
        }
        return out == null ? Fact.error("an empty fact") : out;
    }

    private static <T> Fact<T> wrong(JsonParser jp, String why) throws IOException {
        jp.skipChildren();
        return Fact.error(why);
    }

    private static List<PciDevice> devices(JsonParser jp) throws IOException {
        if (jp.currentToken() != JsonToken.START_ARRAY) {
            jp.skipChildren();
            return null;
        }
        List<PciDevice> out = new ArrayList<>();
        boolean whole = true;
        while (jp.nextToken() != JsonToken.END_ARRAY) {
            PciDevice d = device(jp);
            whole &= d != null;
            if (d != null) {
                out.add(d);
            }
        }
        return whole ? out : null;
    }

    private static PciDevice device(JsonParser jp) throws IOException {
        if (jp.currentToken() != JsonToken.START_OBJECT) {
            jp.skipChildren();
            return null;
        }
        String address = null;
        String vendorId = null;
        String deviceId = null;
        String classCode = null;
        String kindName = null;
        Fact<String> sysfsPath = Fact.absent(NOT_READ);
        PciLink link = null;
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.currentName();
            jp.nextToken();
            switch (name) {
                case "address" -> address = string(jp);
                case "vendorId" -> vendorId = string(jp);
                case "deviceId" -> deviceId = string(jp);
                case "classCode" -> classCode = string(jp);
                case "kind" -> kindName = string(jp);
                case "sysfsPath" -> sysfsPath = fact(jp, SnapshotFile::string);
                case "link" -> link = link(jp);
                default -> jp.skipChildren();
            }
        }
        // no deviceId: the input did not print it (PciDevice reads a missing one as unknown)
        if (address == null || vendorId == null || classCode == null || classCode.length() < 4 || link == null) {
            return null;
        }
        DeviceKind kind;
        try {
            kind = kindName != null ? DeviceKind.valueOf(kindName) : DeviceKind.classify(vendorId, classCode);
        } catch (IllegalArgumentException e) {
            kind = DeviceKind.OTHER; // a kind a newer version added: not a GPU or NIC this version knows
        }
        Fact<String> notRead = Fact.absent(NOT_READ);
        return new PciDevice(address, vendorId, deviceId, classCode, kind,
                Fact.absent(NOT_READ), notRead, Fact.absent(NOT_READ), sysfsPath, link,
                new PcieConfig(notRead, Fact.absent(NOT_READ), Fact.absent(NOT_READ), Fact.absent(NOT_READ), Fact.absent(NOT_READ)),
                Fact.absent(NOT_READ), notRead, notRead);
    }

    private static PciLink link(JsonParser jp) throws IOException {
        if (jp.currentToken() != JsonToken.START_OBJECT) {
            jp.skipChildren();
            return null;
        }
        Fact<Double> speed = Fact.absent(NOT_READ);
        Fact<Integer> width = Fact.absent(NOT_READ);
        Fact<Double> maxSpeed = Fact.absent(NOT_READ);
        Fact<Integer> maxWidth = Fact.absent(NOT_READ);
        while (jp.nextToken() == JsonToken.FIELD_NAME) {
            String name = jp.currentName();
            jp.nextToken();
            switch (name) {
                case "speedGTps" -> speed = fact(jp, SnapshotFile::number);
                case "width" -> width = fact(jp, SnapshotFile::integer);
                case "maxSpeedGTps" -> maxSpeed = fact(jp, SnapshotFile::number);
                case "maxWidth" -> maxWidth = fact(jp, SnapshotFile::integer);
                default -> jp.skipChildren();
            }
        }
        return new PciLink(speed, width, maxSpeed, maxWidth);
    }

    private static String string(JsonParser jp) throws IOException {
        return jp.currentToken() == JsonToken.VALUE_STRING ? jp.getText() : skip(jp);
    }

    private static Double number(JsonParser jp) throws IOException {
        if (jp.currentToken().isNumeric()) {
            return jp.getDoubleValue();
        }
        jp.skipChildren();
        return null;
    }

    private static Integer integer(JsonParser jp) throws IOException {
        if (jp.currentToken() == JsonToken.VALUE_NUMBER_INT) {
            return jp.getIntValue();
        }
        jp.skipChildren();
        return null;
    }
}
