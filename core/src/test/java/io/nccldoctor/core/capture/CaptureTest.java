package io.nccldoctor.core.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.core.exec.CommandResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureTest {

    @TempDir
    Path tmp;

    /** Reads the same things through a host: a linked device, a listing, an existence check, a command and a native answer. */
    private static List<String> readEverything(Host h) {
        return List.of(
                h.files().realPath("/sys/bus/pci/devices/0000:01:00.0").describe(),
                h.files().readAttribute("/sys/bus/pci/devices/0000:01:00.0/class").describe(),
                h.files().list("/sys/bus/pci/devices").describe(),
                String.valueOf(h.files().exists("/usr/lib/libnccl.so.2")),
                h.files().realPath("/usr/lib/libnccl.so.2").describe(),
                h.files().readAttribute("/proc/driver/nvidia/version").describe(),
                h.commands().run(List.of("lspci", "-mm"), Duration.ofSeconds(1)).stdoutIfSucceeded().describe(),
                h.natives().query("ncclGetVersion:/x", Integer.class, () -> Fact.absent("unused")).describe());
    }

    private Host source() {
        return TestHosts.at(tmp.resolve("host"))
                .file("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/class", "0x030200\n")
                .link("/sys/bus/pci/devices/0000:01:00.0", "../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0")
                .file("/opt/nccl/libnccl.so.2.28.3", "ELF...")
                .link("/usr/lib/libnccl.so.2", "/opt/nccl/libnccl.so.2.28.3")
                .stdout(List.of("lspci", "-mm"), "00:00.0 \"Host bridge\"\n")
                .nativeAnswer("ncclGetVersion:/x", Fact.of(22803))
                .env("NCCL_DEBUG", "INFO")
                .host();
    }

    @Test
    void aReplayReadsExactlyWhatTheCaptureSaw() {
        Host live = source();
        CaptureWriter w = CaptureWriter.create(tmp.resolve("cap"), false);
        List<String> seen = readEverything(w.recording(live));
        w.finish(new Manifest(1, "test", "now", "node17", List.of("capture"), live.env(), List.of("all"), 0, 0, 0));

        Capture c = Capture.open(tmp.resolve("cap"));
        assertThat(readEverything(c.host())).isEqualTo(seen);
        assertThat(c.host().env()).containsEntry("NCCL_DEBUG", "INFO");
        assertThat(c.manifest().commands()).isEqualTo(1);
        assertThat(c.manifest().nativeQueries()).isEqualTo(1);
        assertThat(seen.get(4)).isEqualTo("/opt/nccl/libnccl.so.2.28.3");
        assertThat(tmp.resolve("cap/root/opt/nccl/libnccl.so.2.28.3"))
                .as("a library whose existence was checked is a placeholder, not a copy of the library").isEmptyFile();
    }

    @Test
    void aNonEmptyFolderNeedsForce() throws Exception {
        Path out = tmp.resolve("busy");
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "keep me");
        assertThatThrownBy(() -> CaptureWriter.create(out, false))
                .isInstanceOf(InputException.class).hasMessageContaining("--force");
        assertThat(out.resolve("notes.txt")).hasContent("keep me");
        CaptureWriter.create(out, true);
        assertThat(out.resolve("notes.txt")).doesNotExist();
    }

    @Test
    void missingFolderMissingManifestAndCorruptManifestAreInputErrors() throws Exception {
        assertThatThrownBy(() -> Capture.open(tmp.resolve("nope"))).isInstanceOf(InputException.class)
                .hasMessageContaining("no such folder");
        Files.createDirectories(tmp.resolve("half"));
        assertThatThrownBy(() -> Capture.open(tmp.resolve("half"))).isInstanceOf(InputException.class)
                .hasMessageContaining("no manifest.json");
        Files.writeString(tmp.resolve("half/manifest.json"), "{\n  \"formatVersion\": 1,\n  \"toolVersion\": \n");
        assertThatThrownBy(() -> Capture.open(tmp.resolve("half"))).isInstanceOf(InputException.class)
                .hasMessageContaining("half/manifest.json:").hasMessageNotContaining("\n");
        Files.writeString(tmp.resolve("half/manifest.json"), "{\"formatVersion\": 99}");
        assertThatThrownBy(() -> Capture.open(tmp.resolve("half"))).hasMessageContaining("capture format 99 is not supported");
    }

    @Test
    void commandOutcomesSurviveTheCaptureFile() {
        Host live = TestHosts.at(tmp.resolve("h")).command(new CommandResult.TimedOut(List.of("ibstat"), 5000, "", "")).host();
        CaptureWriter w = CaptureWriter.create(tmp.resolve("c2"), false);
        w.recording(live).commands().run(List.of("ibstat"), Duration.ofSeconds(5));
        w.finish(new Manifest(1, "t", "now", "h", List.of(), Map.of(), List.of(), 0, 0, 0));
        assertThat(Capture.open(tmp.resolve("c2")).host().commands().run(List.of("ibstat"), Duration.ofSeconds(5)))
                .isEqualTo(new CommandResult.TimedOut(List.of("ibstat"), 5000, "", ""));
    }
}
