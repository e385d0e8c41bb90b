package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.RecordedCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Xid reader on real kernel log lines (fixtures/xid, each with its source), and its choice of journal or dmesg. */
class KernelXidsTest {

    private static final Path XID = Path.of("src/test/resources/fixtures/xid");

    @TempDir
    Path tmp;

    private static GpuHealth.XidLog read(String file) throws IOException {
        return KernelXids.parse(file, "test", Files.readAllLines(XID.resolve(file)), -1);
    }

    @Test
    void aJournalXid79AmongOtherDriverLines() throws IOException {
        GpuHealth.XidLog log = read("journal-xid79-rtx5080.txt");
        assertThat(log.events()).as("the two other NVRM lines name no Xid").containsExactly(
                new GpuHealth.XidEvent("0000:2b:00.0", 79, "GPU has fallen off the bus.", "May 18 19:02:39"));
        assertThat(log.unreadable()).isEmpty();
    }

    @Test
    void sevenXid45LinesOnFourGpusEachWithItsGpu() throws IOException {
        GpuHealth.XidLog log = read("journal-xid45-after-nvlink5-xids.txt");
        assertThat(log.events()).hasSize(7).allMatch(e -> e.xid() == 45 && e.when().isEmpty());
        assertThat(log.events().stream().map(GpuHealth.XidEvent::busId).distinct().toList())
                .containsExactly("0000:dc:00.0", "0000:ed:00.0", "0000:ba:00.0", "0000:97:00.0");
        assertThat(log.events().get(0).detail()).isEqualTo("pid=1818990, name=python3, Ch 00000001 caused by previous Xid 149");
    }

    @Test
    void dmesgSyslogAndOlderShapes() throws IOException {
        assertThat(read("dmesg-xid79-geforce840m.txt").events()).containsExactly(
                new GpuHealth.XidEvent("0000:03:00.0", 79, "GPU has fallen off the bus.)", "[ 5107.644336]"));
        assertThat(read("syslog-xid3-without-pci-prefix.txt").events()).as("a driver that wrote no PCI: prefix").containsExactly(
                new GpuHealth.XidEvent("0000:01:00.0", 3, "C 00000005 SC 00000007 M 00001ffc Data ffffffff",
                        "Jan 18 11:38:05 localhost [ 269.517039]"));
        assertThat(read("nvidia-doc-xid94-mig-instance.txt").events().get(0)).as("the MIG instance inside the parentheses")
                .isEqualTo(new GpuHealth.XidEvent("0000:01:00.0", 94, "pid=7194, Contained: CE User Channel (0x9). RST: No, D-RST: No", ""));
        assertThat(read("ml-engineering-xid63-row-remapper.txt").events().get(0).busId()).isEqualTo("0000:10:1c.0");
        assertThat(read("kmsg-xid149-145-nvlink5.txt").events()).extracting(e -> e.busId() + " " + e.xid())
                .containsExactly("0019:01:00.0 149", "0000:00:00.0 149", "0018:01:00.0 145");
    }

    @Test
    void aLineThatNamesAnXidInAnotherShapeIsKeptNotDropped() {
        GpuHealth.XidLog log = KernelXids.parse("test", "test", List.of("kernel: NVRM: Xid (43, pid: 5678): ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR"), -1);
        assertThat(log.events()).isEmpty();
        assertThat(log.unreadable()).hasSize(1);
    }

    @Test
    void dmesgLinesBeforeTheWindowAreLeftOut() throws IOException {
        List<String> lines = Files.readAllLines(XID.resolve("syslog-xid3-without-pci-prefix.txt"));
        assertThat(KernelXids.parse("dmesg", "test", List.of("[ 5107.644336] NVRM: Xid (PCI:0000:03:00): 79, x"), 6000).events()).isEmpty();
        assertThat(KernelXids.parse("dmesg", "test", List.of("[ 5107.644336] NVRM: Xid (PCI:0000:03:00): 79, x"), 5000).events()).hasSize(1);
        assertThat(KernelXids.parse("syslog", "test", lines, 9000).events()).as("a stamp not at the line start is not a dmesg stamp")
                .hasSize(1);
    }

    private Host host(List<CommandResult> commands, String uptime) throws IOException {
        Files.createDirectories(tmp.resolve("proc"));
        if (uptime != null) {
            Files.writeString(tmp.resolve("proc/uptime"), uptime);
        }
        return new Host(HostRoot.at(tmp), new RecordedCommandRunner(commands), NativeQueries.live(), Map.of(), "test");
    }

    @Test
    void theJournalFirstAndDmesgWhenTheJournalSaysItShowsNothing() throws IOException {
        List<String> journal = KernelXids.journalArgv(Duration.ofHours(2));
        assertThat(journal).contains("--since=-120min");
        String dmesg = Files.readString(XID.resolve("dmesg-xid79-geforce840m.txt"));
        // the message journalctl printed on this machine with no journal files, exit 0 and "-- No entries --"
        Host blind = host(List.of(new CommandResult.Exited(journal, 0, "-- No entries --\n", "No journal files were found.\n", 5),
                new CommandResult.Exited(KernelXids.dmesgArgv(), 0, dmesg, "", 3)), "5200.00 10000.00\n");
        Fact<GpuHealth.XidLog> viaDmesg = KernelXids.read(blind, Duration.ofHours(2));
        assertThat(viaDmesg.get().source()).startsWith("dmesg (journalctl: No journal files were found.)");
        assertThat(viaDmesg.get().events()).hasSize(1);
        assertThat(viaDmesg.get().window()).contains("/proc/uptime");

        Host journalOk = host(List.of(new CommandResult.Exited(journal, 0,
                "2026-05-18T19:02:39+0000 node17 kernel: NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus.\n", "", 5)), null);
        GpuHealth.XidLog log = KernelXids.read(journalOk, Duration.ofHours(2)).get();
        assertThat(log.source()).isEqualTo(String.join(" ", journal));
        assertThat(log.events().get(0).when()).isEqualTo("2026-05-18T19:02:39+0000 node17");
    }

    @Test
    void neitherLogReadableIsAnErrorThatNamesBoth() throws IOException {
        Host none = host(List.of(new CommandResult.Exited(KernelXids.dmesgArgv(), 1, "", "dmesg: read kernel buffer failed: Operation not permitted\n", 2)), null);
        Fact<GpuHealth.XidLog> f = KernelXids.read(none, Duration.ofHours(2));
        assertThat(f.isError()).isTrue();
        assertThat(f.reason()).contains("journalctl: not in the capture").contains("dmesg exited with 1: dmesg: read kernel buffer failed");
    }
}
