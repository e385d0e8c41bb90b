package io.nccldoctor.reports.tune;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.sweep.Orchestrator;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import io.nccldoctor.reports.results.SweepResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The measurements `tune` reads: sweep results (each point with the NCCL logs its child wrote, where the TUNING lines
 * say what NCCL chose at each size), and whatever `report` reads (`run --json`, nccl-tests outputs, bundles with their
 * environments) with the NCCL logs among or inside them.
 */
final class TuneInputs {

    private TuneInputs() {
    }

    /**
     * One measured run of one collective in one environment.
     *
     * @param chosen  per size, the algorithm and protocol NCCL's TUNING lines say it ran (channels -1), or why not known
     * @param library the libnccl the run loaded, when recorded
     */
    record Measured(Sweep sweep, Map<Long, Fact<Choice>> chosen, Fact<String> library) {
    }

    /**
     * @param notes   what was read, each a line
     * @param leftOut runs left out, each with why
     */
    record Read(List<Measured> runs, List<String> notes, List<String> leftOut) {

        Read(List<Measured> runs, List<String> notes) {
            this(runs, notes, List.of());
        }
    }

    /** What NCCL logs of a tuner row's variables ("NCCL_PROTO set by environment to LL128"; a parameter's value ends in '.'). */
    private static final List<String> TUNABLE = List.of("NCCL_ALGO", "NCCL_PROTO", "NCCL_MAX_NCHANNELS", "NCCL_MIN_NCHANNELS");

    /** @param arm the arm of a sweep of several libraries to read; null when each sweep has one */
    static Read read(List<String> args, String arm) {
        List<Measured> runs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (String a : args) {
            Path p = Path.of(a);
            if (Files.isRegularFile(p) && SweepResults.isSweepFile(head(p))) {
                sweep(p, arm, runs, notes, leftOut);
            } else {
                other(a, runs, leftOut);
            }
        }
        if (runs.isEmpty()) {
            throw new InputException(String.join(", ", args) + ": no measured run in it (tune reads sweep results, `run --json` "
                    + "outputs, nccl-tests outputs and report bundles)");
        }
        return new Read(runs, notes, leftOut);
    }

    private static String head(Path p) {
        try (Stream<String> lines = Files.lines(p, StandardCharsets.UTF_8)) {
            return lines.filter(l -> !l.isBlank()).findFirst().orElse("");
        } catch (IOException | UncheckedIOException e) {
            throw new InputException(p + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static void sweep(Path file, String arm, List<Measured> runs, List<String> notes, List<String> leftOut) {
        List<String> arms = SweepResults.arms(file);
        String chosenArm = arm != null ? arm : arms.size() == 1 ? arms.get(0) : null;
        if (chosenArm == null) {
            throw new InputException(file + ": a sweep of " + arms.size() + " NCCL libraries (arms " + String.join(", ", arms)
                    + "); a tuner file is for one NCCL: give --arm NAME");
        }
        if (!arms.contains(chosenArm)) {
            throw new InputException(file + ": no arm '" + chosenArm + "' (arms: " + String.join(", ", arms) + ")");
        }
        List<SweepRecord> records = ResultLog.read(file).stream().filter(r -> chosenArm.equals(r.arm())).toList();
        List<SweepRecord> points = records.stream().filter(SweepRecord::isPoint).toList();
        List<Sweep> sweeps = SweepResults.sweeps(file, chosenArm);
        if (sweeps.size() != points.size()) {
            throw new IllegalStateException(file + ": " + points.size() + " points but " + sweeps.size() + " sweeps read from them");
        }
        Map<String, List<NcclLog>> logs = new HashMap<>();
        for (int i = 0; i < points.size(); i++) {
            SweepRecord r = points.get(i);
            Sweep s = sweeps.get(i);
            if (!s.source().equals(file + " (" + r.child() + ")")) {
                throw new IllegalStateException(file + ": point " + r.child() + " read as " + s.source());
            }
            List<NcclLog> childLogs = logs.computeIfAbsent(r.child(), c -> childLogs(Orchestrator.childDir(file, c)));
            Map<String, String> logged = loggedEnv(childLogs);
            Map<String, String> recorded = new TreeMap<>(s.env());
            recorded.keySet().retainAll(TUNABLE);
            if (logged.entrySet().stream().anyMatch(e -> !e.getValue().equals(recorded.get(e.getKey())))) {
                leftOut.add(s.source() + ": its NCCL log says " + logged + " was set, its environment in the results " + recorded
                        + " (the plan's env?): not NCCL's defaults, nor the pin it is labelled with");
                continue;
            }
            Fact<Integer> nodes = nodes(childLogs);
            Sweep withNodes = new Sweep(s.label(), s.source(), s.tool(), s.collective(), s.ranks(), nodes, s.env(), s.ncclVersion(), s.rows(),
                    s.aligned(), s.repeat());
            runs.add(new Measured(withNodes, chosen(withNodes, childLogs), Fact.ofNullable(r.ncclLibrary(), "not recorded")));
        }
        Map<String, Integer> failed = new TreeMap<>();
        records.stream().filter(r -> !r.isPoint()).forEach(r -> failed.merge(r.failure(), 1, Integer::sum));
        if (!failed.isEmpty()) {
            notes.add(file + ": " + failed.values().stream().mapToInt(Integer::intValue).sum() + " point(s) failed (" + failed
                    + ") and are left out");
        }
    }

    /** The NCCL logs in a child's folder (nccl.HOST.PID.log); none when the folder is gone or the child logged nothing. */
    private static List<NcclLog> childLogs(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<NcclLog> out = new ArrayList<>();
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("nccl.")).sorted().toList()) {
                NcclLog.parseIfNccl(f).ifPresent(out::add);
            }
            return out;
        } catch (IOException e) {
            throw new InputException(dir + ": cannot list the child's folder (" + e.getMessage() + ")", e);
        }
    }

    /**
     * nccl-tests outputs, `run --json`, bundles: their sweeps, with the logs that came with each. The environment is the
     * bundle's, else what the NCCL log says was set; a run whose log names no variable at all (ENV lines not logged) and
     * that no bundle describes is left out: NCCL's defaults and a pin would read the same.
     */
    private static void other(String arg, List<Measured> runs, List<String> leftOut) {
        ResultSet set = new ResultInputs(dir -> {
            throw new InputException(dir + ": a capture holds no measurements; tune needs results");
        }).read(List.of(arg), "");
        for (Sweep s : set.sweeps()) {
            List<NcclLog> logs = set.ncclLogs().entrySet().stream()
                    .filter(e -> e.getKey().equals(s.source()) || e.getKey().startsWith(s.source() + "#")).map(Map.Entry::getValue).toList();
            boolean envLogged = logs.stream().anyMatch(l -> !l.init().environment().isEmpty());
            if (s.env().isEmpty() && !envLogged) {
                leftOut.add(s.source() + ": its environment is not known (no bundle env, no NCCL log saying what was set): NCCL's "
                        + "defaults and a pin would read the same");
                continue;
            }
            Map<String, String> env = s.env().isEmpty() ? loggedEnv(logs) : s.env();
            Fact<Integer> nodes = s.nodes().isValue() ? s.nodes() : nodes(logs);
            Sweep withNodes = new Sweep(s.label(), s.source(), s.tool(), s.collective(), s.ranks(), nodes, env, s.ncclVersion(), s.rows(),
                    s.aligned(), s.repeat());
            runs.add(new Measured(withNodes, chosen(withNodes, logs), Fact.absent("not recorded by " + s.tool())));
        }
    }

    /** The tuner row's variables the logs say were set, each with the one value they give; a variable given several is kept with all. */
    static Map<String, String> loggedEnv(List<NcclLog> logs) {
        Map<String, TreeSet<String>> values = new TreeMap<>();
        for (NcclLog l : logs) {
            l.init().environment().forEach((k, v) -> {
                if (TUNABLE.contains(k)) {
                    v.forEach(x -> values.computeIfAbsent(k, y -> new TreeSet<>()).add(x.endsWith(".") ? x.substring(0, x.length() - 1) : x));
                }
            });
        }
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, String.join(" and ", v)));
        return out;
    }

    /** The node count NCCL logged ("nRanks 16 nNodes 2", 2.20 and later), when the logs give exactly one. */
    static Fact<Integer> nodes(List<NcclLog> logs) {
        TreeSet<Integer> counts = new TreeSet<>();
        logs.forEach(l -> counts.addAll(l.init().nodes().keySet()));
        if (counts.size() == 1) {
            return Fact.of(counts.first());
        }
        return Fact.absent(counts.isEmpty() ? "no NCCL log with the node count (NCCL 2.20 and later log it with NCCL_DEBUG=INFO)"
                : "the logs give several node counts " + counts);
    }

    /** Per size of the sweep, what the TUNING lines say NCCL ran: one algorithm and protocol, or why that is not known. */
    static Map<Long, Fact<Choice>> chosen(Sweep s, List<NcclLog> logs) {
        Map<Long, Fact<Choice>> out = new LinkedHashMap<>();
        String collective = s.collective().orElse("");
        boolean anyTuning = logs.stream().anyMatch(l -> !l.tuning().isEmpty());
        for (var row : s.rows()) {
            long size = row.sizeBytes();
            if (logs.isEmpty() || !anyTuning || !s.ranks().isValue()) {
                out.put(size, Fact.absent(logs.isEmpty() ? "no NCCL log" : !anyTuning
                        ? "no TUNING line in the NCCL log (NCCL_DEBUG_SUBSYS=INIT,ENV,TUNING logs them)" : "the world size is not recorded"));
                continue;
            }
            Fact<Long> bytes = TunerNames.loggedBytes(collective, size, s.ranks().get(), s.ncclVersion());
            if (!bytes.isValue()) {
                out.put(size, Fact.absent(bytes.reason()));
                continue;
            }
            long logged = bytes.get();
            TreeSet<String> seen = new TreeSet<>();
            for (NcclLog l : logs) {
                for (NcclLog.Tuning t : l.tuning()) {
                    if (t.bytes() == logged && t.collective().isValue() && TunerNames.logs(collective, t.collective().get())) {
                        seen.add(t.algorithm() + "/" + t.protocol());
                    }
                }
            }
            out.put(size, choiceOf(seen, logged));
        }
        return out;
    }

    private static Fact<Choice> choiceOf(TreeSet<String> seen, long logged) {
        if (seen.isEmpty()) {
            return Fact.absent("no TUNING line for " + logged + " bytes");
        }
        if (seen.size() > 1) {
            return Fact.absent("NCCL ran " + String.join(" and ", seen) + " at " + logged + " bytes in one run");
        }
        String[] ap = seen.first().split("/", 2);
        var algo = TunerNames.fromLogged(TunerNames.ALGORITHMS, ap[0]);
        var proto = TunerNames.fromLogged(TunerNames.PROTOCOLS, ap[1]);
        if (algo.isEmpty() || proto.isEmpty()) {
            return Fact.absent("NCCL logged " + seen.first() + ", which the example tuner has no name for");
        }
        return Fact.of(new Choice(algo.get(), proto.get(), -1));
    }
}
