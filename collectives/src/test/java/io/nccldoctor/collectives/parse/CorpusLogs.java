package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** An NCCL log of the project's corpus, read by the block scanner and by the line reader, which must agree. */
final class CorpusLogs {

    static final Path CORPUS = Path.of("../corpus/nccl-log");

    private CorpusLogs() {
    }

    static NcclLog read(String name) throws IOException {
        Path file = CORPUS.resolve(name);
        NcclLog streamed = NcclLog.parse(file);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            assertThat(NcclLog.parse(in, name)).as("block and line parsers agree on " + name).isEqualTo(streamed);
        }
        return streamed;
    }
}
