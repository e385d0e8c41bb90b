package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.reports.chart.GpuNicHeatMap.Direction;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;

/** What every chart type promises: a PNG of the asked size, well-formed SVG, and host strings that cannot become markup. */
class ChartFormatsTest {

    static final String SCRIPT = "<script>alert(1)</script>";

    /** Each chart type, built with the given string where a host or log name goes. */
    static Stream<Arguments> charts() {
        return Stream.of(
                Arguments.of("size sweep (series name)", (Function<String, Chart>) Samples::sweep),
                Arguments.of("heat map (GPU name)", (Function<String, Chart>) s -> Samples.heatMap(s, Direction.NIC_READS_GPU)),
                Arguments.of("path matrix (device name)", (Function<String, Chart>) Samples::paths),
                Arguments.of("port balance (port name)", (Function<String, Chart>) Samples::ports));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void pngDecodesAtTheRequestedSize(String kind, Function<String, Chart> chart) {
        for (int[] size : new int[][] {{640, 400}, {333, 211}}) {
            BufferedImage image = Samples.png(chart.apply("GPU0").render(Format.PNG, size[0], size[1]));
            assertThat(new int[] {image.getWidth(), image.getHeight()}).as(kind + " PNG size").containsExactly(size);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void svgIsWellFormedAndCarriesTheSizeAndTitle(String kind, Function<String, Chart> chart) throws Exception {
        Document d = Samples.svg(chart.apply("GPU0").render(Format.SVG, 700, 420));
        assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(d.getDocumentElement().getAttribute("viewBox")).isEqualTo("0 0 700 420");
        assertThat(d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "title").item(0).getTextContent())
                .as("a title for screen readers and search").contains("gpu-node-07");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void aHostileNameIsEscapedNotInjected(String kind, Function<String, Chart> chart) throws Exception {
        byte[] svg = chart.apply(SCRIPT).render(Format.SVG, 700, 420);
        String text = new String(svg, StandardCharsets.UTF_8);
        assertThat(text).as("raw markup from a host string must not reach the SVG").doesNotContain("<script");
        assertThat(text).as("the name is still there, escaped").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        Document d = Samples.svg(svg);
        assertThat(d.getElementsByTagNameNS("*", "script").getLength()).isZero();
        assertThat(d.getDocumentElement().getTextContent()).contains(SCRIPT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void controlCharactersAndBrokenSurrogatesStillGiveWellFormedXml(String kind, Function<String, Chart> chart) throws Exception {
        // XML 1.0 forbids U+0001 even as &#1;, and a lone surrogate cannot be encoded at all.
        Document d = Samples.svg(chart.apply("GPU\u0001\uD800 \"0\" & 'x'").render(Format.SVG, 500, 300));
        assertThat(d.getDocumentElement().getTextContent()).contains("\"0\" & 'x'");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void aBlankNameDoesNotBreakRendering(String kind, Function<String, Chart> chart) {
        assertThat(Samples.png(chart.apply(" ").render(Format.PNG, 400, 250)).getWidth()).isEqualTo(400);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void sameInputSamePngBytes(String kind, Function<String, Chart> chart) {
        Chart c = chart.apply("GPU0");
        assertThat(c.render(Format.PNG, 480, 300)).as("deterministic output keeps report diffs quiet").isEqualTo(c.render(Format.PNG, 480, 300));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void absurdSizesAreRefused(String kind, Function<String, Chart> chart) {
        assertThatThrownBy(() -> chart.apply("GPU0").render(Format.PNG, 0, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> chart.apply("GPU0").render(Format.SVG, 100, 100_000)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void dataUriEmbedsThePng(String kind, Function<String, Chart> chart) {
        byte[] png = chart.apply("GPU0").render(Format.PNG, 300, 200);
        String uri = Charts.dataUri(png);
        assertThat(uri).startsWith("data:image/png;base64,");
        assertThat(Base64.getDecoder().decode(uri.substring(uri.indexOf(',') + 1))).isEqualTo(png);
    }

    @org.junit.jupiter.api.Test
    void dataUriRefusesBytesThatAreNotAPng() {
        byte[] svg = Samples.ports("p").render(Format.SVG, 300, 200);
        assertThatThrownBy(() -> Charts.dataUri(svg)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a PNG");
        assertThat(Charts.dataUri(svg, Format.SVG)).startsWith("data:image/svg+xml;base64,");
    }
}
