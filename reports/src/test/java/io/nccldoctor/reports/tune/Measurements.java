package io.nccldoctor.reports.tune;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Synthetic measurements for the decision logic (not parser fixtures): runs of one collective on 2 ranks and 1 node,
 * busbw per size as given times a small spread per repetition (0.2 %), and what the TUNING lines would say NCCL ran.
 * What real runs look like is the end-to-end test's business (the stand-in NCCL, cli TuneEndToEndTest).
 */
final class Measurements {

    static final long[] SIZES = {1L << 17, 1L << 18, 1L << 19, 1L << 20, 1L << 21};

    private final List<TuneInputs.Measured> runs = new ArrayList<>();

    /** Adds {@code reps} runs of one setting: busbw[i] at SIZES[i]; logged[i] the "RING/SIMPLE" NCCL logged, null for no log. */
    Measurements add(String collective, Map<String, String> env, int reps, double[] busBw, String[] logged) {
        return add(collective, env, reps, busBw, logged, "2.28.3");
    }

    Measurements add(String collective, Map<String, String> env, int reps, double[] busBw, String[] logged, String version) {
        for (int rep = 0; rep < reps; rep++) {
            List<NcclTestsOutput.Row> rows = new ArrayList<>();
            Map<Long, Fact<Choice>> chosen = new LinkedHashMap<>();
            for (int i = 0; i < SIZES.length && i < busBw.length; i++) {
                if (Double.isNaN(busBw[i])) {
                    continue;
                }
                double bw = busBw[i] * (1 + 0.002 * rep);
                NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(SIZES[i] / (bw * 1e3), bw, bw, Fact.of(0L), Fact.absent("n/a"));
                rows.add(new NcclTestsOutput.Row(SIZES[i], SIZES[i] / 4, "float", Fact.of("sum"), Fact.of(-1), p, Fact.of(p)));
                chosen.put(SIZES[i], logged == null || logged[i] == null ? Fact.absent("no NCCL log") : Fact.of(choice(logged[i])));
            }
            String label = collective + " " + env;
            Sweep s = new Sweep(label, "synthetic/" + label + "/" + rep, "nccl-doctor sweep", Fact.of(collective), Fact.of(2), Fact.of(1),
                    new TreeMap<>(env), Fact.of(version), rows, Map.of(), rep);
            runs.add(new TuneInputs.Measured(s, chosen, Fact.of("/opt/nccl/lib/libnccl.so.2")));
        }
        return this;
    }

    /** The last added setting's runs counted {@code wrong} wrong elements out-of-place at this size, each. */
    Measurements wrong(long size, long wrong) {
        String env = runs.get(runs.size() - 1).sweep().env().toString();
        for (int i = 0; i < runs.size(); i++) {
            TuneInputs.Measured m = runs.get(i);
            if (!m.sweep().env().toString().equals(env)) {
                continue;
            }
            Sweep s = m.sweep();
            List<NcclTestsOutput.Row> rows = s.rows().stream().map(r -> r.sizeBytes() != size ? r : new NcclTestsOutput.Row(r.sizeBytes(),
                    r.count(), r.type(), r.redop(), r.root(), new NcclTestsOutput.Placement(r.outOfPlace().timeUs(), r.outOfPlace().algBwGBps(),
                    r.outOfPlace().busBwGBps(), Fact.of(wrong), Fact.absent("n/a")), r.inPlace())).toList();
            runs.set(i, new TuneInputs.Measured(new Sweep(s.label(), s.source(), s.tool(), s.collective(), s.ranks(), s.nodes(), s.env(),
                    s.ncclVersion(), rows, s.aligned(), s.repeat()), m.chosen(), m.library()));
        }
        return this;
    }

    private static Choice choice(String logged) {
        String[] ap = logged.split("/");
        return new Choice(TunerNames.fromLogged(TunerNames.ALGORITHMS, ap[0]).orElseThrow(),
                TunerNames.fromLogged(TunerNames.PROTOCOLS, ap[1]).orElseThrow(), -1);
    }

    static String[] all(String logged) {
        String[] out = new String[SIZES.length];
        Arrays.fill(out, logged);
        return out;
    }

    static double[] all(double v) {
        double[] out = new double[SIZES.length];
        Arrays.fill(out, v);
        return out;
    }

    TuneInputs.Read read() {
        return new TuneInputs.Read(runs, List.of());
    }
}
