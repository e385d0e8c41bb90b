package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.GermanLocale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(GermanLocale.class)
class SizeLabelsTest {

    @ParameterizedTest(name = "{0} B is \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "0                   | 0 B",
        "1                   | 1 B",
        "8                   | 8 B",
        "1023                | 1023 B",
        "1024                | 1 KiB",
        "1536                | 1.5 KiB",
        "1500                | 1.46 KiB",
        "1048575             | 1 MiB",
        "1048576             | 1 MiB",
        "67108864            | 64 MiB",
        "100000000           | 95.37 MiB",
        "17179869184         | 16 GiB",
        "3298534883328       | 3 TiB",
        "9223372036854775807 | 8 EiB",
    })
    void binaryUnitsIntegralWhenExactWithADecimalPointUnderAnyLocale(long bytes, String label) {
        assertThat(SizeLabels.format(bytes)).isEqualTo(label);
    }

    @Test
    void aNegativeCountIsAMistakeNotALabel() {
        assertThatThrownBy(() -> SizeLabels.format(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "log2 = {0} is \"{1}\"")
    @CsvSource(delimiter = '|', value = {"3 | 8 B", "10 | 1 KiB", "26 | 64 MiB", "34 | 16 GiB"})
    void theSweepAxisLabelsPowersOfTwoCleanly(double log2, String label) {
        assertThat(SizeSweep.axisLabel(log2)).isEqualTo(label);
    }
}
