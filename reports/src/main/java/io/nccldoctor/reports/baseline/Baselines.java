package io.nccldoctor.reports.baseline;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * configs/baselines.yaml: the published figures a run is judged against when no node capture or reference run is
 * given. Every entry cites its source and quotes its figure, and every baseline says where its spread comes from;
 * {@link #load} refuses a file where one does not (docs/baselines-research.md has the sources in context).
 *
 * @param source     the file it was read from, for the evidence lines
 * @param ceilings   per-GPU links no ring can pass
 * @param mechanisms why a busbw may pass a link legitimately; the ids are {@link Mechanism}'s
 * @param baselines  what a healthy system reaches, first match wins
 */
public record Baselines(int version, String source, List<LinkLimit> ceilings, List<Citation> mechanisms, List<Baseline> baselines) {

    static final Set<String> COLLECTIVES = Set.of("allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv");

    public Baselines {
        ceilings = ceilings == null ? List.of() : List.copyOf(ceilings);
        mechanisms = mechanisms == null ? List.of() : List.copyOf(mechanisms);
        baselines = baselines == null ? List.of() : List.copyOf(baselines);
    }

    /** No file: nothing to judge against (every run "no baseline"); the universal ceiling is not known either. */
    public static Baselines none() {
        return new Baselines(1, "no baselines file", List.of(), List.of(), List.of());
    }

    /** What a run must show for an entry to apply; unset keys match anything. gpuModel: a regex found in the device name. */
    public record Match(String gpuModel, Integer ranks, Integer nodes, Integer nodesAtLeast, Integer gpusPerNode, Double nicRateGbps,
                        Integer nicsPerNode) {

        /** True when the entry names no hardware at all: it applies to every run. */
        boolean empty() {
            return gpuModel == null && ranks == null && nodes == null && nodesAtLeast == null && gpusPerNode == null && nicRateGbps == null
                    && nicsPerNode == null;
        }
    }

    /** A further source for the same figure. */
    public record Also(String source, String quote) {
    }

    /** A per-GPU link's rate, one direction. */
    public record LinkLimit(String id, String what, Match match, double gbps, String derivation, String source, String quote) {
        public LinkLimit {
            match = match == null ? new Match(null, null, null, null, null, null, null) : match;
        }
    }

    /** The source of a {@link Mechanism}. */
    public record Citation(String id, String what, String source, String quote) {
    }

    /**
     * A published figure.
     *
     * @param scale "perNic": expectedGBps and low are per NIC and multiply by the NICs of one node; absent: per rank
     */
    public record Baseline(String id, Match match, List<String> collectives, String algorithm, String scale, Long minBytes,
                           Double expectedGBps, Double low, Double high, String kind, String source, String quote, String spreadSource,
                           List<Also> also) {
        public Baseline {
            collectives = collectives == null ? List.of() : List.copyOf(collectives);
            also = also == null ? List.of() : List.copyOf(also);
            algorithm = algorithm == null ? "any" : algorithm;
        }

        boolean perNic() {
            return "perNic".equals(scale);
        }
    }

    /** Reads and checks a file; a problem is an {@link InputException} naming the file and the entry. */
    public static Baselines load(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** The same from a stream (the copy of configs/ inside the jar). */
    public static Baselines read(InputStream in, String name) {
        Baselines b;
        try {
            b = Json.yaml().readValue(in, Baselines.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(name + (at == null ? "" : ":" + at.getLineNr()) + ": " + e.getOriginalMessage()
                    + " (keys: version, ceilings, mechanisms, baselines; see configs/baselines.yaml)", e);
        } catch (IOException e) {
            throw new InputException(name + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (b == null) {
            throw new InputException(name + ": empty");
        }
        b = new Baselines(b.version(), name, b.ceilings(), b.mechanisms(), b.baselines());
        List<String> problems = problems(b);
        if (!problems.isEmpty()) {
            throw new InputException(name + ": " + problems.get(0) + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
        }
        return b;
    }

    /** Every rule an entry breaks, "entry ID: what"; empty for a sound file. */
    static List<String> problems(Baselines b) {
        List<String> out = new ArrayList<>();
        if (b.version() != 1) {
            out.add("version " + b.version() + ": this nccl-doctor reads version 1");
        }
        Set<String> ids = new HashSet<>();
        for (LinkLimit c : b.ceilings()) {
            String e = "ceiling " + c.id();
            cited(e, c.source(), c.quote(), out);
            regex(e, c.match().gpuModel(), out);
            unique(e, c.id(), ids, out);
            if (!(c.gbps() > 0)) {
                out.add(e + ": gbps must be above 0");
            }
        }
        for (Citation m : b.mechanisms()) {
            cited("mechanism " + m.id(), m.source(), m.quote(), out);
            if (Mechanism.byId(m.id()).isEmpty()) {
                out.add("mechanism " + m.id() + ": unknown id; the ones nccl-doctor applies are " + Mechanism.ids());
            }
        }
        for (Mechanism m : Mechanism.values()) {
            if (b.mechanisms().stream().noneMatch(c -> c.id().equals(m.id())) && !b.ceilings().isEmpty()) {
                out.add("mechanism " + m.id() + ": missing; every mechanism the ceilings are relaxed by needs its source");
            }
        }
        for (Baseline x : b.baselines()) {
            baseline(x, ids, out);
        }
        return out;
    }

    private static void baseline(Baseline x, Set<String> ids, List<String> out) {
        String e = "baseline " + x.id();
        unique(e, x.id(), ids, out);
        cited(e, x.source(), x.quote(), out);
        x.also().forEach(a -> cited(e + " (also)", a.source(), a.quote(), out));
        if (blank(x.spreadSource())) {
            out.add(e + ": no spreadSource: say where its low bound comes from (a vendor floor, nccl-tests' 0.9 rule …)");
        }
        if (x.match() == null || x.match().gpuModel() == null && x.match().nicRateGbps() == null) {
            out.add(e + ": its match names neither a GPU model nor a NIC rate; a baseline for any hardware is meaningless");
        } else {
            regex(e, x.match().gpuModel(), out);
        }
        if (x.collectives().isEmpty() || !COLLECTIVES.containsAll(x.collectives())) {
            out.add(e + ": collectives " + x.collectives() + ": give some of " + new TreeSet<>(COLLECTIVES));
        }
        if (!Set.of("nvls", "ring", "any").contains(x.algorithm())) {
            out.add(e + ": algorithm '" + x.algorithm() + "': nvls, ring or any");
        }
        if (x.scale() != null && !x.perNic()) {
            out.add(e + ": scale '" + x.scale() + "': perNic, or leave it out");
        }
        if (x.perNic() && (x.match().nicRateGbps() == null)) {
            out.add(e + ": scale perNic needs match.nicRateGbps");
        }
        if (!Set.of("statement", "measured", "floor", "derived").contains(String.valueOf(x.kind()))) {
            out.add(e + ": kind '" + x.kind() + "': statement, measured, floor or derived");
        }
        if (x.minBytes() == null || x.minBytes() <= 0) {
            out.add(e + ": minBytes must be above 0 (small sizes measure latency, not bandwidth)");
        }
        if (x.low() == null || !(x.low() > 0)) {
            out.add(e + ": low must be above 0");
        } else if (x.expectedGBps() == null && !"floor".equals(x.kind())) {
            out.add(e + ": expectedGBps is required unless kind is floor");
        } else if (x.expectedGBps() != null && x.low() > x.expectedGBps()) {
            out.add(e + ": low " + x.low() + " is above expectedGBps " + x.expectedGBps());
        }
        if (x.high() != null && x.expectedGBps() != null && x.high() < x.expectedGBps()) {
            out.add(e + ": high " + x.high() + " is below expectedGBps " + x.expectedGBps());
        }
    }

    private static void cited(String entry, String source, String quote, List<String> out) {
        if (blank(source)) {
            out.add(entry + ": no source (a URL or document, with a commit or date where there is one)");
        }
        if (blank(quote)) {
            out.add(entry + ": no quote (the figure as the source prints it)");
        }
    }

    private static void regex(String entry, String gpuModel, List<String> out) {
        if (gpuModel == null) {
            return;
        }
        try {
            Pattern.compile(gpuModel);
        } catch (PatternSyntaxException ex) {
            out.add(entry + ": gpuModel '" + gpuModel + "' is not a regular expression (" + ex.getDescription() + ")");
        }
    }

    private static void unique(String entry, String id, Set<String> ids, List<String> out) {
        if (blank(id)) {
            out.add(entry + ": no id");
        } else if (!ids.add(id.toLowerCase(Locale.ROOT))) {
            out.add(entry + ": the id is used twice");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** A case-insensitive search of the pattern in the device name. */
    static boolean gpuMatches(String pattern, String gpu) {
        return Pattern.compile(pattern, Pattern.CASE_INSENSITIVE).matcher(gpu).find();
    }
}
