package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(GermanLocale.class)
class MarkdownReportTest {

    private final String md = MarkdownReport.render(SampleReport.report());
    private final List<String> lines = md.lines().toList();

    @Test
    void titleMarksExampleDataAndVerdictComesFirst() {
        assertThat(lines.get(0)).as("the title says the data is the shipped example").startsWith("# ").endsWith("(EXAMPLE DATA)");
        assertThat(lines.get(2)).as("the verdict line is the first thing after the title")
                .startsWith("**FAIL: 1 error, 2 warning, 2 info findings over 3 sweeps and 2 nodes");
    }

    @Test
    void hostAndLogTextCannotOpenHtml() {
        assertThat(md).as("a log line must not become a script tag in the ticket").doesNotContain("<script").doesNotContain("<b>");
        Matcher tag = Pattern.compile("<[^>]*>").matcher(md);
        while (tag.find()) {
            assertThat(tag.group()).as("the only raw HTML is our own line break").isEqualTo("<br>");
        }
        assertThat(md).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }

    @Test
    void everyTableRowHasTheHeadersCellCount() {
        List<List<String>> tables = new ArrayList<>();
        List<String> table = null;
        for (String l : lines) {
            if (l.startsWith("|")) {
                if (table == null) {
                    table = new ArrayList<>();
                    tables.add(table);
                }
                table.add(l);
            } else {
                table = null;
            }
        }
        assertThat(tables).as("sweeps, ceilings and two traffic sets").hasSize(6);
        for (List<String> t : tables) {
            int cells = pipes(t.get(0));
            t.forEach(row -> assertThat(pipes(row)).as("an escaped pipe stays inside its cell: %s", row).isEqualTo(cells));
        }
    }

    /** Pipes not escaped by a backslash (a backslash that is itself escaped does not count). */
    private static int pipes(String row) {
        int n = 0;
        for (int i = 0; i < row.length(); i++) {
            if (row.charAt(i) == '\\') {
                i++;
            } else if (row.charAt(i) == '|') {
                n++;
            }
        }
        return n;
    }

    @Test
    void numbersNeverTakeTheDefaultLocale() {
        assertThat(md).as("no decimal comma under Locale.GERMANY").doesNotContainPattern("\\d,\\d");
        assertThat(md).contains("| 1 GiB | 268435456 | float | 52013.50 | 20.64 | 38.71 | 0 | 51877.20 | 20.70 | 38.81 | 0 |");
    }

    @Test
    void inPlaceNotMeasuredIsNotApplicable() {
        assertThat(md).contains("| 32 MiB | 524288 | float | 1900.25 | 17.66 | 16.56 | N/A | N/A | N/A | N/A | N/A |");
    }

    @Test
    void findingsGroupedErrorsFirst() {
        assertThat(md.indexOf("### Errors (1)")).isPositive().isLessThan(md.indexOf("### Warnings (2)"));
        assertThat(md.indexOf("### Warnings (2)")).isLessThan(md.indexOf("### Info (2)"));
    }

    @Test
    void waivedChecksListedWithTheirReason() {
        assertThat(md).contains("6 checks: 4 passed, 1 failed, 1 not run:");
        assertThat(md).contains("- GDR_READ_ASYMMETRY on node-b\\|&lt;script&gt;");
        assertThat(md).contains("(waived: no gdr section: &lt;run&gt; \\`gdr --active\\` \\| first)");
    }

    @Test
    void escapesMarkdownAndHtml() {
        assertThat(MarkdownReport.text("a|b")).isEqualTo("a\\|b");
        assertThat(MarkdownReport.text("<i>&amp;")).isEqualTo("&lt;i&gt;&amp;amp;");
        assertThat(MarkdownReport.text("\\|")).as("an escaped pipe in the input stays escaped").isEqualTo("\\\\\\|");
        assertThat(MarkdownReport.text("*[x](y)* `z` ~~s~~ #1")).isEqualTo("\\*\\[x\\](y)\\* \\`z\\` \\~\\~s\\~\\~ \\#1");
        assertThat(MarkdownReport.text("mlx5_0 NCCL_IB_HCA")).as("intraword underscores cannot emphasise").isEqualTo("mlx5_0 NCCL_IB_HCA");
        assertThat(MarkdownReport.text("_x_ a_ _b")).isEqualTo("\\_x\\_ a\\_ \\_b");
        assertThat(MarkdownReport.text("a\r\nb\nc\rd\te\u0000\u0007f")).isEqualTo("a<br>b<br>c<br>d ef");
    }

    @Test
    void sizesInBinaryUnits() {
        assertThat(MarkdownReport.binary(0)).isEqualTo("0 B");
        assertThat(MarkdownReport.binary(1000)).isEqualTo("1000 B");
        assertThat(MarkdownReport.binary(1024)).isEqualTo("1 KiB");
        assertThat(MarkdownReport.binary(1536)).isEqualTo("1.5 KiB");
        assertThat(MarkdownReport.binary(1 << 20)).isEqualTo("1 MiB");
        assertThat(MarkdownReport.binary(1_000_000)).isEqualTo("976.56 KiB");
        assertThat(MarkdownReport.binary(16L << 30)).isEqualTo("16 GiB");
        assertThat(MarkdownReport.number(Double.NaN)).isEqualTo("NaN");
        assertThat(MarkdownReport.number(1.005)).doesNotContain(",");
    }
}
