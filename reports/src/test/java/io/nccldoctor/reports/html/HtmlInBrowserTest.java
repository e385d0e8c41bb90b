package io.nccldoctor.reports.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.ExampleReports;
import io.nccldoctor.reports.results.PortTraffic;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report in headless Chromium (Debian's chromium, which .ci/run installs): the example opens without a
 * console message, and a host name and a log line holding a script tag stay text in the DOM; nothing runs.
 */
class HtmlInBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final String XSS = "<script>alert(1)</script>";

    @TempDir
    Path dir;

    record Browser(int exit, String dom, String log) {
    }

    /** --dump-dom prints the DOM after the page ran; console messages go to the log with --enable-logging=stderr. */
    Browser open(Path html) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " (.ci/run installs Debian's chromium)");
        Path out = dir.resolve("dom.html");
        Path err = dir.resolve("chromium.log");
        List<String> argv = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString()));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        return new Browser(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    static List<String> console(String log) {
        return log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("Content Security Policy")).toList();
    }

    @Test
    void theExampleOpensWithoutConsoleMessages() throws Exception {
        Path html = dir.resolve("example.html");
        Files.writeString(html, HtmlReport.render(ExampleReports.example(), ResultThresholds.DEFAULTS));
        Browser b = open(html);
        assertThat(b.exit()).as(b.log()).isZero();
        assertThat(console(b.log())).isEmpty();
        assertThat(b.dom()).contains("EXAMPLE DATA").contains("PROTOCOL_PATHOLOGY").contains("data:image/png;base64,");
    }

    @Test
    void aScriptFromAHostOrALogStaysText() throws Exception {
        Snapshot host = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node" + XSS, "2026-11-30T00:00:00Z", "test", List.of(), Map.of(),
                Map.of());
        Finding f = new Finding("DATA_CORRUPTION", Severity.ERROR, "label" + XSS, "NCCL WARN " + XSS, List.of("log line: " + XSS),
                "remedy " + XSS);
        NcclTestsOutput.Placement pl = new NcclTestsOutput.Placement(10, 1, 1, Fact.of(1L), Fact.absent("n/a"));
        Sweep s = new Sweep("sweep" + XSS, "file" + XSS, "nccl-tests", Fact.of("allreduce"), Fact.of(2), Fact.of(2), Map.of("NCCL_X", XSS),
                Fact.of("2.27.5"), List.of(new NcclTestsOutput.Row(1 << 20, 1 << 18, "float" + XSS, Fact.of("sum"), Fact.of(-1), pl,
                Fact.of(pl))), Map.of(), 0);
        ResultSet set = new ResultSet("title" + XSS, false, "2026-11-30T00:00:00Z", List.of("input" + XSS), List.of(host), List.of(s),
                List.of(), List.of(new PortTraffic("traffic" + XSS, Map.of("port" + XSS, 1L), "src")));
        Report r = new Report(set, List.of(new Check("DATA_CORRUPTION", "t", "results", null, List.of(f)),
                new Check("X", "t", "node" + XSS, "waived " + XSS, List.of())), List.of(f));
        String page = HtmlReport.render(r, ResultThresholds.DEFAULTS);
        assertThat(page).doesNotContain(XSS).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        Path html = dir.resolve("xss.html");
        Files.writeString(html, page);
        Browser b = open(html);
        assertThat(b.exit()).isZero();
        assertThat(console(b.log())).as("an alert or a blocked script would log").isEmpty();
        assertThat(b.dom()).as("no script element in the DOM").doesNotContainIgnoringCase("<script");
        assertThat(b.dom()).as("the text is there, escaped").contains("NCCL WARN &lt;script&gt;alert(1)&lt;/script&gt;")
                .contains("node&lt;script&gt;alert(1)&lt;/script&gt;");
    }
}
