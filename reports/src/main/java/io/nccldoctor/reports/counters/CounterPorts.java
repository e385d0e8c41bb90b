package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** What the counter rules share: the ports to judge, or why none; number formats; the thresholds. */
final class CounterPorts {

    private CounterPorts() {
    }

    /** Why there is nothing to judge, if so. */
    static Optional<String> whyNone(CounterDelta d) {
        if (!d.ports().isValue()) {
            return Optional.of(d.ports().reason());
        }
        return d.ports().get().isEmpty() ? Optional.of("no RDMA port in both snapshots") : Optional.empty();
    }

    /**
     * Runs {@code perPort} on every port; waived when no port has any of {@code needed} (the counters do not exist
     * here: another NIC vendor, ethtool missing, an old driver), with the first port's reason.
     */
    static Outcome eachPort(CounterDelta d, List<CounterFigure> needed, Function<CounterDelta.PortDelta, List<Finding>> perPort) {
        Optional<String> none = whyNone(d);
        if (none.isPresent()) {
            return Outcome.waived(none.get());
        }
        List<CounterDelta.PortDelta> ports = d.ports().get();
        boolean known = ports.stream().anyMatch(p -> needed.stream().anyMatch(f -> p.figure(f).isValue()));
        if (!known) {
            return Outcome.waived(needed.get(0).counters().get(0) + ": " + ports.get(0).figure(needed.get(0)).reason());
        }
        List<Finding> found = new ArrayList<>();
        ports.forEach(p -> found.addAll(perPort.apply(p)));
        return Outcome.flag(found);
    }

    static long value(CounterDelta.PortDelta p, CounterFigure f) {
        return p.known(f).orElse(0L);
    }

    /** "rp_cnp_ignored +2,300,000", or "rp_cnp_ignored n/a (reason)". */
    static String line(CounterDelta.PortDelta p, CounterFigure f) {
        String name = f.counters().get(0).substring(f.counters().get(0).indexOf('/') + 1);
        return p.figure(f).fold(v -> name + " +" + num(v), why -> name + " n/a (" + why + ")");
    }

    static String num(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    static String dec(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }

    static String percent(double fraction) {
        return dec(100 * fraction) + " %";
    }

    static CounterThresholds thresholds(RuleContext ctx) {
        return ctx.config().thresholds().counters();
    }
}
