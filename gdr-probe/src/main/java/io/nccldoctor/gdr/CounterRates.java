package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Counter deltas read as rates, only where the measurement can be true. Bytes a port counted over a window cannot
 * exceed what its link carries in that window (port_xmit_data counts data octets / 4, never more than the line rate);
 * a delta that does means the two snapshots do not bound the traffic counted (counters refreshed on their own clock,
 * a window shorter than that refresh, a counter reset or wrapped in between), and it is an inconsistent measurement,
 * never a rate. A window shorter than {@code minWindowSeconds} is one too: drivers that refresh statistics periodically
 * make a short window count a refresh, not the traffic (bnxt_en: {@code #define BNXT_DEF_STATS_COAL_TICKS 1000000},
 * µs, drivers/net/ethernet/broadcom/bnxt/bnxt.h: firmware pushes the statistics once a second by default).
 *
 * @param minWindowSeconds a window shorter than this is no measurement of a rate
 * @param tolerance        bytes above the line rate x window by more than this fraction cannot be true (the window is
 *                         taken between the starts of two readings that each take some milliseconds)
 */
public record CounterRates(double minWindowSeconds, double tolerance) {

    /** One port's bytes in one direction as a rate, or why the counters do not give one. */
    public record Rate(String port, String direction, long bytes, Fact<Double> gbps, Fact<Double> ofLineRate, boolean inconsistent) {
    }

    /** Tx and Rx of one port: the rate, or the reason there is none; inconsistent when the numbers contradict physics. */
    public List<Rate> of(CounterDelta d, CounterDelta.PortDelta p) {
        List<Rate> out = new ArrayList<>();
        for (CounterFigure f : List.of(CounterFigure.TX_BYTES, CounterFigure.RX_BYTES)) {
            String dir = f == CounterFigure.TX_BYTES ? "Tx" : "Rx";
            Fact<Long> bytes = p.figure(f);
            if (!bytes.isValue()) {
                continue;
            }
            out.add(rate(d.seconds(), p, dir, bytes.get()));
        }
        return out;
    }

    private Rate rate(Fact<Double> seconds, CounterDelta.PortDelta p, String dir, long bytes) {
        if (!seconds.isValue()) {
            return new Rate(p.label(), dir, bytes, Fact.absent(seconds.reason()), Fact.absent(seconds.reason()), false);
        }
        double s = seconds.get();
        if (s < minWindowSeconds) {
            String why = String.format(Locale.ROOT, "a %.3f s window is shorter than the %.1f s in which drivers refresh their "
                    + "statistics (bnxt_en's default, 1 s): the delta counts refreshes, not traffic", s, minWindowSeconds);
            return new Rate(p.label(), dir, bytes, Fact.absent(why), Fact.absent(why), bytes > 0);
        }
        double gbps = bytes * 8 / s / 1e9;
        if (!p.rateGbps().isValue()) {
            return new Rate(p.label(), dir, bytes, Fact.of(gbps), Fact.absent("the port's rate is unknown: " + p.rateGbps().reason()), false);
        }
        double line = p.rateGbps().get();
        if (gbps > line * (1 + tolerance)) {
            String why = String.format(Locale.ROOT, "%,d bytes in %.3f s would be %.1f Gbit/s, %.0f %% of the %.0f Gb/s line rate: "
                    + "more than the link can carry, so the counters and this window do not belong together (a window shorter than "
                    + "the counters' refresh, counters read on another clock, or a reset between the snapshots)", bytes, s, gbps,
                    100 * gbps / line, line);
            return new Rate(p.label(), dir, bytes, Fact.absent(why), Fact.absent(why), true);
        }
        return new Rate(p.label(), dir, bytes, Fact.of(gbps), Fact.of(gbps / line), false);
    }
}
