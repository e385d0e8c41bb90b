package io.nccldoctor.reports.compare;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Synthetic runs for the comparison tests: nccl-tests-like sweeps with busbw rounded to two decimals. */
final class Runs {

    private Runs() {
    }

    /** 8 B, 32 B … 8 GiB: every other power of two, as -f 4 would. */
    static List<Long> sizes() {
        List<Long> s = new ArrayList<>();
        for (long b = 8; b <= 1L << 33; b *= 4) {
            s.add(b);
        }
        return s;
    }

    /**
     * busbw of a latency-plus-bandwidth model: time = latency + bytes / peak, so small sizes are latency-bound (the
     * same for both arms when the latency is) and large sizes reach peak. {@code noise} multiplies every size's value
     * of this run; nccl-tests then prints two decimals.
     */
    static double busBw(long bytes, double peakGBps, double latencyUs, double noise) {
        double timeUs = latencyUs + bytes / (peakGBps * 1e3);
        return Math.round(bytes / (timeUs * 1e3) * noise * 100) / 100.0;
    }

    static Sweep sweep(String label, String collective, Map<String, String> env, String version, int ranks, int repeat,
                       double peakGBps, double latencyUs, double noise) {
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        for (long b : sizes()) {
            double bw = busBw(b, peakGBps, latencyUs, noise);
            double time = latencyUs + b / (peakGBps * 1e3);
            NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(time, bw, bw, Fact.of(0L), Fact.absent("#wrong layout"));
            rows.add(new NcclTestsOutput.Row(b, Math.max(1, b / 4), "float", Fact.of("sum"), Fact.of(-1), p, Fact.of(p)));
        }
        return new Sweep(label, label + "-" + (repeat + 1) + ".txt", "nccl-tests", Fact.of(collective), Fact.of(ranks), Fact.of(2), env,
                Fact.of(version), rows, Map.of(), repeat);
    }

    /** The 2 % run-to-run scatter of A's repeats, and a different one for B's. */
    static final double[] NOISE_A = {0.98, 1.00, 1.02};
    static final double[] NOISE_B = {1.01, 0.99, 1.00};

    /** allgather at 18.5 Gbit/s (the field report's NCCL 2.28) in three runs, allreduce unchanged, one NCCL_PROTO=Simple run. */
    static List<Sweep> before(String name) {
        List<Sweep> s = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            s.add(sweep(name + "-allgather", "allgather", Map.of(), "2.28.3", 16, r, 18.5 / 8, 20, NOISE_A[r]));
        }
        for (int r = 0; r < 3; r++) {
            s.add(sweep(name + "-allreduce", "allreduce", Map.of(), "2.28.3", 16, r, 40, 30, NOISE_A[r]));
        }
        s.add(sweep(name + "-allgather-simple", "allgather", Map.of("NCCL_PROTO", "Simple"), "2.28.3", 16, 0, 18.5 / 8, 20, 1));
        return s;
    }

    /** The same after the NCCL 2.30.7 fix: allgather at 91 Gbit/s, the rest as before. */
    static List<Sweep> after(String name) {
        List<Sweep> s = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            s.add(sweep(name + "-allgather", "allgather", Map.of(), "2.30.7", 16, r, 91.0 / 8, 20, NOISE_B[r]));
        }
        for (int r = 0; r < 3; r++) {
            s.add(sweep(name + "-allreduce", "allreduce", Map.of(), "2.30.7", 16, r, 40, 30, NOISE_B[r]));
        }
        s.add(sweep(name + "-allgather-simple", "allgather", Map.of("NCCL_PROTO", "Simple"), "2.30.7", 16, 0, 91.0 / 8, 20, 1));
        return s;
    }

    static Comparison fieldReport() {
        return Comparison.of("NCCL 2.28", before("a"), "NCCL 2.30.7", after("b"), null);
    }
}
