package io.nccldoctor.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(GermanLocale.class)
class JsonLocaleTest {

    record Measurement(double busBwGBps, long sizeBytes, Fact<Double> timeUs) {
    }


    @Test
    void numbersStayDotDecimalUnderAGermanLocale() {
        String json = Json.write(new Measurement(123.456, 1_073_741_824L, Fact.of(0.5)));
        assertThat(json).as("a decimal comma would make this invalid JSON for every consumer")
                .contains("\"busBwGBps\" : 123.456").contains("\"sizeBytes\" : 1073741824").contains("\"value\" : 0.5")
                .doesNotContain("123,456");
    }
}
