package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nccldoctor.core.GermanLocale;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(GermanLocale.class)
class PrometheusReportTest {

    static final List<String> FAMILIES = List.of("nccl_doctor_report_created_timestamp_seconds", "nccl_doctor_report_info",
            "nccl_doctor_verdict", "nccl_doctor_findings", "nccl_doctor_finding", "nccl_doctor_check_passed", "nccl_doctor_check_waived",
            "nccl_doctor_busbw_peak_gbytes_per_second", "nccl_doctor_busbw_largest_size_gbytes_per_second", "nccl_doctor_wrong_elements", "nccl_doctor_ceiling_gbytes_per_second", "nccl_doctor_link_traffic_bytes",
            "nccl_doctor_link_traffic_cv");

    private final String text = PrometheusReport.render(SampleReport.report());
    private final Exposition e = Exposition.parse(text);

    @Test
    void strictParserAcceptsEveryLineAndTheFamiliesComeInTheirOrder() {
        assertThat(e.types.keySet()).as("families in a fixed order").containsExactlyElementsOf(FAMILIES);
        assertThat(e.types.values()).as("everything is a gauge").containsOnly("gauge");
        assertThat(e.help.keySet()).as("every family has HELP").containsExactlyElementsOf(FAMILIES);
        assertThat(e.samples).as("the textfile collector refuses samples with timestamps").allMatch(s -> s.timestamp() == null);
        assertThat(text).as("no decimal comma under Locale.GERMANY").doesNotContainPattern("\\d,\\d");
    }

    @Test
    void reportAndFindings() {
        assertThat(e.value("nccl_doctor_report_created_timestamp_seconds", Map.of()))
                .isEqualTo(Instant.parse("2026-11-30T12:00:00Z").getEpochSecond());
        assertThat(e.value("nccl_doctor_verdict", Map.of("verdict", "fail"))).isEqualTo(1);
        assertThat(e.value("nccl_doctor_verdict", Map.of("verdict", "pass"))).isZero();
        assertThat(e.value("nccl_doctor_findings", Map.of("severity", "error"))).isEqualTo(1);
        assertThat(e.value("nccl_doctor_findings", Map.of("severity", "warn"))).isEqualTo(2);
        assertThat(e.value("nccl_doctor_findings", Map.of("severity", "info"))).isEqualTo(2);
        assertThat(e.value("nccl_doctor_finding", Map.of("code", "NCCL_VERSIONS_DIFFER", "severity", "info", "scope", SampleReport.HOSTILE,
                "subject", "libnccl.so.2"))).as("a host name with quote, newline and backslash-free junk reads back intact").isEqualTo(1);
        assertThat(e.value("nccl_doctor_check_passed", Map.of("code", "WRONG_ELEMENTS", "scope", "results"))).isZero();
        assertThat(e.value("nccl_doctor_check_passed", Map.of("code", "ACS_REDIRECT_ON_P2P_PATH", "scope", "gpu-node-17"))).isEqualTo(1);
        assertThat(e.samples("nccl_doctor_check_passed")).as("a waived check did not pass or fail").hasSize(5);
        assertThat(e.value("nccl_doctor_check_waived", Map.of("code", "GDR_READ_ASYMMETRY", "scope", SampleReport.HOSTILE))).isEqualTo(1);
    }

    @Test
    void sweeps() {
        String allgather = "allgather " + SampleReport.HOSTILE;
        assertThat(e.value("nccl_doctor_busbw_peak_gbytes_per_second",
                Map.of("label", "allreduce", "collective", "allreduce", "repeat", "0", "ranks", "16")))
                .as("out-of-place 38.71 at 1 GiB, as the terminal report says; not the in-place 38.81").isEqualTo(38.71);
        assertThat(e.value("nccl_doctor_busbw_peak_gbytes_per_second",
                Map.of("label", allgather, "collective", "allgather", "repeat", "1", "ranks", ""))).as("unknown ranks: empty label; "
                + "out-of-place, not the in-place 15.55").isEqualTo(15.46);
        assertThat(e.value("nccl_doctor_busbw_peak_gbytes_per_second",
                Map.of("label", "alltoall -c 0", "collective", "alltoall", "repeat", "0", "ranks", "16")))
                .as("out-of-place, with N/A in place").isEqualTo(16.56);
        assertThat(e.value("nccl_doctor_busbw_largest_size_gbytes_per_second", Map.of("label", "allreduce", "collective", "allreduce",
                "repeat", "0", "size_bytes", "1073741824"))).as("out-of-place at 1 GiB, not the in-place peak").isEqualTo(38.71);
        assertThat(e.samples("nccl_doctor_busbw_largest_size_gbytes_per_second")).as("one per sweep").hasSize(3);
        assertThat(e.value("nccl_doctor_wrong_elements", Map.of("label", allgather, "collective", "allgather", "repeat", "1")))
                .isEqualTo(3);
        assertThat(e.samples("nccl_doctor_wrong_elements")).as("-c 0 validated nothing: no sample, not 0").hasSize(2);
    }

    @Test
    void ceilingsAndTraffic() {
        assertThat(e.value("nccl_doctor_ceiling_gbytes_per_second", Map.of("label", "NIC line rate", "link",
                "mlx5_0/1 + mlx5_1/1 (2 x 100 Gbit/s)"))).isEqualTo(25);
        assertThat(e.value("nccl_doctor_link_traffic_bytes", Map.of("set", "leaf1 uplinks, 5-tuple ECMP", "link", "swp3 \"spine|2\"")))
                .isEqualTo(5e9);
        assertThat(e.value("nccl_doctor_link_traffic_cv", Map.of("set", "leaf1 uplinks, 5-tuple ECMP"))).isCloseTo(1.07, within(0.005));
        assertThat(e.value("nccl_doctor_link_traffic_cv", Map.of("set", "spine idle"))).as("no traffic: CV is NaN").isNaN();
        assertThat(text).contains("nccl_doctor_link_traffic_cv{set=\"spine idle\"} NaN\n");
    }

    /** A textfile holds a few series per sweep and check, never one per size (size-resolved data is in the JSON report). */
    @Test
    void noSeriesPerSize() {
        assertThat(text).doesNotContain("placement=").doesNotContain("nccl_doctor_algbw");
        long sizes = SampleReport.report().data().sweeps().stream().mapToLong(s -> s.rows().size()).sum();
        assertThat(e.samples.stream().filter(s -> s.name().startsWith("nccl_doctor_busbw")).count())
                .as("two busbw series per sweep, whatever its %d sizes", sizes).isEqualTo(2 * SampleReport.report().data().sweeps().size());
    }

    @Test
    void formatsValuesAndLabels() {
        assertThat(PrometheusReport.value(3)).isEqualTo("3");
        assertThat(PrometheusReport.value(38.71)).isEqualTo("38.71");
        assertThat(PrometheusReport.value(1e20)).isEqualTo("1.0E20");
        assertThat(PrometheusReport.value(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(PrometheusReport.value(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(PrometheusReport.labelValue("a\\b\"c\nd")).isEqualTo("a\\\\b\\\"c\\nd");
    }

    @Test
    void everyFamilyIsDocumented() throws IOException {
        String doc = Files.readString(Path.of("../docs/metrics.md"), StandardCharsets.UTF_8);
        FAMILIES.forEach(f -> assertThat(doc).as("docs/metrics.md describes %s", f).contains("`" + f + "`"));
    }

    /** Prometheus's own linter, where installed: exit 1 is a parse error; lint advice (exit 3) is printed, not failed. */
    @Test
    void promtoolReadsIt() throws Exception {
        assumeTrue(Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "promtool"))), "promtool is not on PATH");
        Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        System.out.println("promtool check metrics: exit " + p.exitValue() + "\n" + out);
        assertThat(p.exitValue()).as("promtool could not parse the file: %s", out).isNotEqualTo(1);
        assertThat(out).doesNotContain("error while linting");
    }
}
