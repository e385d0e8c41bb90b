package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** RCCL's own version line is read, and kept apart from NCCL's versions by its name. */
class RcclVersionTest {

    @Test
    void rcclsVersionLineGivesItsVersionWithItsName() {
        assertThat(LogMessages.version("TARS:829507:829507 [0] NCCL INFO RCCL version : 2.27.7-HEAD:0d2c4fd")).contains("RCCL 2.27.7");
        assertThat(LogMessages.version("h:1:1 [0] NCCL INFO RCCL version 2.18.3+hip6.0")).contains("RCCL 2.18.3");
        assertThat(LogMessages.version("h:1:1 [0] NCCL INFO NCCL version 2.27.5+cuda12.9")).contains("2.27.5");
        assertThat(LogMessages.version("h:1:1 [0] NCCL INFO RCCL version : HEAD")).isEmpty();
        assertThat(MessageKinds.bare("RCCL version : 2.27.7-HEAD:0d2c4fd")).as("a pasted line without the prefix").isZero();
    }

    /** ROCm/ROCm#6074 (corpus): two processes, each printing the line once; bytes and lines read alike. */
    @Test
    void aRcclLogReadFromBytesAndByLines() throws IOException {
        Path file = Path.of("../corpus/nccl-log/nccl-log-rccl-2.27.7-2x-rx7900xtx-socket-2rank-dumps-slow-nic-link.txt");
        NcclLog bytes = NcclLog.parse(file);
        assertThat(bytes.versions()).containsExactly("RCCL 2.27.7");
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            assertThat(NcclLog.parse(in, file.toString()).versions()).containsExactly("RCCL 2.27.7");
        }
    }
}
