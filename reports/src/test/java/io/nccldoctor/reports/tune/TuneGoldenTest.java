package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.compare.CompareThresholds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the three forms of one tuning (the summary, --json, the tuner file) of synthetic measurements: allreduce with
 * the planted LL128 range, allgather where nothing beats NCCL, one size with too few runs, an alltoall left out, with
 * --as-env. Under a German locale, so that no decimal comma slips into the JSON or the file. To accept an intended
 * change, run with -Dgolden.update=true and review the diff of src/test/resources/golden/tune.
 */
@ExtendWith(GermanLocale.class)
class TuneGoldenTest {

    static Tuning tuning() {
        Measurements m = TunerTest.planted(5).add("allgather", Map.of(), 3, Measurements.all(10), TunerTest.SIMPLE_LOG)
                .add("allgather", TunerTest.LL128, 3, Measurements.all(7.4), Measurements.all("RING/LL128"))
                .add("allgather", TunerTest.LL128, 2, new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN}, null)
                .add("allgather", Map.of("NCCL_PROTO", "LL"), 2, new double[] {12, Double.NaN, Double.NaN, Double.NaN, Double.NaN},
                        Measurements.all("RING/LL"))
                .add("alltoall", Map.of(), 3, Measurements.all(10), null);
        return Tuner.tune(List.of("tune.jsonl"), m.read(), new Tuner.Options(CompareThresholds.DEFAULTS, null), true);
    }

    @Test
    void summary() throws IOException {
        matches("tune.txt", TuneText.render(tuning()));
    }

    @Test
    void tunerFile() throws IOException {
        matches("nccl_tuner.conf", TunerFile.render(tuning()));
    }

    @Test
    void json() throws IOException {
        String json = Json.write(tuning());
        matches("tune.json", json);
        JsonNode doc = Json.mapper().readTree(json);
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(doc.get("kind").asText()).isEqualTo("tune");
        assertThat(doc.at("/shapes/1/sizes/2/sizeBytes").asLong()).isEqualTo(1L << 19);
        assertThat(doc.at("/shapes/1/sizes/2/decision").asText()).isEqualTo("SWITCH");
        assertThat(doc.at("/shapes/1/sizes/2/medianBusBwGBps/value").asDouble()).as("units in the name, a decimal point").isEqualTo(10.04);
        assertThat(doc.at("/shapes/1/sizes/2/best/value/choice/value/protocol").asText()).isEqualTo("ll128");
        assertThat(doc.at("/rows/0/nRanks").asInt()).isEqualTo(2);
        assertThat(doc.at("/lacking/0/setting").asText()).isEqualTo("NCCL_PROTO=LL");
        assertThat(doc.at("/pins/1/refused").asBoolean()).isTrue();
        assertThat(json).doesNotContainPattern("\\d,\\d");
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden/tune", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("output differs from %s (rerun with -Dgolden.update=true to accept)", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
