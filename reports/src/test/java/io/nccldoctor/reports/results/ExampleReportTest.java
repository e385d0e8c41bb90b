package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.html.HtmlReport;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped example bundle shows every pattern and every chart, and renders fast. */
class ExampleReportTest {

    static Report example() {
        return ExampleReports.example();
    }

    @Test
    void everyPatternFires() {
        Report r = example();
        assertThat(r.data().example()).isTrue();
        assertThat(r.data().sweeps()).hasSize(10);
        List<String> codes = r.findings().stream().map(Finding::code).distinct().toList();
        assertThat(codes).contains("CONSTANT_CEILING", "LINK_LIMITED", "FAR_BELOW_EXPECTED", "DATA_CORRUPTION", "PROTOCOL_PATHOLOGY",
                "ALIGNMENT_CLIFF", "INPLACE_DIVERGENCE", "UNSTABLE_RESULTS", "LINK_IMBALANCE", "SINGLE_RANK", "GDR_READ_ASYMMETRY");
        assertThat(r.verdict()).isEqualTo("FAIL");
        Finding protocol = r.findings().stream().filter(f -> f.code().equals("PROTOCOL_PATHOLOGY")).findFirst().orElseThrow();
        assertThat(protocol.title()).isEqualTo("allgather runs at 21 % of allreduce; NCCL_PROTO=LL128 lifts it 3.54x");
        assertThat(r.data().ceilings()).extracting(Ceiling::label).containsExactly("arrowlake-ws: NIC line rate", "arrowlake-ws: NIC PCIe link");
        assertThat(r.data().narrowest().orElseThrow().busBwGBps()).isCloseTo(7.2, org.assertj.core.data.Offset.offset(0.01));
        Finding asym = r.findings().stream().filter(f -> f.code().equals("GDR_READ_ASYMMETRY")).findFirst().orElseThrow();
        assertThat(asym.title()).contains("43.6 Gbit/s").contains("Arrow Lake");
        assertThat(r.data().ncclLogs()).hasSize(3);
        Finding noGdr = r.findings().stream().filter(f -> f.code().equals("NCCL_NO_GDRDMA")).findFirst().orElseThrow();
        assertThat(noGdr.subject()).as("only the Arrow Lake node's log").endsWith("nccl.arrowlake-ws.2303.log");
        assertThat(noGdr.evidence()).contains("GPU 2 / NIC 0: distance 8 > 5");
        Finding disagree = r.findings().stream().filter(f -> f.code().equals("NCCL_PROCESSES_DISAGREE")).findFirst().orElseThrow();
        assertThat(disagree.evidence().get(0)).startsWith("GPUDirect RDMA on the network channels differs: used in 2 files; not used in ")
                .contains("nccl.arrowlake-ws.2303.log");
    }

    @Test
    void everyChartIsThere() {
        Report r = example();
        Map<String, ?> charts = ReportCharts.all(r, ResultThresholds.DEFAULTS);
        assertThat(charts).containsKeys("busbw", "busbw-allreduce", "busbw-allgather", "busbw-broadcast", "aligned", "nic-reads-arrowlake-ws", "nic-writes-arrowlake-ws",
                "paths-arrowlake-ws", "traffic", "traffic-2");
    }

    /** The job's NCCL logs get a section of their own in HTML, Markdown and text, healthy ones too. */
    @Test
    void theLogsAreListed() {
        Report r = example();
        String row = "nccl.arrowlake-ws.2303.log";
        String says = "NCCL 2.28.3, Using network IB, 4 via NET/IB/0, 4 via NET/IB/1";
        assertThat(HtmlReport.render(r, ResultThresholds.DEFAULTS)).contains("<section id=\"nccl-logs\"><h2>NCCL logs</h2>").contains(says);
        assertThat(io.nccldoctor.reports.render.MarkdownReport.render(r)).contains("## NCCL logs").contains(row + " | " + says + " | 1 | 0 |");
        assertThat(ReportText.render(r)).contains("NCCL logs\n").contains(row + ": " + says + "\n");
    }

    /** Done when: rendering the example report takes under 2 s in a warm JVM. */
    @Test
    void rendersInUnderTwoSecondsWarm() {
        Report r = example();
        HtmlReport.render(r, ResultThresholds.DEFAULTS); // warm: fonts, XChart, the JIT
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t0 = System.nanoTime();
            String html = HtmlReport.render(r, ResultThresholds.DEFAULTS);
            best = Math.min(best, System.nanoTime() - t0);
            assertThat(html).contains("EXAMPLE DATA");
        }
        System.out.printf("example report: HTML rendered in %d ms (best of 3, warm JVM)%n", best / 1_000_000);
        assertThat(best / 1e9).isLessThan(2.0);
    }
}
