package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The test parser must itself be strict, or the Prometheus test proves nothing. */
class ExpositionTest {

    private static final String HEAD = "# HELP m A metric.\n# TYPE m gauge\n";

    @Test
    void readsValidText() {
        Exposition e = Exposition.parse(HEAD + "m{a=\"x\\\\y\\\"z\\nw\",b=\"\"} 1.5e3\nm{a=\"2\",b=\"\",} NaN\n"
                + "m{a=\"3\",b=\"\"} +Inf 1700000000000\n"
                + "# a comment\n\n# TYPE n_total counter\nn_total -2\n");
        assertThat(e.value("m", Map.of("a", "x\\y\"z\nw", "b", ""))).isEqualTo(1500.0);
        assertThat(e.value("m", Map.of("a", "2", "b", ""))).isNaN();
        assertThat(e.types).containsEntry("n_total", "counter");
        assertThat(e.help).containsEntry("m", "A metric.");
    }

    @Test
    void refusesMalformedLines() {
        for (String bad : new String[] {"m{a=\"x} 1\n", "m{a=x} 1\n", "m{1a=\"x\"} 1\n", "m{a=\"x\"}1\n", "m 1,5\n", "m one\n",
                "m{a=\"\\t\"} 1\n", "m{a=\"x\" b=\"y\"} 1\n", "m{a=\"x\",a=\"y\"} 1\n", "m 1 2 3\n", "m 1 \n", "m 1", "m{__a=\"x\"} 1\n",
                "m 1 1.5\n"}) {
            assertThatThrownBy(() -> Exposition.parse(HEAD + bad)).as("refuses %s", bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Exposition.parse("# TYPE 9m gauge\n")).hasMessageContaining("bad metric name");
        assertThatThrownBy(() -> Exposition.parse("# TYPE m gaug\n")).hasMessageContaining("unknown type");
        assertThatThrownBy(() -> Exposition.parse("# HELP m a \\t b\n")).hasMessageContaining("unknown escape");
    }

    @Test
    void refusesASampleBeforeItsType() {
        assertThatThrownBy(() -> Exposition.parse("m 1\n# TYPE m gauge\n")).hasMessageContaining("before its TYPE");
        assertThatThrownBy(() -> Exposition.parse(HEAD + "m 1\n# TYPE m gauge\n")).hasMessageContaining("TYPE");
    }

    @Test
    void refusesASplitFamily() {
        assertThatThrownBy(() -> Exposition.parse(HEAD + "m{a=\"1\"} 1\n# TYPE n gauge\nn 1\nm{a=\"2\"} 1\n"))
                .hasMessageContaining("split into two groups");
        assertThatThrownBy(() -> Exposition.parse(HEAD + "# TYPE n gauge\n# HELP m again\n")).hasMessageContaining("split");
    }

    @Test
    void refusesADuplicateSeries() {
        assertThatThrownBy(() -> Exposition.parse(HEAD + "m{a=\"1\",b=\"2\"} 1\nm{b=\"2\",a=\"1\"} 2\n"))
                .hasMessageContaining("duplicate series");
        assertThatThrownBy(() -> Exposition.parse(HEAD + "m{a=\"1\"} 1\nm{b=\"1\"} 2\n")).hasMessageContaining("mixes label sets");
    }
}
