package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shapes no public output in the fixtures shows, written here from the printing code itself and saying so: `show_counters`
 * (Mellanox mlnx-tools sbin/show_counters: echo "Port $port hw counters:", then echo "$file: $value" per hw_counters
 * file, then the cm counters the same way) and `ethtool -S IF | grep …` (the stat lines without their "NIC statistics:"
 * header, after the command line that names the interface). The counter names are mlx5's (reference/peers-and-platform.md B4).
 * One real paste too: a sysfs file's value after the `cat` that printed it.
 */
class ScriptFormatsTest {

    @Test
    void showCountersGivesTheNamedDevicesHwCountersAndLeavesCmCountersOut() {
        RdmaPaste p = RdmaTextReader.parse(List.of("$ show_counters mlx5_0", "Port 1 hw counters:", "out_of_sequence: 12",
                "rp_cnp_handled: 0", "np_cnp_sent: 7", "Port 1 cm counters:", "cm_tx_msgs: 3"), "written from show_counters");
        assertThat(p.kinds()).containsExactly(RdmaKind.SHOW_COUNTERS);
        assertThat(PasteFactsView.of(p)).containsEntry("mlx5_0/1 hw_counters/out_of_sequence", "12")
                .containsEntry("mlx5_0/1 hw_counters/np_cnp_sent", "7").doesNotContainKey("mlx5_0/1 hw_counters/cm_tx_msgs");
        assertThat(p.lines().notUnderstood()).isZero();
        RdmaPaste unnamed = RdmaTextReader.parse(List.of("Port 1 hw counters:", "out_of_sequence: 12"), "no command line");
        assertThat(unnamed.counters().get(0).device()).isEqualTo(RdmaPaste.UNNAMED);
        assertThat(unnamed.rdma().devices().isAbsent()).as("an unnamed device is kept with the counters only").isTrue();
    }

    @Test
    void ethtoolStatLinesAfterTheirCommandBelongToTheInterfaceNamed() {
        RdmaPaste p = RdmaTextReader.parse(List.of("# ethtool -S ens1f0np0 | grep -E 'prio3|pause'", "     rx_prio3_pause: 41",
                "     tx_prio3_pause: 0", "     rx_pause_ctrl_phy: 41"), "written from ethtool");
        assertThat(p.kinds()).containsExactly(RdmaKind.ETHTOOL);
        assertThat(PasteFactsView.of(p)).containsEntry("ethtool ens1f0np0", "3").containsEntry("ethtool ens1f0np0 rx_prio3_pause", "41");
        RdmaPaste without = RdmaTextReader.parse(List.of("ibstat", "CA 'mlx5_0'", "     rx_prio3_pause: 41"), "no ethtool command");
        assertThat(without.notUnderstood()).extracting(RdmaPaste.Unread::line).as("a stat line needs its command or header")
                .containsExactly(3);
    }

    /** rdma-core#884 (the EFA link-layer fix, comment by Kamalheib, 2020-11-18) printed one sysfs file with `cat`. */
    @Test
    void theValueAfterACatOfOneSysfsFileIsThatFile() {
        RdmaPaste p = RdmaTextReader.parse(List.of("$ cat /sys/class/infiniband/efa_0/ports/1/link_layer ", "Unknown"), "rdma-core#884");
        assertThat(p.kinds()).containsExactly(RdmaKind.SYSFS);
        assertThat(PasteFactsView.of(p)).containsEntry("efa_0/1 link layer", "Unknown");
        assertThat(p.lines().notUnderstood()).isZero();
        assertThatThrownBy(() -> RdmaTextReader.parse(List.of("$ cat /sys/class/infiniband/*/ports/1/link_layer", "Unknown"), "a glob"))
                .as("the values of a glob cannot be told apart").isInstanceOf(InputException.class);
    }
}
