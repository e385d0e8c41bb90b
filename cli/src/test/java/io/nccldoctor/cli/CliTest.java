package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.reference.NcclDebugCapture;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.NetworkCheck;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.cluster.Cluster;
import io.nccldoctor.reports.counters.CounterRules;
import io.nccldoctor.reports.results.Reports;
import io.nccldoctor.reports.rules.Registry;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI as a user meets it: verbs, exit codes, one-line errors, and capture/replay on this machine. */
class CliTest {

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void unknownFlagIsAUsageErrorWithPicocliMessage() {
        Run r = run("preflight", "--bogus");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("nccl-doctor: Unknown option: '--bogus'");
    }

    @Test
    void fromANonexistentFolderIsOneLineAndExit2() {
        Run r = run("preflight", "--from", "/nonexistent/capture");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").contains("--from /nonexistent/capture: no such folder");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aCorruptManifestIsExit2NamingTheFile() throws Exception {
        Path cap = tmp.resolve("cap");
        assertThat(run("capture", "-o", cap.toString()).code()).isZero();
        Files.writeString(cap.resolve("manifest.json"), "{ \"formatVersion\": 1, \"toolVersion\": ");
        Run r = run("preflight", "--from", cap.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(cap.resolve("manifest.json").toString()).doesNotContain("Exception\n\tat");
    }

    @Test
    void captureThenReplayGivesTheSameFactsAndFindings() throws Exception {
        Path cap = tmp.resolve("node");
        Run c = run("capture", "-o", cap.toString());
        assertThat(c.code()).isZero();
        assertThat(c.out()).contains("replay with: nccl-doctor preflight --from " + cap);
        Run live = run("preflight", "--json");
        Run replay = run("preflight", "--from", cap.toString(), "--json");
        assertThat(live.code()).isIn(0, 1);
        assertThat(replay.code()).isEqualTo(live.code());
        JsonNode a = Json.mapper().readTree(live.out());
        JsonNode b = Json.mapper().readTree(replay.out());
        assertThat(b.at("/snapshot/sections")).as("facts on replay equal the live facts").isEqualTo(a.at("/snapshot/sections"));
        assertThat(b.at("/snapshot/env")).isEqualTo(a.at("/snapshot/env"));
        assertThat(b.at("/snapshot/hostName")).isEqualTo(a.at("/snapshot/hostName"));
        assertThat(b.get("findings")).isEqualTo(a.get("findings"));
        assertThat(b.get("notChecked")).isEqualTo(a.get("notChecked"));
        assertThat(b.at("/snapshot/source").asText()).isEqualTo("capture " + cap);
    }

    @Test
    void captureRefusesANonEmptyFolderWithoutForce() throws Exception {
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("mine.txt"), "precious");
        Run r = run("capture", "-o", busy.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("not empty").contains("--force");
        assertThat(busy.resolve("mine.txt")).hasContent("precious");
        assertThat(run("capture", "-o", busy.toString(), "--force").code()).isZero();
        assertThat(busy.resolve("manifest.json")).exists();
    }

    @Test
    void liveJsonHasTheDocumentedTopLevelFields() throws Exception {
        JsonNode doc = Json.mapper().readTree(run("preflight", "--json").out());
        assertThat(doc.fieldNames()).toIterable().containsExactly("generator", "schemaVersion", "kind", "snapshot", "expected",
                "findings", "notChecked", "passed", "summary");
        assertThat(doc.get("snapshot").fieldNames()).toIterable().containsExactly("schemaVersion", "toolVersion", "hostName",
                "createdAt", "source", "argv", "env", "sections");
        assertThat(doc.at("/snapshot/sections").fieldNames()).toIterable()
                .containsExactly("platform", "pci", "nvidiaDriver", "libraries", "rdma", "gdrHost", "gpuHealth");
    }

    @Test
    void anUnmetExpectationFailsWithExit1() {
        Run r = run("preflight", "--expect", "gpus=1000");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("Result: FAIL");
    }

    @Test
    void badExpectationsAndProfilesAreExit2() {
        assertThat(run("preflight", "--expect", "gpu=8").err()).contains("'gpu=8' is not KEY=COUNT");
        assertThat(run("preflight", "--expect", "gpu=8").code()).isEqualTo(2);
        assertThat(run("preflight", "--profile", "no-such-profile").code()).isEqualTo(2);
        assertThat(run("preflight", "--profile", "cpu-node").code()).as("a CPU-node profile expects no GPU").isIn(0, 1);
        assertThat(run("preflight", "--rules", tmp.resolve("none.yaml").toString()).code()).isEqualTo(2);
    }

    @Test
    void explainKnowsEveryRegisteredCode() {
        List<String> codes = new ArrayList<>(Registry.nodeRules().stream().map(r -> r.info().code()).toList());
        Reports.resultRules().forEach(r -> codes.add(r.info().code()));
        codes.add("QUICK_CHECK_FAILED");
        codes.add("QUICK_CHECK_SLOW");
        NetworkCheck.infos().forEach(i -> codes.add(i.code()));
        CounterRules.all().forEach(r -> codes.add(r.info().code()));
        Cluster.checks().forEach(i -> codes.add(i.code()));
        for (String code : codes) {
            Run r = run("explain", code.toLowerCase());
            assertThat(r.code()).as(code).isZero();
            assertThat(r.out()).startsWith(code + " (").contains("What it means:").contains("Evidence read:").contains("Remedy:");
        }
        Run list = run("explain", "--list");
        assertThat(list.out().lines()).hasSize(codes.size()).doesNotHaveDuplicates();
        assertThat(run("explain", "NOT_A_CODE").code()).isEqualTo(2);
    }

    @Test
    void aFailureOfTheToolItselfIsExit3AndOneLineUnlessStacktrace() {
        @CommandLine.Command(name = "boom")
        class Boom implements Callable<Integer> {
            @Override
            public Integer call() {
                throw new IllegalStateException("simulated bug");
            }
        }
        for (boolean trace : List.of(false, true)) {
            StringWriter err = new StringWriter();
            CommandLine cl = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(err, true), trace);
            cl.addSubcommand("boom", new Boom());
            assertThat(cl.execute("boom")).isEqualTo(3);
            assertThat(err.toString()).startsWith("nccl-doctor: internal error: java.lang.IllegalStateException: simulated bug");
            assertThat(err.toString().contains("\tat ")).isEqualTo(trace);
        }
    }

    @Test
    void versionNamesToolJavaAndTheNativeLibraries() {
        Run r = run("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("nccl-doctor ").contains("\njava ").contains("\nnccl").contains("\ncuda driver").contains("\ncuda runtime");
    }

    static final String FIXTURES = "../pcie-inspect/src/test/resources/fixtures/captures/";

    @Test
    void topoOnTheArrowLakeFixturePrintsTheMatrixAndTheFieldReportsDistance() {
        Run r = run("topo", "--from", FIXTURES + "arrowlake-ws", "--nccl-version", "2.27.5");
        assertThat(r.code()).as("warnings and infos only").isZero();
        assertThat(r.out()).contains("Platform: Arrow Lake-S (intel client)")
                .contains("GPU0    X     PHB   PHB")
                .contains("GPU0-NIC0  mlx5_0   PHB (8)  GDR off")
                .contains("(distance 8 > 5) = PHB > PXB")
                .contains("INTEL_CLIENT_P2P_READS");
    }

    @Test
    void topoJsonAndExitCodeFollowTheFindings() throws Exception {
        Run r = run("topo", "--from", FIXTURES + "epyc-2s", "--json");
        assertThat(r.code()).as("LINK_DEGRADED is an error").isEqualTo(1);
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.get("kind").asText()).isEqualTo("topo");
        assertThat(doc.at("/topology/value/pairs")).hasSize(3);
        assertThat(doc.at("/topology/value/pairs/1/smiPath").asText()).isEqualTo("SYS");
        assertThat(doc.at("/platform/value/platformClass").asText()).isEqualTo("AMD_EPYC");
    }

    @Test
    void topoRejectsAnUnusableNcclVersion() {
        Run r = run("topo", "--nccl-version", "2.5");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--nccl-version 2.5");
        assertThat(run("topo").code()).as("this VM: no GPU, no NIC with RDMA; nothing at error level").isZero();
    }

    static final String PUBLIC = "../pcie-inspect/src/test/resources/fixtures/public/";

    @Test
    void lspciTextOfATicketIsAnalysedAndGarbageIsExit2() throws Exception {
        Run r = run("topo", "--lspci-tree", PUBLIC + "lspci-tree-h200-kvm-vm-emulated-switches.txt");
        assertThat(r.code()).isIn(0, 1);
        assertThat(r.out()).contains("GPU0").contains("not understood: ");
        Path junk = Files.writeString(tmp.resolve("junk.txt"), "hello\nthis is not lspci\n");
        Run bad = run("topo", "--lspci-verbose", junk.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("junk.txt: no PCI device found");
        Run missing = run("topo", "--nccl-topo-xml", tmp.resolve("none.xml").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("none.xml: cannot read (no such file)");
    }

    @Test
    void aVendorTopologyFileAndAComparisonWithNvidiaSmi() {
        Run r = run("topo", "--nccl-topo-xml", PUBLIC + "nccl-topo-azure-ndv5.xml", "--compare-nvidia-smi",
                PUBLIC + "nvidia-smi-topo-h100-8gpu-8nic-pix.txt");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("GPU0-NIC0  class 020700 PIX (4)  GDR on").contains("Against nvidia-smi topo -m:")
                .as("NVLink from nvidia-smi drawn into the matrix").contains("GPU0    X     NV18  NV18");
    }

    @Test
    void parseNvidiaSmiTopo() throws Exception {
        Run r = run("parse", "nvidia-smi-topo", PUBLIC + "nvidia-smi-topo-a100-8gpu-10nic-epyc.txt", "--json");
        assertThat(r.code()).isZero();
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.at("/cells/GPU0/NIC0").asText()).isEqualTo("PXB");
        assertThat(doc.at("/nicLegend/NIC9").asText()).isEqualTo("mlx5_9");
        assertThat(run("parse", "lspci", "x").code()).isEqualTo(2);
    }

    @Test
    void gdrOnThisVmSaysWhatItSkippedAndWhatItCouldCheck() {
        Run r = run("gdr");
        assertThat(r.code()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("GPUs      absent: the NVIDIA kernel module is not loaded")
                .contains("RDMA      /sys/class/infiniband absent")
                .contains("  Kernel    ")
                .contains("not predicted (needs an NVIDIA GPU and an RDMA-capable NIC)")
                .contains("RDMA_PORT_NOT_ACTIVE");
    }

    @Test
    void gdrOnTheArrowLakeFixtureExplainsTheIgnoredLevel() throws Exception {
        Run r = run("gdr", "--from", FIXTURES + "arrowlake-ws", "--nccl-version", "2.27.5");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("GDR off  GPU0 <-> mlx5_0: PHB (8) > PXB (5)").contains("'phb' is not 'PHB'")
                .contains("NCCL_GDR_LEVEL_IGNORED").contains("ARP_FLUX");
        JsonNode doc = Json.mapper().readTree(run("gdr", "--from", FIXTURES + "epyc-2s", "--json").out());
        assertThat(doc.get("kind").asText()).isEqualTo("gdr");
        assertThat(doc.at("/decisions/value/0/enabled/value").asBoolean()).isFalse();
        assertThat(doc.get("exitCode").asInt()).as("a port in INIT is an error").isEqualTo(1);
    }

    @Test
    void gdrActiveSaysWhyItSkippedHereAndReplaysARecordedFailure() {
        Run here = run("gdr", "--active");
        assertThat(here.out()).contains("Registration tried for real (--active)").contains("skipped: no RDMA device");
        Run epyc = run("gdr", "--active", "--from", FIXTURES + "epyc-2s");
        assertThat(epyc.out()).contains("0000:01:00.0 with mlx5_0: DMA-BUF not possible: libibverbs has no ibv_reg_dmabuf_mr")
                .contains("GDR_REGISTRATION_FAILED");
    }

    @Test
    void perftestNetnsIsCheckedBeforeAnythingRuns() {
        Run noActive = run("gdr", "--perftest-netns", "rdma1/mlx5_1");
        assertThat(noActive.code()).isEqualTo(2);
        assertThat(noActive.err().strip()).isEqualTo("nccl-doctor: --perftest-netns runs traffic: give --active with it");
        Run both = run("gdr", "--active", "--perftest-netns", "rdma1/mlx5_1", "--perftest-peer", "n2");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("give one");
        Run bad = run("gdr", "--active", "--perftest-netns", "rdma1");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip()).isEqualTo("nccl-doctor: --perftest-netns 'rdma1': expected NAMESPACE/HCA, e.g. rdma1/mlx5_1 "
                + "(the namespace holding that HCA's netdev)");
        Run here = run("gdr", "--active", "--perftest-netns", "rdma1/mlx5_1");
        assertThat(here.code()).isZero();
        assertThat(here.out()).contains("skipped: no RDMA device with an ACTIVE port besides mlx5_1");
    }

    static final String EXAMPLE = "../configs/examples/field-report-cluster";

    @Test
    void reportOnTheExampleFailsWithTheVerdictFirst() {
        Run r = run("report", EXAMPLE);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out().lines().toList().get(3)).startsWith("FAIL: 3 error, ");
        assertThat(r.out()).contains("ALIGNMENT_CLIFF").contains("arrowlake-ws: NIC PCIe link").contains("EXAMPLE DATA");
    }

    @Test
    void reportWritesEachFormatByExtensionAndNeverOverwritesWithoutForce() throws Exception {
        for (String ext : List.of("html", "md", "json", "xml", "prom", "svg")) {
            Path f = tmp.resolve("report." + ext);
            Run r = run("report", EXAMPLE, "-o", f.toString());
            assertThat(r.code()).as(ext + ": " + r.err()).isEqualTo(1);
            assertThat(r.out()).startsWith("wrote " + f);
            String text = Files.readString(f);
            switch (ext) {
                case "html" -> assertThat(text).startsWith("<!DOCTYPE html>").contains("Content-Security-Policy");
                case "md" -> assertThat(text).contains("PROTOCOL_PATHOLOGY");
                case "json" -> assertThat(Json.mapper().readTree(text).get("verdict").asText()).isEqualTo("FAIL");
                case "xml" -> assertThat(text).startsWith("<?xml").contains("<testsuites");
                case "prom" -> assertThat(text).contains("# TYPE nccl_doctor_findings gauge");
                default -> assertThat(text).contains("<svg");
            }
        }
        Path html = tmp.resolve("report.html");
        Run again = run("report", EXAMPLE, "-o", html.toString());
        assertThat(again.code()).as("its own earlier output is replaced: %s", again.err()).isEqualTo(1);
        Files.writeString(html, "<p>mine</p>\n");
        assertThat(run("report", EXAMPLE, "-o", html.toString()).err()).contains("exists and is not an earlier nccl-doctor output");
        assertThat(run("report", EXAMPLE, "-o", html.toString(), "--force").code()).isEqualTo(1);
        Path png = tmp.resolve("reads.png");
        assertThat(run("report", EXAMPLE, "-o", png.toString(), "--chart", "nic-reads-arrowlake-ws").code()).isEqualTo(1);
        byte[] magic = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertThat(magic).containsExactly(0x89, 'P', 'N', 'G');
    }

    @Test
    void reportRefusesWhatItCannotReadInOneLine() throws Exception {
        Path junk = tmp.resolve("notes.txt");
        Files.writeString(junk, "some notes\nnothing to see\n");
        Run r = run("report", junk.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").startsWith("nccl-doctor: " + junk + ": not an input report knows");
        Run missing = run("report", "/nonexistent/run.txt");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("/nonexistent/run.txt: no such file or folder");
        Run format = run("report", EXAMPLE, "-o", tmp.resolve("r.docx").toString());
        assertThat(format.code()).isEqualTo(2);
        assertThat(format.err()).contains("unknown format; use html, md, json, xml, prom, png, svg or txt");
        Run chart = run("report", EXAMPLE, "-o", tmp.resolve("c.png").toString(), "--chart", "nope");
        assertThat(chart.code()).isEqualTo(2);
        assertThat(chart.err()).contains("--chart nope: not among the charts of these inputs: busbw, busbw-allreduce");
        assertThat(run("report", EXAMPLE, "--list-charts").out()).contains("paths-arrowlake-ws").contains("traffic-2");
    }

    @Test
    void publishedRunsReportCleanly() {
        Run r = run("report", "../collectives/src/test/resources/fixtures/public/nccl-tests-gh200-2node-version-header-cscs.txt");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("PASS: 0 error, 0 warning, 0 info findings over 1 sweep and 0 nodes");
    }

    @Test
    void sweepValidatesThenRefusesHereAndDryRunShowsEachChild() throws Exception {
        Run here = run("sweep", "../configs/sweeps/quick.yaml", "-o", tmp.resolve("q.jsonl").toString());
        assertThat(here.code()).isEqualTo(1);
        assertThat(here.out()).contains("the plan is valid, but cannot run here; missing:").contains("NCCL (libnccl.so.2)");
        assertThat(tmp.resolve("q.jsonl")).doesNotExist();
        Run dry = run("sweep", "../configs/sweeps/proto.yaml", "--dry-run", "-o", tmp.resolve("p.jsonl").toString());
        assertThat(dry.code()).isZero();
        assertThat(dry.out()).contains("plan proto: 12 children x 5 collectives = 60 points")
                .contains("[2/12] default/NCCL_PROTO=LL/rep1").contains("  set   NCCL_PROTO=LL128").contains("sweep-child --request ");
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "name: x\ncollectives: [allreduce]\nmatrix: {NCCL_PROTO: [LL129]}\n");
        Run refused = run("sweep", bad.toString(), "--nccl-version", "2.27.5");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err().strip()).isEqualTo("nccl-doctor: " + bad + ": 1 problem for NCCL 2.27.5: matrix.NCCL_PROTO: 'LL129': unknown "
                + "protocol 'LL129' (known protocols: LL, LL128, Simple; NCCL 2.27.5 rejects it)");
        assertThat(run("sweep", "nosuchplan").err()).contains("nosuchplan: no such plan; plans are the files in configs/sweeps");
    }

    static final String AB = EXAMPLE + "/ab-nccl-2.28.3-vs-2.30.7.jsonl";

    @Test
    void compareTheTwoArmsOfAnABSweepAndARegressionExitsOne() throws Exception {
        Run ab = run("compare", AB);
        assertThat(ab.code()).isZero();
        assertThat(ab.out()).contains("B = b (NCCL 2.30.7) against A = a (NCCL 2.28.3)")
                .contains("allgather: B faster from 1 MiB to 1 GiB, median x4.91").contains("allreduce: no detectable change");
        Run reversed = run("compare", AB + "#b", AB + "#a");
        assertThat(reversed.code()).as("b to a is a regression").isEqualTo(1);
        assertThat(reversed.out()).contains("allgather: B slower");
        Path html = tmp.resolve("ab.html");
        assertThat(run("compare", AB, "-o", html.toString()).code()).isZero();
        assertThat(Files.readString(html)).contains("Content-Security-Policy").contains("data:image/png;base64,");
        Run noArm = run("compare", AB + "#a", AB + "#c");
        assertThat(noArm.code()).isEqualTo(2);
        assertThat(noArm.err()).contains("#c: no arm 'c' in").contains("(arms: a, b)");
        Run one = run("compare", "../collectives/src/test/resources/fixtures/public/nccl-tests-gh200-2node-version-header-cscs.txt");
        assertThat(one.code()).isEqualTo(2);
        assertThat(one.err()).contains("not a sweep result (JSONL from `nccl-doctor sweep`); give A and B");
    }

    @Test
    void preflightWritesJUnitAndPrometheusAndReplacesOnlyItsOwnFile() throws Exception {
        Path prom = tmp.resolve("nccl-doctor.prom");
        assertThat(run("preflight", "-o", prom.toString()).code()).isIn(0, 1);
        assertThat(Files.readString(prom)).contains("# TYPE nccl_doctor_check_passed gauge").contains("nccl_doctor_verdict{verdict=");
        assertThat(run("preflight", "-o", prom.toString()).code()).as("its own earlier file is replaced").isIn(0, 1);
        Path xml = tmp.resolve("preflight.xml");
        run("preflight", "-o", xml.toString());
        org.w3c.dom.Document doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        assertThat(Integer.parseInt(doc.getDocumentElement().getAttribute("tests"))).isEqualTo(Registry.nodeRules().size());
        Path notes = tmp.resolve("notes.prom");
        Files.writeString(notes, "my own metrics\n");
        Run refused = run("preflight", "-o", notes.toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("exists and is not an earlier nccl-doctor output");
        assertThat(Files.readString(notes)).isEqualTo("my own metrics\n");
    }

    @Test
    void ruleZeroOnTheExampleBlamesTheHarness() throws Exception {
        String e = EXAMPLE + "/";
        Run r = run("rulezero", e + "suspect-alltoall.csv", "--reference", e + "alltoall-nccl-tests.txt", "--node", e + "arrowlake-ws");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).startsWith("nccl-doctor rulezero: HARNESS_ARTIFACT: it is the harness, not the hardware: 7 of 10 sizes");
        assertThat(Unwrapped.of(r.out())).contains("134,217,726 elements").contains("7.20 GB/s ceiling (arrowlake-ws: NIC PCIe link)");
        Path md = tmp.resolve("rz.md");
        assertThat(run("rulezero", e + "alltoall-harness.json", "--reference", e + "alltoall-nccl-tests.txt", "-o", md.toString()).code())
                .isEqualTo(1);
        assertThat(Files.readString(md)).contains("HARNESS_ARTIFACT");
        Path junk = tmp.resolve("junk.csv");
        Files.writeString(junk, "collective,dtype,count,ranks,busbw\nalltoall,float,12,1,3.0\n");
        Run bad = run("rulezero", junk.toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err().strip()).startsWith("nccl-doctor: " + junk + ":2:").doesNotContain("\n");
    }

    /** What NCCL decided in each arm (transports from the children's logs) is shown next to the verdicts. */
    @Test
    void compareShowsWhatNcclDecidedInEachArm() throws Exception {
        StringBuilder withLogs = new StringBuilder();
        for (String line : Files.readAllLines(Path.of(AB))) {
            com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(line);
            r.putObject("transports").put(r.get("arm").asText().equals("a") ? "NET/Socket/0" : "NET/IB/0/GDRDMA", 4);
            withLogs.append(Json.mapper().copy().disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(r)).append('\n');
        }
        Path file = tmp.resolve("ab-logs.jsonl");
        Files.writeString(file, withLogs.toString());
        Run r = run("compare", file.toString());
        assertThat(r.out()).contains("What NCCL decided (from the children's NCCL_DEBUG=INFO logs):")
                .contains("A a: transports NET/Socket/0 x12; algorithm/protocol not logged")
                .contains("B b: transports NET/IB/0/GDRDMA x12");
    }

    @Test
    void alignReproducesTheFieldReportAndSuggestsAFix() throws Exception {
        Run bad = run("align", "--collective", "alltoall", "--dtype", "float", "--count", "134217726", "--ranks", "3");
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.out()).contains("per-peer chunk: 44,739,242 elements = 178,956,968 bytes, NOT a multiple of 16")
                .contains("nccl-tests would use 134,217,720 elements").contains("134,217,720 below, 134,217,732 above");
        JsonNode doc = Json.mapper().readTree(run("align", "--collective", "allgather", "--dtype", "bf16", "--shape", "8x24x1000",
                "--ranks", "24", "--json").out());
        assertThat(doc.get("chunkBytesAligned").asBoolean()).isTrue();
        assertThat(run("align", "--collective", "alltoall", "--dtype", "float", "--ranks", "3").code()).as("count or shape needed").isEqualTo(2);
        for (String shape : new String[] {"3x-1", "-3x-1", "3x", "3xq"}) {
            Run badShape = run("align", "--collective", "alltoall", "--dtype", "float", "--shape", shape, "--ranks", "3");
            assertThat(badShape.code()).as("--shape %s", shape).isEqualTo(2);
            assertThat(badShape.err()).as("the message names the shape as given").contains("--shape " + shape + ":");
        }
        assertThat(run("align", "--collective", "gather", "--dtype", "float", "--count", "8", "--ranks", "2").err())
                .contains("unknown collective 'gather'");
    }

    static String collectivesFixture(String name) {
        Path p = Path.of("../collectives/src/test/resources/fixtures/public", name);
        assertThat(p).exists();
        return p.toString();
    }

    @Test
    void parseNcclTestsShowsBothPlacementsAndFailsOnWrongElements() {
        Run ok = run("parse", "nccl-tests", collectivesFixture("nccl-tests-h100-2node-ib-issue319.txt"));
        assertThat(ok.code()).isZero();
        assertThat(ok.out()).contains("library 2.26.2, 16 device lines").contains("peak bus bandwidth: 89.24 GB/s at 17,179,869,184 bytes")
                .contains("avg bus bandwidth: 33.4128 GB/s").doesNotContain("FAILED");
        Run bad = run("parse", "nccl-tests", collectivesFixture("nccl-tests-gh200-16rank-corrupted-wrong.txt"));
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.out()).contains("FAILED: 3,935,945 wrong elements").contains("avg bus bandwidth: absent: no 'Avg bus bandwidth' footer;");
        Run json = run("parse", "nccl-tests", collectivesFixture("nccl-tests-json-v1-allreduce-2rank-derived.json"));
        assertThat(json.code()).isZero();
        assertThat(json.out()).startsWith("all_reduce_perf from ").contains("library 2.27.3, 2 device lines")
                .contains("avg bus bandwidth: 55.889963 GB/s");
    }

    @Test
    void parseNcclLogNamesTheCompletionStatusAndRefusesOtherText() throws Exception {
        Run r = run("parse", "nccl-log", collectivesFixture("nccl-log-roce-2node-completion-error-status4.txt"));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("IB completion error: status 4 (IBV_WC_LOC_PROT_ERR), vendor err 81");
        Run json = run("parse", "nccl-log", collectivesFixture("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt"), "--json");
        assertThat(json.code()).isZero();
        JsonNode n = Json.mapper().readTree(json.out());
        assertThat(n.path("transports").path("NET/IB/0/GDRDMA").asLong()).isEqualTo(4);
        Path text = tmp.resolve("app.log");
        Files.writeString(text, "nothing here\n");
        Run no = run("parse", "nccl-log", text.toString());
        assertThat(no.code()).isEqualTo(2);
        assertThat(no.err().strip()).doesNotContain("\n").contains("not an NCCL debug log");
    }

    @Test
    void parseNcclLogReadsAFolderOfPerProcessLogsAndStandardInput() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("job-logs"));
        Files.copy(Path.of(collectivesFixture("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt")), dir.resolve("nccl.node01.11.log"));
        Files.copy(Path.of(collectivesFixture("nccl-log-rtx5090-2.29.7-single-gpu-socket.txt")), dir.resolve("nccl.node02.22.log"));
        Files.writeString(dir.resolve("stdout.txt"), "epoch 1\n");
        Run folder = run("parse", "nccl-log", dir.toString());
        assertThat(folder.code()).as("no completion error, no timeout: differences are reported, not failed").isZero();
        assertThat(folder.out()).startsWith("NCCL logs: 2 files, ")
                .contains("nccl.node01.11.log: NCCL 2.21.5, Using network IB, 4 via NET/IB/0/GDRDMA")
                .contains("stdout.txt: skipped, no NCCL lines")
                .contains("DIFFERS: the network NCCL chose differs: IB in " + dir.resolve("nccl.node01.11.log") + "; Socket in "
                        + dir.resolve("nccl.node02.22.log"));
        Files.copy(Path.of(collectivesFixture("nccl-log-roce-2node-completion-error-status4.txt")), dir.resolve("nccl.node03.33.log"));
        Run failed = run("parse", "nccl-log", dir.toString(), "--json");
        assertThat(failed.code()).as("a completion error in one file fails the set").isEqualTo(1);
        JsonNode doc = Json.mapper().readTree(failed.out());
        assertThat(doc.path("logs").path(dir.resolve("nccl.node03.33.log").toString()).path("ibErrors").get(0).path("status").asInt())
                .isEqualTo(4);
        assertThat(doc.path("differences").size()).isEqualTo(2);

        InputStream stdin = System.in;
        try {
            System.setIn(Files.newInputStream(Path.of(collectivesFixture("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt"))));
            Run piped = run("parse", "nccl-log", "-");
            assertThat(piped.code()).isZero();
            assertThat(piped.out()).startsWith("NCCL log standard input: ").contains("channels via NET/IB/0/GDRDMA: 4");
        } finally {
            System.setIn(stdin);
        }
        Run two = run("parse", "nccl-tests", collectivesFixture("nccl-tests-a10g-single-rank-old.txt"),
                collectivesFixture("nccl-tests-a10g-single-rank-old.txt"));
        assertThat(two.code()).isEqualTo(2);
        assertThat(two.err().strip()).isEqualTo("nccl-doctor: parse nccl-tests reads one FILE, not 2; give them one at a time "
                + "(only nccl-log reads several)");
        Run folderAsTable = run("parse", "nccl-tests", dir.toString());
        assertThat(folderAsTable.code()).isEqualTo(2);
        assertThat(folderAsTable.err()).contains("is a folder; give a file");
    }

    /** TUNING lines: each collective's choices by size, consecutive sizes with one choice joined. */
    @Test
    void parseNcclLogJoinsTuningChoicesIntoSizeRanges() throws Exception {
        StringBuilder text = new StringBuilder("n1:1:1 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n");
        for (long size = 8; size <= (1 << 20); size *= 8) {
            text.append("n1:1:2 [0] NCCL INFO AllReduce: ").append(size).append(" Bytes -> Algo RING proto ")
                    .append(size < 65536 ? "LL" : "SIMPLE").append(" channel{Lo..Hi}={0..1}\n");
        }
        text.append("n1:1:2 [0] NCCL INFO 4096 Bytes -> Algo 0 proto 1 time 12.5\n");
        Path log = tmp.resolve("tuning.log");
        Files.writeString(log, text);
        Run r = run("parse", "nccl-log", log.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("  tuning AllReduce: RING/LL 8 B to 32 KiB (5 calls), RING/SIMPLE 256 KiB (1 call)\n")
                .contains("  tuning (collective not logged): TREE/LL128 4 KiB (1 call)\n");
    }

    /** The native run's NCCL logs: a line per process, and the rank that fell back to sockets named. */
    @Test
    void runLogsTextNamesTheProcessThatDisagrees() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("run-logs"));
        Files.copy(Path.of(collectivesFixture("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt")), dir.resolve("nccl.a.1.log"));
        Files.copy(Path.of(collectivesFixture("nccl-log-rtx5090-2.29.7-single-gpu-socket.txt")), dir.resolve("nccl.b.2.log"));
        Map<String, NcclLog> logs = NcclDebugCapture
                .plan(Map.of(), dir)
                .read();
        String text = RunCommand.logsText("written to " + dir, logs);
        assertThat(text).startsWith("# NCCL logs: written to " + dir + "\n")
                .contains("#   nccl.a.1.log: NCCL 2.21.5, Using network IB, 4 via NET/IB/0/GDRDMA")
                .contains("# DIFFERS: the network NCCL chose differs: IB in nccl.a.1.log; Socket in nccl.b.2.log.");
    }

    @Test
    void runWithoutADriverListsEachMissingPieceOnItsOwnLine() {
        Run r = run("run", "--collective", "alltoall");
        assertThat(r.err()).isEmpty();
        if (r.out().contains("cannot run here")) { // this VM: no driver, no NCCL
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.out()).contains("cannot run here; missing:").contains("  - the CUDA driver library libcuda.so.1: ");
        } else { // a GPU node with every piece: the sweep ran
            assertThat(r.out()).contains("counts conditioned as nccl-tests does");
        }
    }

    @Test
    void runReferenceNcclTestsReadsTheBinarysOutputAndFailsOnWrongData() throws Exception {
        Path bin = tmp.resolve("build");
        Files.createDirectories(bin);
        Path fake = bin.resolve("all_reduce_perf");
        Files.writeString(fake, "#!/bin/sh\ncat '" + Path.of(collectivesFixture("nccl-tests-h100-2node-ib-issue319.txt")).toAbsolutePath() + "'\n");
        fake.toFile().setExecutable(true);
        Run ok = run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "-b", "8", "-e", "16G", "--log-dir",
                tmp.resolve("logs").toString());
        assertThat(ok.code()).isZero();
        assertThat(ok.out()).contains("command: " + fake + " -b 8 -e 16G -f 2 -g 1 -d float -w 5 -n 20 -c 1 -o sum")
                .contains("peak bus bandwidth: 89.24 GB/s");
        Run json = run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--log-dir", tmp.resolve("logs-json").toString(),
                "--json");
        assertThat(json.code()).isZero();
        JsonNode doc = Json.mapper().readTree(json.out());
        assertThat(doc.path("launch").path("worldSize").asInt()).isEqualTo(1);
        assertThat(doc.path("reference").path("output").path("value").path("avgBusBwGBps").path("value").asDouble()).isEqualTo(33.4128);
        Files.writeString(fake, "#!/bin/sh\ncat '" + Path.of(collectivesFixture("nccl-tests-gh200-16rank-corrupted-wrong.txt")).toAbsolutePath() + "'\n");
        Files.writeString(tmp.resolve("logs/keep.txt"), "mine");
        Run refused = run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--log-dir", tmp.resolve("logs").toString());
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err()).contains("already holds files");
        Run bad = run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--log-dir", tmp.resolve("logs").toString(),
                "--force");
        assertThat(bad.code()).isEqualTo(1);
        assertThat(Files.readString(tmp.resolve("logs/keep.txt"))).isEqualTo("mine");
        assertThat(bad.out()).contains("FAILED: 3,935,945 wrong elements");
        Run missing = run("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--collective", "broadcast",
                "--log-dir", tmp.resolve("logs2").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no executable broadcast_perf");
    }

    @Test
    void everyVerbsHelpRendersWithoutAFormatWarning() {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (String verb : List.of("preflight", "topo", "gdr", "align", "run", "parse", "capture", "explain")) {
                Run r = run(verb, "--help");
                assertThat(r.code()).as(verb).isZero();
                assertThat(r.out()).as(verb).contains("Usage: nccl-doctor " + verb).doesNotContain("%n");
            }
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
    }
}
