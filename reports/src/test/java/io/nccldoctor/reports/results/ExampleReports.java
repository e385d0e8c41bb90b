package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** The shipped example bundle, judged as `nccl-doctor report` judges it (the CLI's probes over its capture). */
public final class ExampleReports {

    public static final Path EXAMPLE = Path.of("../configs/examples/field-report-cluster");

    private ExampleReports() {
    }

    public static Report example() {
        List<Probe<?>> probes = List.of(new PlatformProbe(), new PciInventoryProbe(), new NvidiaDriverProbe(), new LibrariesProbe(),
                new RdmaProbe(), new GdrHostProbe(), new GpuProbe());
        ResultSet data = new ResultInputs(dir -> Snapshots.take(Capture.open(dir).host(), probes, List.of("report"), "test",
                Clock.systemUTC())).read(List.of(EXAMPLE.toString()), "2026-11-30T00:00:00Z");
        return Reports.judge(data, Registry.nodeRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }
}
