package io.nccldoctor.reports.rulezero;

import static io.nccldoctor.reports.rulezero.Inputs.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.chart.SizeSweep;
import io.nccldoctor.reports.results.Sweep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the Markdown and JSON forms of one rule-zero report that has every verdict, and checks the HTML's conventions
 * and charts. Runs under a German locale so that a decimal comma cannot slip into any of them. To accept an intended
 * change, run with -Dgolden.update=true and review the diff of src/test/resources/golden/rulezero.
 */
@ExtendWith(GermanLocale.class)
class RuleZeroRenderTest {

    static final String XSS = "<script>alert(1)</script>";

    /** The field report's alltoall (harness artifact, an aligned tensor, a size beyond nccl-tests) and a slow allreduce. */
    static RuleZero sample(String suspectFile) {
        Sweep alltoall = RuleZeroTest.reference();
        Sweep allreduce = Inputs.ncclTests("all_reduce_perf", "allreduce", 3, DataType.FLOAT32, MIB, 1L << 30, b -> b >= 64 * MIB ? 2.0 : 1.0);
        List<SuspectRow> suspect = List.of(
                Inputs.suspect("alltoall", "float", 134_217_726, 3, 1.1, suspectFile + ":2"),
                Inputs.suspect("alltoall", "float", 201_326_592, 3, 5.0, suspectFile + ":3"),
                Inputs.suspect("alltoall", "float", 536_870_910, 3, 1.2, suspectFile + ":4"),
                Inputs.suspect("allreduce", "bfloat16", 134_217_728, 3, 1.9, suspectFile + ":5"));
        return RuleZero.of(suspect, List.of(alltoall, allreduce), List.of(Inputs.lineRate(200), Inputs.pcie(57.6)), ResultThresholds.DEFAULTS);
    }

    @Test
    void everyVerdictOnce() {
        assertThat(sample("t.csv").rows()).extracting(Judgement::verdict).containsExactly(Verdict.HARNESS_ARTIFACT, Verdict.CONSISTENT,
                Verdict.NO_REFERENCE, Verdict.FABRIC);
    }

    @Test
    void markdown() throws IOException {
        String md = RuleZeroMarkdown.render(sample("harness_v2|run*.csv"));
        matches("rulezero.md", md);
        assertThat(md).as("a file name cannot leave its table cell or open emphasis").contains("harness_v2\\|run\\*.csv:2")
                .doesNotContain("harness_v2|run");
    }

    @Test
    void json() throws IOException {
        String json = Json.write(sample("harness.csv"));
        matches("rulezero.json", json);
        var doc = Json.mapper().readTree(json);
        assertThat(doc.get("verdict").asText()).isEqualTo("HARNESS_ARTIFACT");
        assertThat(doc.at("/rows/0/audit/asGiven/chunkBytes").asLong()).isEqualTo(178_956_968L);
        assertThat(doc.at("/rows/0/audit/asNcclTests/count").asLong()).isEqualTo(134_217_720L);
        assertThat(doc.at("/rows/0/reference/value/kind").asText()).isEqualTo("SAME_REQUEST");
        assertThat(doc.at("/rows/2/reference/absent").asText()).startsWith("2 GiB lies outside");
        assertThat(doc.at("/ceiling/value/label").asText()).isEqualTo("arrowlake-ws: NIC PCIe link");
    }

    @Test
    void sameReportSameBytes() {
        assertThat(RuleZeroMarkdown.render(sample("t.csv"))).isEqualTo(RuleZeroMarkdown.render(sample("t.csv")));
        assertThat(Json.write(sample("t.csv"))).isEqualTo(Json.write(sample("t.csv")));
    }

    @Test
    void htmlIsSelfContainedAndAScriptInAFileNameStaysText() {
        Sweep labelled = RuleZeroTest.reference().withLabel("alltoall" + XSS, 0);
        RuleZero z = RuleZero.of(sample(XSS + ".csv").rows().stream().map(Judgement::suspect).toList(), List.of(labelled),
                List.of(Inputs.pcie(57.6)), ResultThresholds.DEFAULTS);
        String html = RuleZeroHtml.render(z);
        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">")
                .doesNotContain("<script").doesNotContain("http://").doesNotContain("https://")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;.csv:2").contains("&#39;alltoall&lt;script&gt;alert(1)&lt;/script&gt;&#39;")
                .contains("<span class=\"badge HARNESS_ARTIFACT\">HARNESS_ARTIFACT</span>");
        assertThat(Pattern.compile("<img [^>]*src=\"data:image/png;base64,").matcher(html).results().count())
                .as("one chart per collective and world size").isEqualTo(2);
    }

    @Test
    void chartsShowSuspectReferenceCeilingAndMisalignedSizes() {
        Map<String, SizeSweep> charts = RuleZeroCharts.all(sample("t.csv"));
        assertThat(charts).containsOnlyKeys("alltoall-3ranks", "allreduce-3ranks");
        SizeSweep c = charts.get("alltoall-3ranks");
        assertThat(c.series()).extracting(SizeSweep.Series::name).containsExactly("suspect, aligned chunks", "suspect, misaligned chunks",
                "nccl-tests: alltoall_perf");
        assertThat(c.series().get(1).points()).extracting(SizeSweep.Point::bytes).containsExactly(536_870_904L, 2_147_483_640L);
        assertThat(c.ceilings()).containsExactly(new SizeSweep.Ceiling("arrowlake-ws: NIC PCIe link", 7.2));
        assertThat(c.regions()).as("one band per run of misaligned sizes: the aligned 768 MiB sits between")
                .containsExactly(new SizeSweep.Region(536_870_904L, 536_870_904L, "misaligned chunks: 512 MiB"),
                        new SizeSweep.Region(2_147_483_640L, 2_147_483_640L, "misaligned chunks: 2 GiB"));
        SizeSweep r = charts.get("allreduce-3ranks");
        assertThat(r.series()).extracting(SizeSweep.Series::name).containsExactly("suspect", "nccl-tests: all_reduce_perf");
        assertThat(r.regions()).isEmpty();
        byte[] png = c.render(io.nccldoctor.reports.chart.Format.PNG, 1100, 600);
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden/rulezero", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("output differs from %s (rerun with -Dgolden.update=true to accept)", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
