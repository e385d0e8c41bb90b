package io.nccldoctor.reports.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The JSONL results of `nccl-doctor sweep` as sweeps: one per finished point, labelled by collective, environment and arm. */
public final class SweepResults {

    private SweepResults() {
    }

    /** Whether the text is a sweep result file: its first line a record with a type and a child. */
    public static boolean isSweepFile(String text) {
        String first = text.lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
        if (!first.startsWith("{") || !first.contains("\"child\"")) {
            return false;
        }
        try {
            JsonNode n = Json.mapper().readTree(first);
            String type = n.path("type").asText("");
            return n.has("child") && (type.equals("point") || type.equals("failure"));
        } catch (IOException e) {
            return false; // a multi-line JSON document, or not JSON: not a result file
        }
    }

    /** The arms of a result file, in order of appearance. */
    public static List<String> arms(Path file) {
        Set<String> arms = new LinkedHashSet<>();
        ResultLog.read(file).forEach(r -> arms.add(r.arm()));
        return List.copyOf(arms);
    }

    /** @param arm only this arm's points; null for all (then the arm is part of each label when there are several) */
    public static List<Sweep> sweeps(Path file, String arm) {
        return sweeps(file, arm, ResultLog.read(file));
    }

    /** The same, from records already read. */
    static List<Sweep> sweeps(Path file, String arm, List<SweepRecord> records) {
        boolean severalArms = records.stream().map(SweepRecord::arm).distinct().count() > 1;
        List<Sweep> out = new ArrayList<>();
        for (SweepRecord r : records) {
            if (!r.isPoint() || (arm != null && !arm.equals(r.arm()))) {
                continue;
            }
            Map<String, String> env = new TreeMap<>();
            r.env().forEach((k, v) -> {
                if (!SweepPlan.DEFAULT.equals(v)) {
                    env.put(k, v);
                }
            });
            String label = r.collective() + (env.isEmpty() ? "" : " " + String.join(" ", env.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toList())) + (severalArms && arm == null ? " [" + r.arm() + "]" : "");
            out.add(new Sweep(label, file + " (" + r.child() + ")", "nccl-doctor sweep", Fact.of(r.collective()),
                    r.worldSize() == null ? Fact.absent("not recorded") : Fact.of(r.worldSize()),
                    Fact.absent("a sweep records ranks, not hosts"), env,
                    r.ncclVersion() == null ? Fact.absent("not recorded") : Fact.of(r.ncclVersion()), r.rows(), Map.of(), r.repeat()));
        }
        return out;
    }
}
