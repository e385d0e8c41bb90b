package io.nccldoctor.collectives.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.measure.JnaBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NcclDebugCaptureTest {

    @TempDir
    Path dir;

    @Test
    void capturesAtInfoOrTheUsersLevelAndLeavesTheUsersFileAlone() {
        NcclDebugCapture info = NcclDebugCapture.plan(Map.of(), dir);
        assertThat(info.set()).containsEntry("NCCL_DEBUG", "INFO").containsEntry("NCCL_DEBUG_FILE", dir.resolve("nccl.%h.%p.log").toString());
        assertThat(NcclDebugCapture.plan(Map.of("NCCL_DEBUG", "TRACE"), dir).set()).containsEntry("NCCL_DEBUG", "TRACE");
        NcclDebugCapture users = NcclDebugCapture.plan(Map.of("NCCL_DEBUG_FILE", "/scratch/n.%p"), dir);
        assertThat(users.set()).isEmpty();
        assertThat(users.dir()).isNull();
        assertThat(users.note()).isEqualTo("not captured: NCCL_DEBUG_FILE=/scratch/n.%p is set, and the logs went there");
    }

    @Test
    void readsEachProcessLogAndSkipsFilesWithoutNcclLines() throws IOException {
        Files.writeString(dir.resolve("nccl.n1.100.log"), "n1:100:100 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
                + "n1:100:120 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n");
        Files.writeString(dir.resolve("nccl.n1.101.log"), "nothing yet\n");
        Files.writeString(dir.resolve("other.txt"), "n1:100:100 [0] NCCL INFO NCCL version 2.21.5\n");
        Map<String, io.nccldoctor.collectives.parse.NcclLog> logs = NcclDebugCapture.plan(Map.of(), dir).read();
        assertThat(logs).containsOnlyKeys("nccl.n1.100.log");
        assertThat(logs.get("nccl.n1.100.log").transports()).containsEntry("P2P/CUMEM", 1L);
    }

    /** The native run sets the variables with libc's setenv, where NCCL's getenv will look. */
    @Test
    void setenvReachesTheCEnvironment() {
        JnaBackend.setenv(Map.of("NCCL_DOCTOR_TEST_SETENV", "INFO"));
        assertThat(JnaBackend.getenv("NCCL_DOCTOR_TEST_SETENV")).contains("INFO");
        assertThat(JnaBackend.getenv("NCCL_DOCTOR_TEST_UNSET_" + System.nanoTime())).isEmpty();
    }
}
