package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The world size an output implies when it has no device lines: nccl-tests prints busbw = algbw x factor(n), with
 * factor 2(n-1)/n for allreduce and (n-1)/n for allgather, reducescatter and alltoall (reference/nccl-internals.md
 * §1), and for gather, scatter and alltoallv (their GetBw functions in NVIDIA/nccl-tests src/gather.cu, scatter.cu and
 * alltoallv.cu). Both columns are rounded to two decimals, so the ratio pins n only while one integer fits them;
 * broadcast, reduce, sendrecv and hypercube (whose algbw already counts the n-1 peers, src/hypercube.cu) have factor 1
 * and say nothing.
 */
final class RanksFromBandwidth {

    /** The row used: the largest algbw, where the two decimals weigh least. */
    private static final double MIN_ALGBW = 1.0;
    /** busbw and algbw each round by up to 0.005: the largest error of algbw x factor against busbw. */
    private static final double ROUNDING = 0.005;

    private RanksFromBandwidth() {
    }

    static Fact<Integer> derive(String collective, List<NcclTestsOutput.Row> rows) {
        Optional<NcclTestsOutput.Row> best = best(rows);
        if (best.isEmpty()) {
            return Fact.absent("no row with an algbw of " + MIN_ALGBW + " GB/s or more to read the busbw factor from");
        }
        double alg = best.get().outOfPlace().algBwGBps();
        double bus = best.get().outOfPlace().busBwGBps();
        List<Integer> fits = new ArrayList<>();
        for (int n = 2; n <= 65536 && fits.size() < 2; n++) {
            Double f = factor(collective, n);
            if (f == null) {
                return Fact.absent(collective + " has busbw factor 1 (or none): busbw/algbw does not depend on the ranks");
            }
            if (Math.abs(alg * f - bus) <= ROUNDING * (1 + f) + 1e-9) {
                fits.add(n);
            }
        }
        if (fits.size() != 1) {
            return Fact.absent(fits.isEmpty() ? "busbw/algbw = " + String.format(Locale.ROOT, "%.4f", bus / alg) + " fits no world size"
                    : "busbw/algbw fits " + fits.get(0) + " and " + fits.get(1) + " ranks alike at two decimals");
        }
        return Fact.of(fits.get(0));
    }

    static String how(String collective, List<NcclTestsOutput.Row> rows) {
        NcclTestsOutput.Row r = best(rows).orElseThrow();
        return String.format(Locale.ROOT, "%.2f / %.2f GB/s at %d B", r.outOfPlace().busBwGBps(), r.outOfPlace().algBwGBps(), r.sizeBytes());
    }

    private static Optional<NcclTestsOutput.Row> best(List<NcclTestsOutput.Row> rows) {
        return rows.stream().filter(r -> r.outOfPlace().algBwGBps() >= MIN_ALGBW && Double.isFinite(r.outOfPlace().busBwGBps()))
                .max(Comparator.comparingDouble(r -> r.outOfPlace().algBwGBps()));
    }

    /** nccl-tests' busbw factor for n ranks; null for the collectives whose factor is 1. */
    static Double factor(String collective, int n) {
        return switch (collective) {
            case "allreduce" -> 2.0 * (n - 1) / n;
            case "allgather", "reducescatter", "alltoall", "gather", "scatter", "alltoallv" -> (double) (n - 1) / n;
            default -> null;
        };
    }
}
