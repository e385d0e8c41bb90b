package io.nccldoctor.reports.results;

import io.nccldoctor.core.Stats;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Repeated measurements of one setting that scatter: there is a variable you are not seeing. */
public final class UnstableResults implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("UNSTABLE_RESULTS", Severity.WARN,
            "repeated measurements of the same setting scatter",
            "The same collective, ranks and environment measured several times should give the same bandwidth within a "
                    + "few percent. When it does not, something outside the test changes between runs: other jobs on the "
                    + "fabric, ECMP hashing flows onto different links, PFC pauses, CPU frequency, a GPU clocking down. "
                    + "Flaky means there is a variable you are not seeing; an A/B comparison on such numbers is noise.",
            "out-of-place busbw of sweeps given under the same label, per size from thresholds.results.minBytes up: "
                    + "CV = standard deviation / mean",
            "Find the variable before comparing anything: run on an idle fabric, pin flows (or use adaptive routing), "
                    + "watch switch counters for pauses, and repeat until the CV is small.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        Map<String, List<Sweep>> byLabel = new LinkedHashMap<>();
        results.sweeps().forEach(s -> byLabel.computeIfAbsent(s.label(), k -> new ArrayList<>()).add(s));
        if (byLabel.values().stream().noneMatch(l -> l.size() > 1)) {
            return Outcome.waived("no setting was measured more than once (give repeated runs under one label)");
        }
        List<Finding> found = new ArrayList<>();
        for (Map.Entry<String, List<Sweep>> e : byLabel.entrySet()) {
            List<Sweep> runs = e.getValue();
            if (runs.size() < 2) {
                continue;
            }
            TreeSet<Long> sizes = new TreeSet<>();
            runs.forEach(s -> s.rows().forEach(r -> sizes.add(r.sizeBytes())));
            List<String> evidence = new ArrayList<>();
            double worst = 0;
            for (long size : sizes) {
                if (size < t.minBytes()) {
                    continue;
                }
                double[] v = runs.stream().flatMap(s -> s.row(size).stream()).mapToDouble(SweepMath::busBw).toArray();
                if (v.length < 2) {
                    continue;
                }
                double cv = Stats.cv(v);
                if (cv > t.stableCv()) {
                    worst = Math.max(worst, cv);
                    StringBuilder vals = new StringBuilder();
                    for (double x : v) {
                        vals.append(vals.length() == 0 ? "" : ", ").append(SweepMath.num(x));
                    }
                    evidence.add(SweepMath.size(size) + ": busbw " + vals + " GB/s over " + v.length + " runs, CV " + SweepMath.num(cv));
                }
            }
            if (evidence.isEmpty()) {
                continue;
            }
            evidence.add("threshold: CV above " + SweepMath.num(t.stableCv()) + " from " + SweepMath.size(t.minBytes()));
            found.add(finding(e.getKey(), SweepMath.describe(runs.get(0)) + " scatters over " + runs.size() + " runs (CV up to "
                    + SweepMath.num(worst) + ")", evidence));
        }
        return Outcome.flag(found);
    }
}
