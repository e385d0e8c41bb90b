package io.nccldoctor.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import java.util.List;
import org.junit.jupiter.api.Test;

class FactTest {

    record Holder(Fact<Integer> count, Fact<List<String>> names, Fact<String> missing, Fact<String> broken) {
    }

    @Test
    void theThreeStatesAreDistinctAndCarryTheirReason() {
        Fact<Integer> v = Fact.of(8);
        Fact<Integer> a = Fact.absent("no GPU");
        Fact<Integer> e = Fact.error("permission denied: /sys/x");
        assertThat(v.isValue()).isTrue();
        assertThat(a.isAbsent()).isTrue();
        assertThat(e.isError()).isTrue();
        assertThat(v.get()).isEqualTo(8);
        assertThat(a.reason()).isEqualTo("no GPU");
        assertThat(e.describe()).isEqualTo("error: permission denied: /sys/x");
        assertThat(a.describe()).isEqualTo("absent: no GPU");
        assertThatThrownBy(a::get).hasMessageContaining("no GPU");
        assertThatThrownBy(v::reason).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void mapKeepsTheReasonOfMissingFacts() {
        assertThat(Fact.of(2).map(x -> x * 4).get()).isEqualTo(8);
        Fact<Integer> absent = Fact.<Integer>absent("lspci not installed").map(x -> x * 4);
        assertThat(absent.isAbsent()).isTrue();
        assertThat(absent.reason()).isEqualTo("lspci not installed");
        Fact<String> failed = Fact.<String>error("timeout").flatMap(s -> Fact.of(s + "!"));
        assertThat(failed.isError()).as("flatMap must not turn an error into a value").isTrue();
    }

    @Test
    void errorFromAnExceptionWithoutMessageNamesItsClass() {
        assertThat(Fact.error(new IllegalStateException()).reason()).isEqualTo("IllegalStateException");
        assertThat(Fact.error(new IllegalStateException("boom")).reason()).isEqualTo("boom");
    }

    @Test
    void aValueIsNeverNull() {
        assertThatThrownBy(() -> Fact.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void jsonHasExactlyOneKeyPerStateAndReadsBackTyped() throws Exception {
        Holder h = new Holder(Fact.of(8), Fact.of(List.of("mlx5_0")), Fact.absent("no file"), Fact.error("EIO"));
        String json = Json.mapper().writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(h);
        assertThat(json).isEqualTo("{\"count\":{\"value\":8},\"names\":{\"value\":[\"mlx5_0\"]},"
                + "\"missing\":{\"absent\":\"no file\"},\"broken\":{\"error\":\"EIO\"}}");
        Holder back = Json.mapper().readValue(json, Holder.class);
        assertThat(back).isEqualTo(h);
        assertThat(back.count().get()).isInstanceOf(Integer.class);
    }

    @Test
    void malformedFactJsonIsRejected() {
        assertThatThrownBy(() -> Json.mapper().readValue("{\"value\":1,\"absent\":\"x\"}", new TypeReference<Fact<Integer>>() { }))
                .hasMessageContaining("exactly one of value, absent, error");
    }
}
