package io.nccldoctor.reports.counters;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.gdr.CounterRates;
import io.nccldoctor.gdr.ForegroundCommand;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.chart.SizeLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code nccl-doctor counters} for people: one block per port, the rails' CV, then the findings. */
public final class CounterText {

    private final StringBuilder out = new StringBuilder();
    private final String plus;
    private final CounterRates rates;
    /** The deltas the rates are read from; null for a single snapshot. */
    private final CounterDelta d;

    private CounterText(String plus, CounterThresholds t, CounterDelta d) {
        this.plus = plus;
        this.rates = new CounterRates(t.minWindowSeconds(), t.lineRateTolerance());
        this.d = d;
    }

    /** With the default thresholds of configs/rules.yaml. */
    public static String render(CounterReport r) {
        return render(r, CounterThresholds.DEFAULTS);
    }

    /** @param t the window and line-rate bounds under which a delta is printed as a rate */
    public static String render(CounterReport r, CounterThresholds t) {
        if (r.delta() == null) {
            CounterText text = new CounterText("", t, null);
            text.line("RDMA port counters - " + r.source() + " - " + r.snapshot().takenAt() + " (read in " + r.snapshot().readingMs()
                    + " ms); totals since the driver loaded or the counters were cleared");
            text.line("");
            if (!r.snapshot().ports().isValue()) {
                text.line("  " + r.snapshot().ports().reason());
            }
            CounterDelta.totals(r.snapshot()).forEach(p -> text.port(p, Fact.absent("a snapshot")));
            text.line("Run it around a job to see what the job did: nccl-doctor counters --during -- CMD ARGS");
            return text.out.toString();
        }
        CounterDelta d = r.delta();
        CounterText text = new CounterText("+", t, d);
        text.line("RDMA counters over " + d.seconds().fold(s -> String.format(Locale.ROOT, "%.2f s", s), why -> "an unknown interval")
                + " - " + r.source());
        if (r.command() != null) {
            text.line("Command: " + String.join(" ", r.command().argv()) + ": " + outcome(r.command()));
        }
        text.line("");
        if (!d.ports().isValue()) {
            text.line("  " + d.ports().reason());
        }
        d.ports().orElse(List.of()).forEach(p -> text.port(p, d.seconds()));
        text.line("Rails: " + d.txBytesCv().fold(cv -> String.format(Locale.ROOT, "Tx bytes CV %.3f over %d ports (0 is perfectly even)",
                cv, d.ports().get().size()), why -> "Tx bytes CV n/a (" + why + ")"));
        d.notes().forEach(n -> text.line("Note: " + n));
        text.line("");
        text.findings(r.findings(), r.notChecked());
        return text.out.toString();
    }

    static String outcome(ForegroundCommand.Result c) {
        String took = String.format(Locale.ROOT, "%.1f s", c.durationMs() / 1000.0);
        return c.exitCode().fold(code -> (code == 0 ? "exit 0" : "FAILED, exit " + code) + " after " + took, why -> "FAILED, " + why);
    }

    private void port(CounterDelta.PortDelta p, Fact<Double> seconds) {
        line("  " + p.label() + "  " + p.state().orElse("?") + "  " + p.linkLayer().orElse("?") + "  "
                + p.rateGbps().fold(r -> dec(r) + " Gb/s", why -> "rate ?") + "  "
                + (p.netdevs().isEmpty() ? "(no ethtool -S)" : String.join(", ", p.netdevs())));
        field("bytes", "Tx " + bytes(p, CounterFigure.TX_BYTES, seconds) + "; Rx " + bytes(p, CounterFigure.RX_BYTES, seconds));
        if (seconds.isValue() && d != null) {
            rates.of(d, p).stream().filter(CounterRates.Rate::inconsistent)
                    .forEach(x -> field("note", x.direction() + " is no rate: " + x.gbps().reason()));
        }
        List<String> pauses = new ArrayList<>();
        for (CounterDelta.PriorityPauses pp : p.pfc()) {
            pauses.add("prio " + pp.priority() + " rx " + n(pp.rxPauses()) + ms(pp.rxPauseUs()) + ", tx " + n(pp.txPauses()) + ms(pp.txPauseUs()));
        }
        pauses.add("global rx " + n(p.figure(CounterFigure.RX_GLOBAL_PAUSES)) + ", tx " + n(p.figure(CounterFigure.TX_GLOBAL_PAUSES)));
        pauses.add("storms " + n(p.figure(CounterFigure.PAUSE_STORM_ERRORS)) + " (warnings " + n(p.figure(CounterFigure.PAUSE_STORM_WARNINGS)) + ")");
        field("pauses", String.join("; ", pauses));
        field("ECN/CNP", "ECN-marked " + n(p, CounterFigure.ECN_MARKED) + "; CNP sent " + n(p, CounterFigure.CNP_SENT) + ", handled "
                + n(p, CounterFigure.CNP_HANDLED) + ", ignored " + n(p, CounterFigure.CNP_IGNORED));
        field("transport", "out of sequence " + n(p, CounterFigure.OUT_OF_SEQUENCE) + "; NAK seq errors " + n(p, CounterFigure.PACKET_SEQ_ERRORS)
                + "; retransmissions " + n(p, CounterFigure.RETRANSMISSIONS) + " (timeouts " + n(p, CounterFigure.RETRANSMISSION_TIMEOUTS)
                + "); ACK timeouts " + n(p, CounterFigure.ACK_TIMEOUTS) + "; RNR NAK retries " + n(p, CounterFigure.RNR_NAK_RETRIES));
        field("drops", "out_of_buffer " + n(p, CounterFigure.OUT_OF_BUFFER) + "; rx_discards_phy " + n(p, CounterFigure.RX_DISCARDS_PHY)
                + "; tx_discards_phy " + n(p, CounterFigure.TX_DISCARDS_PHY) + "; port_xmit_discards " + n(p, CounterFigure.XMIT_DISCARDS));
        field("link", "symbol errors " + n(p, CounterFigure.SYMBOL_ERRORS) + " (PCS " + n(p, CounterFigure.PCS_SYMBOL_ERRORS)
                + "); recoveries " + n(p, CounterFigure.LINK_ERROR_RECOVERIES) + "; link downed " + n(p, CounterFigure.LINK_DOWNED)
                + "; link down events " + n(p, CounterFigure.LINK_DOWN_EVENTS));
        p.notes().forEach(note -> field("note", note));
        line("");
    }

    /** "10.71 GiB (92.00 Gbit/s, 92 % of 100 Gb/s)" over an interval; the bare size for a snapshot. */
    private String bytes(CounterDelta.PortDelta p, CounterFigure f, Fact<Double> seconds) {
        Fact<Long> b = p.figure(f);
        if (!b.isValue()) {
            return "n/a";
        }
        String size = plus + SizeLabels.format(b.get());
        if (!seconds.isValue() || d == null) {
            return size;
        }
        String dir = f == CounterFigure.TX_BYTES ? "Tx" : "Rx";
        CounterRates.Rate rate = rates.of(d, p).stream().filter(x -> x.direction().equals(dir)).findFirst().orElseThrow();
        if (!rate.gbps().isValue()) {
            return size + " (" + (rate.inconsistent() ? "inconsistent: no rate" : "no rate") + ")";
        }
        double gbps = rate.gbps().get();
        return size + " (" + dec(gbps) + " Gbit/s" + rate.ofLineRate().fold(x -> ", " + String.format(Locale.ROOT, "%.0f", 100 * x)
                + " % of line rate", why -> "") + ")";
    }

    private String n(CounterDelta.PortDelta p, CounterFigure f) {
        return n(p.figure(f));
    }

    /** A count with its sign over an interval, "n/a" when there is none (the notes and --json say why). */
    private String n(Fact<Long> v) {
        return v.fold(x -> plus + String.format(Locale.ROOT, "%,d", x), why -> "n/a");
    }

    private static String ms(Fact<Long> us) {
        return us.fold(v -> " (" + dec(v / 1000.0) + " ms)", why -> "");
    }

    private static String dec(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v);
    }

    private void findings(List<Finding> findings, List<Evaluation.NotChecked> notChecked) {
        if (findings.isEmpty()) {
            line("Findings: none");
        } else {
            line("Findings");
            for (Finding f : findings) {
                line("  " + String.format(Locale.ROOT, "%-6s", f.severity().label().toUpperCase(Locale.ROOT)) + f.code() + "  "
                        + f.subject() + ": " + f.title());
                f.evidence().forEach(e -> line("        - " + e));
                line("        fix: " + f.remedy());
            }
        }
        if (!notChecked.isEmpty()) {
            line("");
            line("Not checked");
            notChecked.forEach(n -> line("  " + String.format(Locale.ROOT, "%-34s", n.code()) + " " + n.reason()));
        }
    }

    private void field(String label, String value) {
        line("    " + String.format(Locale.ROOT, "%-10s", label) + value);
    }

    private void line(String s) {
        out.append(s.stripTrailing()).append('\n');
    }
}
