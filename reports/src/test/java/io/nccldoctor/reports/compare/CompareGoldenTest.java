package io.nccldoctor.reports.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the Markdown and JSON forms of the field report's comparison (NCCL 2.28 against 2.30.7). Runs under a German
 * locale so that a decimal comma cannot slip into either. To accept an intended change, run with
 * -Dgolden.update=true and review the diff of src/test/resources/golden/compare.
 */
@ExtendWith(GermanLocale.class)
class CompareGoldenTest {

    @Test
    void markdown() throws IOException {
        matches("compare.md", CompareMarkdown.render(Runs.fieldReport()));
    }

    @Test
    void json() throws IOException {
        String json = Json.write(Runs.fieldReport());
        matches("compare.json", json);
        JsonNode doc = Json.mapper().readTree(json);
        assertThat(doc.get("kind").asText()).isEqualTo("compare");
        assertThat(doc.at("/thresholds/minSamples").asInt()).isEqualTo(3);
        assertThat(doc.at("/rows/0/nA").asInt()).as("nA is written").isEqualTo(3);
        assertThat(doc.at("/rows/15/interval/value/low").isNumber()).as("the 8 GiB allgather row has an interval").isTrue();
        assertThat(doc.at("/rows/0/interval/absent").isTextual()).as("8 B rounds to zero: why there is none").isTrue();
    }

    @Test
    void sameComparisonSameBytes() {
        assertThat(Json.write(Runs.fieldReport())).as("JSON is deterministic (fixed seed, ordered rows)").isEqualTo(Json.write(Runs.fieldReport()));
        assertThat(CompareMarkdown.render(Runs.fieldReport())).isEqualTo(CompareMarkdown.render(Runs.fieldReport()));
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden/compare", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("output differs from %s (rerun with -Dgolden.update=true to accept)", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
