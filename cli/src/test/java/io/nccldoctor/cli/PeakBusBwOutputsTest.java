package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.cli.CliTest.Run;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One peak per sweep in every output of `report`: the out-of-place one, the figure nccl-tests users quote. On real
 * tables whose in-place peak is higher (corpus/nccl-tests), the terminal and the Prometheus textfile gave two figures.
 */
class PeakBusBwOutputsTest {

    private static final Pattern PROM_PEAK = Pattern.compile("(?m)^nccl_doctor_busbw_peak_gbytes_per_second\\{[^}]*\\} (\\S+)$");

    private static String promPeak(String file) {
        Run prom = CliTest.run("report", file, "--format", "prom");
        assertThat(prom.code()).as(prom.err()).isIn(0, 1);
        Matcher m = PROM_PEAK.matcher(prom.out());
        assertThat(m.find()).as(prom.out()).isTrue();
        String value = m.group(1);
        assertThat(m.find()).as("one sweep, one sample").isFalse();
        return value;
    }

    private static String corpus(String name) {
        return Path.of("../corpus/nccl-tests", name).toString();
    }

    /** NVIDIA/nccl-tests#78: out-of-place 71.55 at 1 GiB; in-place 74.36 at 512 MiB is not the sweep's peak. */
    @Test
    void theTerminalAndThePrometheusPeakAreTheOutOfPlaceOne() {
        String file = corpus("nccl-tests-256rank-2.8.4-old-error-col-last-row-cut.txt");
        Run text = CliTest.run("report", file);
        assertThat(text.out()).contains("71.55 GB/s at 1 GiB");
        assertThat(promPeak(file)).isEqualTo("71.55");
    }

    /** ROCm/rccl#2075 broadcast: out-of-place 7.15, in-place 7.18 at 64 MiB. */
    @Test
    void anRcclTestsTableGivesItsOutOfPlacePeakToo() {
        String file = corpus("rccl-tests-broadcast-asterisks-line-next-test-cut.txt");
        assertThat(CliTest.run("report", file).out()).contains("7.15 GB/s at 32 MiB");
        assertThat(promPeak(file)).isEqualTo("7.15");
    }
}
