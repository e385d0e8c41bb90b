package io.nccldoctor.reports.parsed;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.pcie.NcclPathTypes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A GPU Direct RDMA decision line's "distance D REL T" in NCCL's path type names. With the NCCL version the log names,
 * it is read with that version's numbering; without, through its threshold (NcclPathTypes.readings): T is NCCL's
 * default (PXB, or P2C from 2.29 while NCCL_NET_GDR_C2C is on) unless NCCL_NET_GDR_LEVEL was set, which NCCL logs by
 * name, and the releases where T is that level's number give the numbering. One reading is given with the releases it
 * holds for; several are all given (the line is ambiguous without the version); none is said. Never decoded with a
 * version the log did not show.
 */
public final class GdrReading {

    private GdrReading() {
    }

    public static String of(int distance, String relation, int threshold, NcclLog.GdrWording wording, NcclLog log) {
        if (wording == NcclLog.GdrWording.V2_4) {
            return "NCCL 2.4 and 2.5 printed a PCI distance of their own, not a path type";
        }
        if (!log.versions().isEmpty()) {
            return withVersions(distance, relation, threshold, log.versions());
        }
        Optional<String> level = log.init().env("NCCL_NET_GDR_LEVEL");
        boolean c2c = log.init().env("NCCL_NET_GDR_C2C").map(v -> !v.strip().equals("0")).orElse(true);
        List<NcclPathTypes.Reading> readings = NcclPathTypes.readings(distance, relation, threshold, wording.since(), wording.until(),
                level, c2c);
        String assumed = level.map(l -> "NCCL_NET_GDR_LEVEL=" + l + " (its line is in the log)").orElse("NCCL's default threshold");
        if (readings.isEmpty()) {
            return "cannot decode without the NCCL version: " + threshold + " is " + assumed + " in no release that prints this line "
                    + "(NCCL_NET_GDR_LEVEL set without its line in the log?)";
        }
        if (readings.size() == 1) {
            NcclPathTypes.Reading r = readings.get(0);
            return r.text() + " (no NCCL version in the log: " + threshold + " is " + assumed + " in " + r.versions() + ")";
        }
        List<String> each = new ArrayList<>();
        readings.forEach(r -> each.add(r.text() + " in " + r.versions()));
        return "ambiguous without the NCCL version, " + threshold + " being " + assumed + ": " + String.join("; ", each);
    }

    /**
     * With each version the log names: one text when they agree, each with its version when they do not. An RCCL version
     * ("RCCL 2.27.7") is not decoded with NCCL's table: RCCL's topology code is a fork, its numbering is not modelled.
     */
    private static String withVersions(int distance, String relation, int threshold, Set<String> versions) {
        Set<String> texts = new LinkedHashSet<>();
        List<String> each = new ArrayList<>();
        boolean rccl = false;
        for (String v : versions) {
            String text;
            if (v.startsWith("RCCL ")) {
                rccl = true;
                text = "not decoded: RCCL's path numbering is its own, not modelled";
            } else {
                try {
                    text = NcclPathTypes.decodeDistance(distance, relation, threshold, v);
                } catch (IllegalArgumentException e) {
                    text = "cannot decode: " + e.getMessage();
                }
            }
            texts.add(text);
            each.add(text + " in " + (v.startsWith("RCCL ") ? v : "NCCL " + v));
        }
        if (texts.size() > 1) {
            return String.join("; ", each);
        }
        String where = rccl ? String.join(", ", versions.stream().map(v -> v.startsWith("RCCL ") ? v : "NCCL " + v).toList())
                : "NCCL " + String.join(", ", versions);
        return texts.iterator().next() + " in " + where;
    }
}
