package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The RoCE captures through `gdr --from` and `explain`: the findings their README states, end to end. */
class RoceCliTest {

    static final String ROCE = "../gdr-probe/src/test/resources/fixtures/roce/";

    static String run(String... args) {
        StringWriter out = new StringWriter();
        Cli.run(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        return out.toString();
    }

    static List<String> codes(String capture) throws Exception {
        JsonNode doc = Json.mapper().readTree(run("gdr", "--from", ROCE + capture, "--json"));
        List<String> codes = new ArrayList<>();
        doc.path("findings").forEach(f -> codes.add(f.path("code").asText()));
        return codes;
    }

    @Test
    void eachRoceCaptureRaisesItsFindingThroughGdr() throws Exception {
        assertThat(codes("healthy")).noneMatch(c -> c.startsWith("ROCE_"));
        assertThat(codes("gid-index-3")).contains("ROCE_GID_INDEX_UNSUITABLE");
        assertThat(codes("default-tc")).contains("ROCE_PFC_OFF", "ROCE_DCQCN_OFF");
        assertThat(codes("bond-layer2")).contains("ROCE_BOND_ONE_LINK").doesNotContain("ROCE_DCQCN_OFF", "ROCE_PFC_OFF");
    }

    @Test
    void everyNewCodeHasItsStory() {
        for (String code : List.of("ROCE_GID_INDEX_UNSUITABLE", "ROCE_DCQCN_OFF", "ROCE_BOND_ONE_LINK")) {
            assertThat(run("explain", code)).startsWith(code + " (warn): ").contains("What it means: ", "Remedy: ");
        }
    }
}
