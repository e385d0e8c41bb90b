package io.nccldoctor.core.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The marker of each format is found where it is written, and nowhere in a user's file, however much it names the tool. */
class MarkerTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean marked(String s) {
        return Marker.in(utf8(s));
    }

    @Test
    void eachStyleIsFoundWhereItIsPut() throws Exception {
        assertThat(Marker.in(Marker.add(Marker.Style.HASH, utf8("# HELP x\nx 1\n"), "report -o"))).isTrue();
        assertThat(Marker.in(Marker.add(Marker.Style.MARKUP, utf8("# Title\n\ntext\n"), "report -o"))).isTrue();
        assertThat(Marker.in(Marker.add(Marker.Style.JSON, utf8("{\n  \"schemaVersion\" : 1\n}\n"), "report"))).isTrue();
        byte[] xml = Marker.add(Marker.Style.MARKUP, utf8("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites/>\n"), "report -o");
        assertThat(new String(xml, StandardCharsets.UTF_8)).as("the declaration stays first, as XML requires")
                .startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- nccl-doctor generated this file (report -o)");
        assertThat(Marker.in(xml)).isTrue();
        byte[] html = Marker.add(Marker.Style.MARKUP, utf8("<!DOCTYPE html>\n<html></html>\n"), "report -o");
        assertThat(new String(html, StandardCharsets.UTF_8)).startsWith("<!DOCTYPE html>\n<!-- nccl-doctor generated this file");
        assertThat(Marker.in(html)).isTrue();
    }

    @Test
    void aDeclarationOnTheSameLineAsTheMarkerCounts() {
        assertThat(marked("<?xml version=\"1.0\"?><!-- nccl-doctor generated this file (report -o); its next run replaces it -->\n<a/>"))
                .isTrue();
        assertThat(marked("<?xml version=\"1.0\"?>\n<a/>\n<!-- nccl-doctor generated this file -->\n")).as("not the first line after it")
                .isFalse();
    }

    @Test
    void usersFilesThatMentionTheToolAreNotOurs() {
        for (String user : List.of("# nccl-doctor runbook\n\nrun nccl-doctor preflight every night\n",
                "# nccl-doctor cluster: 5 nodes\n", "nccl-doctor generated this file\n", "<!-- notes on nccl-doctor -->\n",
                "<!DOCTYPE html>\n<html><!-- nccl-doctor generated this file --></html>\n",
                "{\"schemaVersion\": 1, \"generator\": \"nccl-doctor\"}\n", "{\"generator\": \"my-script\"}\n",
                "{\"generator\": 42}\n", "", "{", "my own metrics\n")) {
            assertThat(marked(user)).as(user).isFalse();
        }
    }

    @Test
    void filesFromBeforeTheMarkerThatNodeJobsRewriteAreStillOurs() {
        assertThat(marked("# HELP nccl_doctor_report_created_timestamp_seconds When the report was made\n")).isTrue();
        assertThat(marked("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"nccl-doctor\" tests=\"57\">\n")).isTrue();
        assertThat(marked("# HELP node_cpu_seconds_total Seconds the CPUs spent\n")).isFalse();
        assertThat(marked("<?xml version=\"1.0\"?>\n<testsuites name=\"pytest\">\n")).isFalse();
    }

    @Test
    void theMarkerSurvivesCrlfAndABom() {
        assertThat(marked("\uFEFF# nccl-doctor generated this file (preflight -o)\r\nx 1\r\n")).isTrue();
        assertThat(marked("<?xml version=\"1.0\"?>\r\n<!-- nccl-doctor generated this file (x) -->\r\n<a/>")).isTrue();
    }

    @Test
    void noDoubleDashEntersAnXmlComment() {
        String xml = new String(Marker.add(Marker.Style.MARKUP, utf8("<?xml version=\"1.0\"?>\n<a/>\n"), "report --format xml"),
                StandardCharsets.UTF_8);
        String comment = xml.substring(xml.indexOf("<!--") + 4, xml.indexOf("-->"));
        assertThat(comment).as("XML 1.0 section 2.5: '--' is not allowed inside a comment").doesNotContain("--");
    }

    @Test
    void aPngCarriesItAsATextChunkAfterTheHeaderAndStillDecodes() throws Exception {
        BufferedImage img = new BufferedImage(4, 3, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(img, "png", png);
        assertThat(Marker.in(png.toByteArray())).isFalse();
        byte[] marked = Marker.add(Marker.Style.PNG, png.toByteArray(), "report -o");
        assertThat(Marker.in(marked)).isTrue();
        BufferedImage back = ImageIO.read(new ByteArrayInputStream(marked));
        assertThat(back.getWidth()).as("the image decodes: the chunk's CRC is right").isEqualTo(4);
    }

    @Test
    void theJsonMarkerIsTheFirstMemberAndKindIsAddedWhereMissing() throws Exception {
        JsonNode doc = Json.mapper().readTree(JsonDocument.write("align", 1, new Pair("alltoall", 3)));
        assertThat(doc.fieldNames()).toIterable().containsExactly("generator", "schemaVersion", "kind", "collective", "ranks");
        assertThat(doc.get("kind").asText()).isEqualTo("align");
        String again = JsonDocument.withGenerator(JsonDocument.write(new Pair("x", 1)));
        assertThat(again.indexOf("generator")).as("inserted once").isEqualTo(again.lastIndexOf("generator"));
        assertThat(Json.mapper().readTree(JsonDocument.write(new Empty())).fieldNames()).toIterable().containsExactly("generator");
    }

    @Test
    void aStreamedDocumentGetsTheGeneratorAfterItsFirstBrace() throws Exception {
        StringWriter out = new StringWriter();
        try (Writer w = JsonDocument.streaming(out)) {
            Json.mapper().writeValue(w, new Pair("allreduce", 8));
        }
        JsonNode doc = Json.mapper().readTree(out.toString());
        assertThat(doc.fieldNames()).toIterable().containsExactly("generator", "collective", "ranks");
        assertThat(Marker.in(utf8(out.toString()))).isTrue();
    }

    record Pair(String collective, int ranks) {
    }

    record Empty() {
    }
}
