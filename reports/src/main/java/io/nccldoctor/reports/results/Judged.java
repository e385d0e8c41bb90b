package io.nccldoctor.reports.results;

import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.baseline.Baselines;
import io.nccldoctor.reports.baseline.Expectation;
import io.nccldoctor.reports.baseline.Limit;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.baseline.Run;
import java.util.ArrayList;
import java.util.List;

/** Each sweep of a result set judged against configs/baselines.yaml: the shared step of the baseline detectors. */
record Judged(Run run, Expectation expectation) {

    static List<Judged> of(ResultSet set, ResultThresholds t) {
        List<Judged> out = new ArrayList<>();
        for (Run r : Runs.of(set)) {
            out.add(new Judged(r, Expectation.of(set.baselines(), r, t.baselineFarFraction())));
        }
        return out;
    }

    /** The capture's (or bundle's) ceilings, as bounds on a multi-node run's network. */
    static List<Limit> network(ResultSet set) {
        return set.ceilings().stream().map(c -> new Limit(c.label() + " (" + c.link() + ")", c.busBwGBps(), c.evidence())).toList();
    }

    /** The evidence lines of a run's likely causes, or the line that says the input shows none and what would show one. */
    static List<String> causes(Run run) {
        List<String> out = new ArrayList<>();
        for (Note n : run.causes()) {
            out.add("likely cause, " + n.kind() + ": " + n.text() + " (" + n.source() + "): " + n.kind().meaning());
        }
        if (out.isEmpty()) {
            out.add("the input shows no cause: give the run's NCCL_DEBUG=INFO output (transports, GPU Direct RDMA), "
                    + "nvidia-smi topo -m and -p2p r, or a capture of a node");
        }
        run.notes().stream().filter(n -> n.is(Note.Kind.UNREAD)).forEach(n -> out.add("not judged: " + n.text() + " (" + n.source() + ")"));
        return out;
    }

    /**
     * Why no sweep was judged against a baseline, or null when one was: each sweep with what was recognised of its
     * hardware and what is missing, so that the reader knows what to add (a whole nccl-tests output, a capture, a
     * bundle's hardware entry) or which entry is missing from configs/baselines.yaml.
     */
    static String noneJudged(ResultSet set, List<Judged> all) {
        if (noBaselines(set)) {
            return "no baselines file (configs/baselines.yaml, or --baselines FILE)";
        }
        if (all.isEmpty()) {
            return "no sweep among the inputs";
        }
        List<String> why = new ArrayList<>();
        for (Judged j : all) {
            Expectation.Verdict v = j.expectation().verdict();
            if (v != Expectation.Verdict.NO_BASELINE && v != Expectation.Verdict.TOO_SMALL) {
                return null;
            }
            why.add(j.run().describe() + ": " + j.expectation().why());
        }
        return "no published baseline applies: " + String.join(" | ", why);
    }

    /** Whether a file of baselines was given at all. */
    static boolean noBaselines(ResultSet set) {
        return set.baselines().baselines().isEmpty() && set.baselines().ceilings().isEmpty();
    }

    static String cite(Baselines.Baseline b) {
        return "\"" + b.quote() + "\" (" + b.source() + ")";
    }
}
