package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** The physical link erred during the run: symbol errors, recoveries, or the link went down. */
public final class LinkErrors implements CounterRule {

    static final List<CounterFigure> DOWN = List.of(CounterFigure.LINK_DOWNED, CounterFigure.LINK_DOWN_EVENTS);
    static final List<CounterFigure> ERRORS = List.of(CounterFigure.SYMBOL_ERRORS, CounterFigure.PCS_SYMBOL_ERRORS,
            CounterFigure.LINK_ERROR_RECOVERIES);

    static final RuleInfo INFO = new RuleInfo("COUNTER_LINK_ERRORS", Severity.ERROR,
            "the link had physical errors or went down during the run",
            "A link that goes down and comes back (link_downed, link_down_events_phy) stops every queue pair on it until "
                    + "it retrains, long enough for ACK timeouts and, with NCCL's retry count exhausted, a dead job. Symbol "
                    + "errors (symbol_error, rx_pcs_symbol_err_phy) and link error recoveries are the same fault before it "
                    + "goes that far: a dirty or damaged fibre, a failing transceiver, a cable beyond its reach. Symbol "
                    + "errors alone are a warning, a link that went down is an error. The IBA link_downed counter is 8 bits "
                    + "wide and saturates at 255: once there, it cannot show another flap (this tool says so instead of "
                    + "reporting 0).",
            "link_downed, link_error_recovery, symbol_error (counters) and link_down_events_phy, rx_pcs_symbol_err_phy "
                    + "(`ethtool -S`) over the interval: any is flagged",
            "Clean or replace the cable and transceiver of this port (and check the switch side: its port's error "
                    + "counters, `mlxlink -d DEV -c` for the BER); drain the node if the link went down; clear saturated "
                    + "counters (perfquery -x -R) so the next flap is counted.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        List<CounterFigure> all = new ArrayList<>(DOWN);
        all.addAll(ERRORS);
        return CounterPorts.eachPort(d, all, p -> {
            long downs = DOWN.stream().mapToLong(f -> CounterPorts.value(p, f)).max().orElse(0);
            long errors = ERRORS.stream().mapToLong(f -> CounterPorts.value(p, f)).max().orElse(0);
            if (downs == 0 && errors == 0) {
                return List.of();
            }
            List<String> evidence = new ArrayList<>(all.stream().map(f -> CounterPorts.line(p, f)).toList());
            evidence.add("port state now " + p.state().describe());
            return List.of(downs > 0
                    ? finding(p.label(), "the link went down " + CounterPorts.num(downs) + " time(s) during the run", evidence)
                    : finding(Severity.WARN, p.label(), CounterPorts.num(errors) + " physical-layer errors during the run", evidence));
        });
    }
}
