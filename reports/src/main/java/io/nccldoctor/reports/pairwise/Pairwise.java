package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.exec.CommandRunner;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * `cluster --pairwise NODES…` and `--bisect`: plans the jobs, prints them (--dry-run), runs the missing ones one at a
 * time, and judges the results folder, which may also hold pairs someone else ran (docs/cluster.md).
 */
public final class Pairwise {

    private Pairwise() {
    }

    /** The plan, one line per job: its result file, whether it is complete already, and the command. */
    public static String plan(PairwiseOptions o) {
        Map<Set<String>, PairResult> done = complete(o);
        List<String> out = new ArrayList<>();
        if (o.bisect()) {
            List<List<String>> h = Plans.halves(o.nodes());
            out.add("# bisect over " + o.nodes().size() + " nodes: round 1 runs each half; the slower half is halved again until 2 or 3 "
                    + "nodes are left, each then paired with a node of the last fast half (at most "
                    + (2 * rounds(o.nodes().size()) + 3) + " jobs; later rounds depend on the results)");
            h.forEach(half -> out.add(line(Plans.group(o, half), done)));
        } else {
            List<Job> jobs = Plans.pairs(o);
            out.add("# pairwise over " + o.nodes().size() + " nodes: " + jobs.size() + " jobs, one at a time; results in " + o.results());
            jobs.forEach(j -> out.add(line(j, done)));
        }
        return String.join("\n", out) + "\n";
    }

    private static String line(Job j, Map<Set<String>, PairResult> done) {
        PairResult r = done.get(new HashSet<>(j.nodes()));
        return r != null ? "# " + j.name() + ": complete in " + r.file() + ", not run again" : Shell.quote(j.argv()) + " > " + j.file();
    }

    /** Runs what is missing (unless {@code o.dryRun()}), then judges the folder. */
    public static PairwiseReport run(PairwiseOptions o, CommandRunner runner, RulesConfig judging, Consumer<String> progress,
                                     String createdAt) {
        JobRunner jobs = new JobRunner(runner, o.results(), o.jobTimeout(), progress);
        Map<Set<String>, PairResult> done = complete(o);
        List<PairwiseReport.JobLine> lines = new ArrayList<>();
        Function<Job, PairResult> exec = job -> {
            PairResult before = done.getOrDefault(new HashSet<>(job.nodes()), jobs.done(job).orElse(null));
            PairResult r = before != null ? before : jobs.run(job);
            lines.add(new PairwiseReport.JobLine(job.name(), job.nodes(), before != null ? "complete" : JobRunner.complete(r) ? "ran"
                    : "no result", job.argv()));
            return r;
        };
        List<PairResult> results = new ArrayList<>();
        List<PairwiseReport.Round> rounds = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (o.bisect()) {
            Bisect.Outcome b = Bisect.run(o, exec);
            b.rounds().forEach(r -> rounds.add(new PairwiseReport.Round(r.group(), describe(r.first()), describe(r.second()), r.outcome())));
            results.addAll(b.pairs());
            if (!b.stopped().isEmpty()) {
                notes.add(b.stopped());
            }
        } else {
            Plans.pairs(o).forEach(j -> results.add(exec.apply(j)));
        }
        return judge(createdAt, o.bisect() ? "bisect" : "pairwise", o, results, lines, rounds, notes, judging);
    }

    /** Judges a results folder without running anything: every pair its file names name. */
    public static PairwiseReport read(PairwiseOptions o, RulesConfig judging, String createdAt) {
        PairResults.Read read = PairResults.read(o.results(), o.nodes());
        List<String> notes = new ArrayList<>(read.notes());
        if (!o.nodes().isEmpty()) {
            Set<Set<String>> have = new HashSet<>();
            read.pairs().forEach(p -> have.add(new HashSet<>(p.nodes())));
            long missing = Plans.pairs(o).stream().filter(j -> !have.contains(new HashSet<>(j.nodes()))).count();
            if (missing > 0) {
                notes.add(missing + " of " + Plans.pairs(o).size() + " pairs of the given nodes have no result file");
            }
        }
        return judge(createdAt, "read", o, read.pairs(), List.of(), List.of(), notes, judging);
    }

    private static PairwiseReport judge(String createdAt, String mode, PairwiseOptions o, List<PairResult> results,
                                        List<PairwiseReport.JobLine> jobs, List<PairwiseReport.Round> rounds, List<String> notes,
                                        RulesConfig judging) {
        List<PairResult> measured = PairwiseChecks.measured(results);
        Map<String, List<PairResult>> byTest = Blame.byTest(measured);
        List<PairResult> compared = byTest.values().stream().max((a, b) -> Integer.compare(a.size(), b.size())).orElse(List.of());
        List<String> allNotes = new ArrayList<>(notes);
        if (byTest.size() > 1) {
            allNotes.add("results of " + byTest.size() + " tests " + byTest.keySet() + ": only the " + compared.size() + " pairs of "
                    + compared.get(0).test().orElse("?") + " are compared");
        }
        Blame.Verdict v = Blame.judge(compared, o.slowBelow());
        List<Finding> findings = new ArrayList<>();
        for (Finding f : PairwiseChecks.of(v, results)) {
            if (!judging.disabled().contains(f.code())) {
                Severity s = judging.severity().get(f.code());
                findings.add(s == null ? f : f.withSeverity(s));
            }
        }
        Set<String> nodes = new LinkedHashSet<>(o.nodes());
        results.forEach(r -> nodes.addAll(r.nodes()));
        return new PairwiseReport(createdAt, mode, o.results().toString(), List.copyOf(nodes), jobs, rounds,
                results.stream().map(r -> PairwiseReport.pair(r, v)).toList(), PairwiseReport.verdict(v), findings, allNotes);
    }

    /** Complete results already in the folder, by pair (any accepted file name) and by bisection group (exact name). */
    private static Map<Set<String>, PairResult> complete(PairwiseOptions o) {
        Map<Set<String>, PairResult> done = new LinkedHashMap<>();
        PairResults.read(o.results(), o.nodes()).pairs().stream().filter(JobRunner::complete)
                .forEach(p -> done.put(new HashSet<>(p.nodes()), p));
        return done;
    }

    private static String describe(PairResult r) {
        return r.file() + (r.busBwGBps().isValue() ? String.format(Locale.ROOT, " %.2f GB/s", r.busBwGBps().get())
                : " " + r.status().name().toLowerCase(Locale.ROOT));
    }

    private static int rounds(int n) {
        int r = 0;
        for (int g = n; g >= 4; g = (g + 1) / 2) {
            r++;
        }
        return r;
    }
}
