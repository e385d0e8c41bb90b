package io.nccldoctor.reports.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The NICs NCCL's own System dump shows, from real logs (each cited in the README beside it). */
class SystemDumpTest {

    @Test
    void aCompleteDumpGivesTheNetDevicesAndTheRateTheyRoundFrom() {
        Path file = Path.of("src/test/resources/fixtures/judgement/nccl-log-socket-lo-system-dump-nccl1053.txt");
        SystemDump d = SystemDump.of(NcclLog.parse(file), "nccl1053").orElseThrow();
        assertThat(d.netGBps()).containsExactly(1.2);
        assertThat(d.nvlinks()).isEqualTo(1);
        Nics n = d.nics().orElseThrow();
        assertThat(n.perNode()).isEqualTo(1);
        assertThat(n.rateGbps().get()).as("NET[1.2] is NCCL's 10 Gbit/s default printed with one decimal, not 9.6 Gbit/s").isEqualTo(10.0);
        assertThat(n.text()).isEqualTo("NCCL System dump: 1 NET devices at [1.2] GB/s");
    }

    @Test
    void anExcerptCutBeforeItsClosingLineGivesNoNicCount() {
        Path cut = Path.of("../collectives/src/test/resources/fixtures/public/nccl-log-topology-vm-pci-0.2-h200-nccl-tests256.txt");
        NcclLog log = NcclLog.parse(cut);
        assertThat(log.systems()).as("the dump is read").hasSize(1);
        assertThat(SystemDump.of(log, "nccl-tests256")).as("three NET lines shown, more cut: not a count per node").isEmpty();
    }

    @Test
    void printedBandwidthsSnapToThePortRateTheyRoundFrom() {
        assertThat(SystemDump.lineRate(50.0)).isEqualTo(400.0);
        assertThat(SystemDump.lineRate(12.5)).isEqualTo(100.0);
        assertThat(SystemDump.lineRate(6.2)).as("50 Gb/s is 6.25 GB/s, printed 6.2").isEqualTo(50.0);
        assertThat(SystemDump.lineRate(3.1)).as("25 Gb/s is 3.125 GB/s").isEqualTo(25.0);
        assertThat(SystemDump.lineRate(2.0)).as("16 Gb/s is no port rate: left as printed").isEqualTo(16.0);
    }
}
