package io.nccldoctor.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Typed JSON reading: every problem one line that names the input and the field, in words rather than Java types. */
class JsonReadingTest {

    private static Decoded text(String json) {
        return new Decoded(json, "node1.json", 0);
    }

    @Test
    void syntaxErrorsNameTheLineAndColumn() {
        assertThatThrownBy(() -> Json.tree(text("{\"a\": 1,\n  \"b\": }"))).isInstanceOf(InputException.class)
                .hasMessageStartingWith("node1.json:2:8: not valid JSON (Unexpected character ('}'");
        assertThatThrownBy(() -> Json.tree(text("  "))).hasMessage("node1.json: empty; expected a JSON document");
        // SYNTHETIC: nesting past Jackson's limit of 1,000 is a syntax error, never a stack overflow
        assertThatThrownBy(() -> Json.tree(text("[".repeat(5000) + "]".repeat(5000)))).isInstanceOf(InputException.class)
                .hasMessageContaining("not valid JSON").hasMessageContaining("1000");
    }

    @Test
    void schemaVersionOutOfIntRangeIsOneLine() {
        String snapshot = "{\"schemaVersion\": 99999999999999999999, \"toolVersion\": \"x\", \"hostName\": \"n1\", \"createdAt\": \"t\","
                + " \"source\": \"live\", \"argv\": [], \"env\": {}, \"sections\": {}}";
        assertThatThrownBy(() -> Json.convert(Json.tree(text(snapshot)), Snapshot.class, "node1.json")).isInstanceOf(InputException.class)
                .hasMessage("node1.json: schemaVersion: expected a whole number from -2147483648 to 2147483647, got the number 99999999999999999999");
    }

    @Test
    void wrongTypesNullsAndUnknownFieldsNameTheField() {
        record Row(long sizeBytes, double busBwGBps, List<String> notes) {
        }
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"sizeBytes\": \"1M\", \"busBwGBps\": 1}")), Row.class, "run.json: result.sizes[0].row"))
                .hasMessageStartingWith("run.json: result.sizes[0].row: sizeBytes: expected a whole number").hasMessageEndingWith("got a string \"1M\"");
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"sizeBytes\": 1, \"notes\": {}}")), Row.class, "f"))
                .hasMessage("f: notes: expected a list, got an object");
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"sizeBytes\": 1, \"peakBusBw\": 2}")), Row.class, "f"))
                .hasMessage("f: unknown field 'peakBusBw' (known: busBwGBps, notes, sizeBytes)");
        assertThatThrownBy(() -> Json.convert(Json.tree(text("null")), Row.class, "f")).hasMessage("f: null where an object belongs");
    }

    @Test
    void factsOfTheWrongShapeAreOneLine() {
        TypeReference<Map<String, Fact<Integer>>> facts = new TypeReference<>() { };
        assertThat(Json.convert(Json.tree(text("{\"width\": {\"value\": 16}}")), facts, "f")).containsEntry("width", Fact.of(16));
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"width\": {\"value\": null}}")), facts, "f"))
                .hasMessageStartingWith("f: width: a fact's value is never null");
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"width\": {\"ealue\": 16}}")), facts, "f"))
                .hasMessageStartingWith("f: width: unknown fact state ealue");
        assertThatThrownBy(() -> Json.convert(Json.tree(text("{\"width\": {\"value\": \"x16\"}}")), facts, "f"))
                .hasMessageStartingWith("f: width: expected a whole number");
    }
}
