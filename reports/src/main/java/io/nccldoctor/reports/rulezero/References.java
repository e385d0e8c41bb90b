package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finds the reference busbw for a suspect size: the same collective and world size, then the row or the rows around it. */
final class References {

    /** nccl-tests prints busbw with two decimals: below this it is a rounded zero (tiny sizes), not a figure to divide by. */
    static final double ROUNDED_ZERO = 0.005;

    private References() {
    }

    static Fact<ReferenceMatch> match(SuspectRow r, Audit a, List<Sweep> references) {
        List<Sweep> same = references.stream().filter(s -> s.collective().orElse("").equals(r.collective())
                && s.ranks().orElse(0) == r.ranks()).toList();
        if (same.isEmpty()) {
            return Fact.absent("no reference sweep of " + r.collective() + " on " + Fmt.ranks(r.ranks()) + given(references));
        }
        for (Sweep s : same) {
            Optional<ReferenceMatch> m = match(r, a, s);
            if (m.isPresent()) {
                if (m.get().busBwGBps() < ROUNDED_ZERO) {
                    return Fact.absent(m.get().how() + " prints a busbw of 0.00 GB/s: too small a size to compare");
                }
                return Fact.of(m.get());
            }
        }
        return Fact.absent(SizeLabels.format(r.bytes()) + " lies outside the sizes of " + same.stream().map(References::range)
                .collect(Collectors.joining(", ")) + ", and nccl-tests' own size for this count (" + Fmt.grouped(a.ncclTestsBytes())
                + " B) was not run");
    }

    private static String given(List<Sweep> references) {
        if (references.isEmpty()) {
            return ": none was given";
        }
        return " (given: " + references.stream().map(s -> "'" + s.label() + "' " + s.collective().orElse("collective unknown") + " on "
                + s.ranks().map(Fmt::ranks).orElse("? ranks")).collect(Collectors.joining(", ")) + ")";
    }

    private static String range(Sweep s) {
        List<NcclTestsOutput.Row> rows = usable(s);
        return "'" + s.label() + "' (" + (rows.isEmpty() ? "no sizes above 0 B" : SizeLabels.format(rows.get(0).sizeBytes()) + " to "
                + SizeLabels.format(rows.get(rows.size() - 1).sizeBytes())) + ")";
    }

    /** Rows with bytes, by size, the first of each size; rows a run marked misaligned are no reference. */
    static List<NcclTestsOutput.Row> usable(Sweep s) {
        List<NcclTestsOutput.Row> out = new ArrayList<>();
        s.rows().stream().filter(x -> x.sizeBytes() > 0 && s.aligned().getOrDefault(x.sizeBytes(), true)
                        && Double.isFinite(x.outOfPlace().busBwGBps()))
                .sorted(Comparator.comparingLong(NcclTestsOutput.Row::sizeBytes)).forEach(x -> {
                    if (out.isEmpty() || out.get(out.size() - 1).sizeBytes() != x.sizeBytes()) {
                        out.add(x);
                    }
                });
        return out;
    }

    /** The same size; else nccl-tests' row for the same request; else the two rows around it; else none. */
    private static Optional<ReferenceMatch> match(SuspectRow r, Audit a, Sweep s) {
        List<NcclTestsOutput.Row> rows = usable(s);
        String name = s.tool() + " '" + s.label() + "'";
        double peak = rows.stream().mapToDouble(References::busBw).max().orElse(0);
        for (NcclTestsOutput.Row x : rows) {
            if (x.sizeBytes() == r.bytes()) {
                return Optional.of(new ReferenceMatch(ReferenceMatch.Kind.SAME_SIZE, s.label(), s.source(), x.type(), busBw(x), peak,
                        List.of(x.sizeBytes()), name + " at the same size, " + Fmt.size(x.sizeBytes()) + types(r, x)));
            }
        }
        for (NcclTestsOutput.Row x : rows) {
            if (x.sizeBytes() == a.ncclTestsBytes()) {
                return Optional.of(new ReferenceMatch(ReferenceMatch.Kind.SAME_REQUEST, s.label(), s.source(), x.type(), busBw(x), peak,
                        List.of(x.sizeBytes()), name + " at " + Fmt.size(x.sizeBytes()) + ", its row for the same request: the count "
                        + "trimmed to " + Fmt.grouped(a.asNcclTests().count()) + " elements" + types(r, x)));
            }
        }
        for (int i = 0; i + 1 < rows.size(); i++) {
            NcclTestsOutput.Row lo = rows.get(i);
            NcclTestsOutput.Row hi = rows.get(i + 1);
            if (lo.sizeBytes() < r.bytes() && r.bytes() < hi.sizeBytes()) {
                double f = (log2(r.bytes()) - log2(lo.sizeBytes())) / (log2(hi.sizeBytes()) - log2(lo.sizeBytes()));
                double v = Fmt.round4(busBw(lo) + (busBw(hi) - busBw(lo)) * f);
                return Optional.of(new ReferenceMatch(ReferenceMatch.Kind.INTERPOLATED, s.label(), s.source(), lo.type(), v, peak,
                        List.of(lo.sizeBytes(), hi.sizeBytes()), "interpolated in log2(size) between " + name + " at "
                        + SizeLabels.format(lo.sizeBytes()) + " (" + Fmt.gb(busBw(lo)) + ") and " + SizeLabels.format(hi.sizeBytes())
                        + " (" + Fmt.gb(busBw(hi)) + ")" + types(r, lo)));
            }
        }
        return Optional.empty();
    }

    /** A note when the reference ran another element type: bytes are compared, but reductions cost more per byte on some. */
    private static String types(SuspectRow r, NcclTestsOutput.Row x) {
        String theirs;
        try {
            theirs = DataType.parse(x.type()).ncclTestsName();
        } catch (InputException e) {
            theirs = x.type();
        }
        return theirs.equals(r.dtype()) ? "" : "; nccl-tests ran " + x.type() + ", the suspect " + r.dtype();
    }

    private static double busBw(NcclTestsOutput.Row x) {
        return x.outOfPlace().busBwGBps();
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }
}
