package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** libfabric's own warning lines in an NCCL log (aws-ofi-nccl): no "NCCL" in them, read by their '<warn>' tag. */
class LibfabricLinesTest {

    /** aws/aws-ofi-nccl#889: the EFA provider's empty answer, the line repeated after CloudWatch's " | ". */
    @Test
    void anEmptyProviderListIsOneWarning() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-ofi-libfabric-efa-getinfo-empty-list-cloudwatch.txt");
        assertThat(log.libfabricWarnings().count()).isEqualTo(1);
        assertThat(log.libfabricWarnings().warnings()).singleElement().satisfies(w -> {
            assertThat(w.provider()).isEqualTo("core");
            assertThat(w.function()).isEqualTo("fi_getinfo_");
            assertThat(w.message()).isEqualTo("fi_getinfo: provider efa output empty list");
            assertThat(w.harmless()).isFalse();
        });
        assertThat(log.versions()).containsExactly("2.21.5");
    }

    /** aws/aws-ofi-nccl#715: two processes' endpoints with libfabric's shared memory turned off by the plugin. */
    @Test
    void sharedMemoryTurnedOffIsCountedAsHarmless() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-ofi-libfabric-efa-shm-permitted-warn-cloudwatch.txt");
        assertThat(log.libfabricWarnings().warnings()).singleElement().satisfies(w -> {
            assertThat(w.provider()).isEqualTo("efa");
            assertThat(w.function()).isEqualTo("efa_rdm_ep_set_shared_memory_permitted");
            assertThat(w.count()).isEqualTo(2);
            assertThat(w.harmless()).isTrue();
        });
        assertThat(log.warnings()).as("NCCL's own WARN lines").isZero();
    }

    /** The block scanner and the line reader (the reference) agree, and a range cut anywhere reads the same. */
    @Test
    void theBlockScannerAndTheLineReaderAgree() throws IOException, InterruptedException {
        for (String name : new String[] {"nccl-log-ofi-libfabric-efa-getinfo-empty-list-cloudwatch.txt",
                "nccl-log-ofi-libfabric-efa-shm-permitted-warn-cloudwatch.txt"}) {
            Path file = CorpusLogs.CORPUS.resolve(name);
            NcclLog blocks = NcclLog.parse(file);
            NcclLog lines;
            try (BufferedReader in = Files.newBufferedReader(file)) {
                lines = NcclLog.parse(in, file.toString());
            }
            assertThat(lines.libfabricWarnings()).isEqualTo(blocks.libfabricWarnings());
            byte[] bytes = Files.readAllBytes(file);
            for (int at = 1; at < bytes.length; at++) {
                if (bytes[at - 1] == '\n') {
                    assertThat(LogReader.read(file, new long[] {at}, 512).finish(file.toString()).libfabricWarnings())
                            .as(name + " cut at byte " + at).isEqualTo(blocks.libfabricWarnings());
                }
            }
        }
    }
}
