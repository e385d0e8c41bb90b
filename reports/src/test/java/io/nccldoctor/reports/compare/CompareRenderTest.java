package io.nccldoctor.reports.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.chart.SizeSweep;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HTML and Markdown keep a hostile label inert; the ratio charts carry the interval and the no-change line. */
class CompareRenderTest {

    private static final String EVIL = "<script>alert(1)</script>";

    /** A name, an environment value and a file name that each try to open a script. */
    private static Comparison hostile() {
        List<Sweep> a = Runs.before("a").stream().map(s -> new Sweep(EVIL, EVIL + ".txt", s.tool(), s.collective(), s.ranks(), s.nodes(),
                s.env().isEmpty() ? Map.of() : Map.of("NCCL_PROTO", EVIL), s.ncclVersion(), s.rows(), s.aligned(), s.repeat())).toList();
        List<Sweep> b = Runs.after("b").stream().map(s -> new Sweep(EVIL, EVIL + ".txt", s.tool(), s.collective(), s.ranks(), s.nodes(),
                s.env().isEmpty() ? Map.of() : Map.of("NCCL_PROTO", EVIL), s.ncclVersion(), s.rows(), s.aligned(), s.repeat())).toList();
        return Comparison.of(EVIL, a, "B " + EVIL, b, null);
    }

    @Test
    void htmlEscapesEveryLabel() {
        String html = CompareHtml.render(hostile());
        assertThat(html.toLowerCase(java.util.Locale.ROOT)).as("no script element, whatever the labels say").doesNotContain("<script");
        assertThat(html).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(html).contains("NCCL_PROTO=&lt;script&gt;");
        assertThat(html).as("the CSP forbids scripts and requests")
                .contains("content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\"");
        assertThat(html).as("charts inline").contains("src=\"data:image/png;base64,");
        assertThat(html).contains("allgather: B faster from 8 KiB to 8 GiB, median x4.92");
    }

    @Test
    void markdownEscapesEveryLabel() {
        String md = CompareMarkdown.render(hostile());
        assertThat(md).doesNotContain("<script");
        assertThat(md).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }

    @Test
    void oneRatioChartPerCollectiveAndEnvironment() {
        Map<String, SizeSweep> charts = CompareCharts.all(Runs.fieldReport());
        assertThat(charts).containsOnlyKeys("ratio-allgather", "ratio-allgather NCCL_PROTO=Simple", "ratio-allreduce");
        SizeSweep allgather = charts.get("ratio-allgather");
        assertThat(allgather.series()).extracting(SizeSweep.Series::name).containsExactly("ratio", "95 % low", "95 % high");
        assertThat(allgather.ceilings()).containsExactly(new SizeSweep.Ceiling("no change", 1.0));
        assertThat(allgather.regions()).as("a speed-up is not flagged").isEmpty();
        SizeSweep slower = CompareCharts.all(Comparison.of("NCCL 2.30.7", Runs.after("b"), "NCCL 2.28", Runs.before("a"), null))
                .get("ratio-allgather");
        assertThat(slower.regions()).extracting(SizeSweep.Region::label).containsExactly("B slower: 8 KiB to 8 GiB");
        assertThat(allgather.series().get(0).points()).as("rounded-zero sizes are not drawn").noneMatch(p -> p.bytes() < 128);
        assertThat(charts.get("ratio-allgather NCCL_PROTO=Simple").series()).as("one run each: no interval")
                .extracting(SizeSweep.Series::name).containsExactly("ratio");
    }
}
