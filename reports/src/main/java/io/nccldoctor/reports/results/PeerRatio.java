package io.nccldoctor.reports.results;

import io.nccldoctor.reports.baseline.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One run against another at the sizes they share from minBytes up (measured by both, or read between one run's
 * sizes: {@link SizeCurve}); busbw that rounds to zero is left out.
 *
 * @param median       the median of slow / best over those sizes
 * @param interpolated "3 GiB (A, between 2.53 GiB and 7.59 GiB)": the sizes one of the runs did not measure
 */
record PeerRatio(double median, int sizes, long from, long to, double slowAtLargest, double bestAtLargest, List<String> interpolated) {

    static Optional<PeerRatio> of(Run slow, Run best, long minBytes, double maxFactor) {
        List<SizeCurve.Point[]> shared = SizeCurve.of(slow.rows()).shared(SizeCurve.of(best.rows()), maxFactor).stream()
                .filter(p -> p[0].sizeBytes() >= minBytes && p[0].busBwGBps() >= SweepMath.ZERO && p[1].busBwGBps() >= SweepMath.ZERO)
                .toList();
        if (shared.isEmpty()) {
            return Optional.empty();
        }
        double[] ratios = shared.stream().mapToDouble(p -> p[0].busBwGBps() / p[1].busBwGBps()).toArray();
        List<String> interpolated = new ArrayList<>();
        for (SizeCurve.Point[] p : shared) {
            for (int side = 0; side < 2; side++) {
                if (p[side].interpolated()) {
                    interpolated.add(SweepMath.size(p[side].sizeBytes()) + " ('" + (side == 0 ? slow.label() : best.label()) + "', between "
                            + SweepMath.size(p[side].from().get(0)) + " and " + SweepMath.size(p[side].from().get(1)) + ")");
                }
            }
        }
        SizeCurve.Point[] last = shared.get(shared.size() - 1);
        return Optional.of(new PeerRatio(SweepMath.median(ratios), shared.size(), shared.get(0)[0].sizeBytes(), last[0].sizeBytes(),
                last[0].busBwGBps(), last[1].busBwGBps(), interpolated));
    }
}
