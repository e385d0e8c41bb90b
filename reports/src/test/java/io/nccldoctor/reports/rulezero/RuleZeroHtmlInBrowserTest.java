package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule-zero HTML in headless Chromium (Debian's chromium, which .ci/run installs), as the main report is checked:
 * it opens without a console message, and a script tag in a file name stays text in the DOM.
 */
class RuleZeroHtmlInBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path dir;

    @Test
    void opensWithoutConsoleMessagesAndNothingRuns() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " (.ci/run installs Debian's chromium)");
        Path html = dir.resolve("rulezero.html");
        Files.writeString(html, RuleZeroHtml.render(RuleZeroRenderTest.sample(RuleZeroRenderTest.XSS + ".csv")));
        Path out = dir.resolve("dom.html");
        Path err = dir.resolve("chromium.log");
        ProcessBuilder pb = new ProcessBuilder(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0", "--dump-dom", html.toUri().toString()))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        String log = Files.readString(err, StandardCharsets.UTF_8);
        String dom = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(log).isZero();
        assertThat(log.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("Content Security Policy")))
                .as("console messages").isEmpty();
        assertThat(dom).contains("HARNESS_ARTIFACT").contains("data:image/png;base64,").doesNotContain("<script")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;.csv:2");
    }
}
