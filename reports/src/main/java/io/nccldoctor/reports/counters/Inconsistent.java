package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterRates;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Counter deltas that cannot be a measurement of this window: above line rate, backwards, or a window too short. */
public final class Inconsistent implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_INCONSISTENT", Severity.WARN,
            "the counters do not measure this window: the deltas are no rate",
            "A port cannot carry more bytes than its line rate allows in the window between two readings. When the counters "
                    + "say it did (\"734 % of line rate\"), the window and the counters do not belong together: the driver "
                    + "refreshes its statistics on its own clock and the window was shorter than that refresh, the readings "
                    + "came from different moments, or a counter was reset or wrapped between them. A counter that went "
                    + "backwards is the same fault. Such deltas are reported as inconsistent, never as a rate; the fabric rules "
                    + "that divide by the window are not to be trusted either.",
            "per port, Tx and Rx bytes (port_xmit_data and port_rcv_data x 4) against the port's rate x the window; the window "
                    + "against thresholds.counters.minWindowSeconds; counters that went backwards",
            "Read over a longer window (--interval 10, or a command that runs for seconds), on a node that carries nothing "
                    + "else; do not clear counters (perfquery -R) while reading; if it persists, compare with the switch port's "
                    + "counters for the same interval.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta delta, RuleContext context) {
        if (!delta.ports().isValue()) {
            return Outcome.waived(delta.ports().reason());
        }
        CounterThresholds t = context.config().thresholds().counters();
        CounterRates rates = new CounterRates(t.minWindowSeconds(), t.lineRateTolerance());
        List<Finding> found = new ArrayList<>();
        for (CounterDelta.PortDelta p : delta.ports().get()) {
            List<String> evidence = new ArrayList<>();
            for (CounterRates.Rate r : rates.of(delta, p)) {
                if (r.inconsistent()) {
                    evidence.add(r.direction() + ": " + r.gbps().reason());
                }
            }
            p.notes().stream().filter(n -> n.contains("went backwards")).forEach(evidence::add);
            if (!evidence.isEmpty()) {
                evidence.add("window: " + delta.seconds().fold(s -> String.format(Locale.ROOT, "%.3f s", s), why -> why));
                found.add(new Finding(INFO.code(), INFO.severity(), p.label(), "the counters of " + p.label()
                        + " do not measure this window: an inconsistent measurement, not a rate", evidence, INFO.remedy()));
            }
        }
        return Outcome.flag(found);
    }
}
