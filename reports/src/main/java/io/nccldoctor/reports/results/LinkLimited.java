package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The plateau sits at a link narrower than the NICs' line rate: that link, not the fabric, is the limit. */
public final class LinkLimited implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("LINK_LIMITED", Severity.WARN,
            "the bandwidth plateau sits at a link narrower than the NICs' line rate",
            "At large sizes a healthy sweep levels off at the narrowest link on its path. When that link is not the "
                    + "network but, say, the PCIe slot in front of a dual-port NIC (Gen4 x8 carries about 115 Gbit/s "
                    + "per direction for both 100G ports together), the measured plateau is the slot's ceiling and no "
                    + "tuning of NCCL moves it.",
            "each multi-node sweep's plateau (the median busbw of its three largest sizes) against the ceilings "
                    + "computed from the nodes' NIC port rates and PCIe links",
            "Move the NIC to a slot wired for its full width and generation (or a card that needs fewer lanes per port); "
                    + "otherwise judge results against this ceiling, not the NICs' line rate.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        Optional<Ceiling> narrowest = results.narrowest();
        Optional<Ceiling> line = results.ceilings().stream().filter(c -> c.kind() == Ceiling.Kind.LINE_RATE).findFirst();
        if (narrowest.isEmpty() || narrowest.get().kind() == Ceiling.Kind.LINE_RATE) {
            return narrowest.isEmpty() ? Outcome.waived("no ceiling known: give node captures or a bundle with ceilings")
                    : Outcome.pass();
        }
        Ceiling c = narrowest.get();
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            if (s.nodes().orElse(2) < 2 || s.rows().size() < 3) {
                continue;
            }
            List<NcclTestsOutput.Row> top = s.rows().subList(s.rows().size() - 3, s.rows().size());
            double plateau = SweepMath.median(top.stream().mapToDouble(SweepMath::busBw).toArray());
            if (Math.abs(plateau - c.busBwGBps()) > t.linkTolerance() * c.busBwGBps()) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            evidence.add("plateau " + SweepMath.gb(plateau) + " (median busbw of " + SweepMath.size(top.get(0).sizeBytes()) + " to "
                    + SweepMath.size(top.get(2).sizeBytes()) + ") in " + s.source());
            evidence.add(c.label() + ": " + SweepMath.gb(c.busBwGBps()) + " (" + c.link() + "); within " + SweepMath.pct(t.linkTolerance()));
            evidence.addAll(c.evidence());
            line.ifPresent(l -> evidence.add("the NICs' line rate would allow " + SweepMath.gb(l.busBwGBps()) + " (" + l.link() + ")"));
            found.add(finding(s.label(), SweepMath.describe(s) + " plateaus at " + SweepMath.gb(plateau) + ", the ceiling of "
                    + c.label() + " (" + c.link() + ")", evidence));
        }
        return Outcome.flag(found);
    }
}
