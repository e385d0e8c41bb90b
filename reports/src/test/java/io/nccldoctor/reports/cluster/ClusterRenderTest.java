package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Host names and values come from the nodes: no form lets one run, fetch, break a table or move the cursor. */
class ClusterRenderTest {

    static final String HOST = "n9<script>alert(1)</script><img src=x onerror=alert(2)>|*_[x](http://e)\u001b[2J";
    static final String DRIVER = "580\"><iframe src=//e>\n| evil |";

    static ClusterReport hostile() {
        ClusterSample.Plan plan = DriftTest.PLAN;
        List<Snapshot> nodes = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            nodes.add(ClusterSample.node(i, plan));
        }
        Snapshot evil = ClusterSample.named(ClusterSample.node(9, plan), HOST);
        nodes.add(ClusterSample.with(evil, NvidiaDriverProbe.KEY, new NvidiaDriver(Fact.of(DRIVER), Fact.absent("x"), Fact.absent("x"))));
        List<Sample> bw = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            bw.add(new Sample(ClusterSample.host(i), "ar<b>", 100, "bw:" + i));
        }
        bw.add(new Sample(HOST, "ar<b>", 10, "bw:9"));
        return Cluster.judge(ClusterData.of(nodes, bw), ClusterOptions.defaults(), "2026-11-30T12:00:00Z");
    }

    @Test
    void htmlEscapesEveryHostStringAndForbidsScripts() {
        String h = ClusterHtml.render(hostile());
        assertThat(h).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
                + "style-src 'unsafe-inline'\">");
        assertThat(h.toLowerCase(java.util.Locale.ROOT)).doesNotContain("<script").doesNotContain("<img").doesNotContain("<iframe")
                .doesNotContain("ar<b>");
        assertThat(h).contains("n9&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;");
        assertThat(h).contains("580&quot;&gt;&lt;iframe src=//e&gt;");
        assertThat(h).doesNotContain("\u001b");
    }

    @Test
    void markdownKeepsHostStringsInsideTheirCells() {
        String md = ClusterMarkdown.render(hostile());
        assertThat(md).doesNotContain("<script").doesNotContain("<iframe").doesNotContain("[x](http").doesNotContain("\u001b");
        assertThat(md).contains("n9&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\\|\\*\\_\\[x\\](http://e)");
        for (String line : md.lines().toList()) {
            if (line.startsWith("| ") && !line.startsWith("|---")) {
                assertThat(line.replace("\\|", "").chars().filter(c -> c == '|').count()).as("a table row keeps its columns: " + line)
                        .isIn(5L, 6L, 7L);
            }
        }
    }

    @Test
    void terminalLinesHoldNoControlCharacters() {
        String t = ClusterText.render(hostile());
        assertThat(t.replace("\n", "")).doesNotContainPattern("[\\p{Cntrl}]");
        assertThat(t.lines().toList().get(2)).startsWith("WARN: 0 error, 2 warning");
    }

    @Test
    void jsonCarriesTheStringsAsData() throws Exception {
        var doc = Json.mapper().readTree(Json.write(hostile()));
        assertThat(doc.at("/nodes/8/host").asText()).isEqualTo(HOST);
        assertThat(doc.at("/bandwidth/0/below/0/host").asText()).isEqualTo(HOST);
    }
}
