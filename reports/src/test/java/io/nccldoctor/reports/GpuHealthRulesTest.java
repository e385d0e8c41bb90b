package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.gdr.GpuHealthProbe;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The GPU health rules on the health captures (gdr-probe fixtures/health, each README stating its faults): the healthy
 * DGX H100 raises nothing, the faulty one each finding of its README with the severity DCGM and Azure would give, the
 * DGX-1 the page retirement that only GPUs before Ampere report. Every code has an explain entry.
 */
class GpuHealthRulesTest {

    static final Path HEALTH = Path.of("../gdr-probe/src/test/resources/fixtures/health");

    static Evaluation judge(String fixture) {
        Snapshot s = Snapshots.take(Capture.open(HEALTH.resolve(fixture)).host(), List.of(new GpuHealthProbe()), List.of("test"), "test",
                Clock.systemUTC());
        return Evaluation.of(s, Registry.gpuHealthRules(), RuleContext.defaults());
    }

    /** code → "severity subject" lines, sorted. */
    static Map<String, List<String>> byCode(Evaluation e) {
        return e.findings().stream().collect(Collectors.groupingBy(Finding::code, TreeMap::new,
                Collectors.mapping(f -> f.severity().label() + " " + f.subject(), Collectors.toList())));
    }

    @Test
    void theHealthyDgxH100RaisesNothing() {
        Evaluation e = judge("dgx-h100-healthy");
        assertThat(e.findings()).isEmpty();
        assertThat(e.notChecked()).extracting(Evaluation.NotChecked::code).as("H100s remap rows instead of retiring pages")
                .containsExactly("GPU_RETIRED_PAGES_PENDING");
        assertThat(e.notChecked().get(0).reason()).contains("not supported on this GPU");
        assertThat(e.passed()).hasSize(11);
    }

    @Test
    void theFaultyDgxH100RaisesEachFaultOnItsGpu() {
        Map<String, List<String>> f = byCode(judge("dgx-h100-faulty"));
        assertThat(f.get("GPU_ROW_REMAP_PENDING")).containsExactly("error 0000:18:00.0");
        assertThat(f.get("GPU_ECC_UNCORRECTABLE")).containsExactly("error 0000:18:00.0");
        assertThat(f.get("GPU_ROW_REMAP_FAILED")).containsExactly("error 0000:19:00.0");
        assertThat(f.get("GPU_THROTTLED")).containsExactly("warn 0000:29:00.0");
        assertThat(f.get("PCIE_REPLAYS")).containsExactly("warn 0000:2a:00.0");
        assertThat(f.get("FABRIC_MANAGER_NOT_READY")).containsExactly("error 0000:9a:00.0");
        assertThat(f.get("NVLINK_DOWN")).containsExactly("error 0000:9b:00.0");
        assertThat(f.get("NVLINK_ERRORS")).containsExactly("warn 0000:9b:00.0");
        assertThat(f.get("GPU_PERSISTENCE_OFF")).containsExactly("info 0000:ab:00.0");
        assertThat(f.get("GPU_MIG_ENABLED")).containsExactly("info 0000:ac:00.0");
        // Xid 94 and 63 (DCGM warns), 64 (fatal in NVIDIA's table), 45 (a workflow to follow)
        assertThat(f.get("GPU_XID_ERRORS")).containsExactly("warn 0000:18:00.0", "warn 0000:18:00.0", "error 0000:19:00.0",
                "warn 0000:2a:00.0");
        assertThat(f.keySet()).as("every new code but page retirement, which the DGX-1 shows").hasSize(11);
    }

    @Test
    void findingsCarryTheXidMeaningAndTheFigures() {
        Evaluation e = judge("dgx-h100-faulty");
        Finding xid64 = e.findings().stream().filter(f -> f.code().equals("GPU_XID_ERRORS") && f.subject().equals("0000:19:00.0"))
                .findFirst().orElseThrow();
        assertThat(xid64.title()).isEqualTo("GPU 0000:19:00.0 NVIDIA H100 80GB HBM3: Xid 64 (ECC page retirement or row remapping "
                + "could not be recorded in the InfoROM) in the last 120 min");
        assertThat(xid64.evidence().get(0)).isEqualTo("Xid 64: INFOROM_DRAM_RETIREMENT_FAILURE: ECC page retirement or row remapping "
                + "could not be recorded in the InfoROM; NVIDIA's immediate action RESET_GPU");
        Finding down = e.findings().stream().filter(f -> f.code().equals("NVLINK_DOWN")).findFirst().orElseThrow();
        assertThat(down.title()).isEqualTo("0000:9b:00.0: 17 of 18 NVLinks up where its siblings have 18");
        Finding throttled = e.findings().stream().filter(f -> f.code().equals("GPU_THROTTLED")).findFirst().orElseThrow();
        assertThat(throttled.evidence().get(0)).contains("0x48").contains("SM clock 1050 of 1980 MHz");
    }

    @Test
    void theDgx1RaisesPendingPageRetirementAndTheUncorrectableError() {
        Map<String, List<String>> f = byCode(judge("dgx1-v100-faulty"));
        assertThat(f).containsOnlyKeys("GPU_RETIRED_PAGES_PENDING", "GPU_ECC_UNCORRECTABLE");
        assertThat(f.get("GPU_RETIRED_PAGES_PENDING")).containsExactly("warn 0000:0a:00.0");
    }

    @Test
    void everyHealthCodeIsUnique() {
        Set<String> codes = Registry.gpuHealthRules().stream().map(r -> r.info().code()).collect(Collectors.toSet());
        assertThat(codes).hasSize(12).contains("GPU_XID_ERRORS", "GPU_ROW_REMAP_PENDING", "GPU_ROW_REMAP_FAILED", "GPU_ECC_UNCORRECTABLE",
                "GPU_RETIRED_PAGES_PENDING", "NVLINK_DOWN", "NVLINK_ERRORS", "GPU_THROTTLED", "FABRIC_MANAGER_NOT_READY", "PCIE_REPLAYS");
        assertThat(Registry.nodeRules().stream().map(r -> r.info().code())).as("preflight judges them").containsAll(codes);
    }
}
