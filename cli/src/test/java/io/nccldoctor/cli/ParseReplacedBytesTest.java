package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `parse` counts the bytes that are not UTF-8 as report, compare and cluster do, instead of replacing them unsaid. */
class ParseReplacedBytesTest {

    @TempDir
    Path tmp;

    @Test
    void bytesThatAreNotUtf8AreCountedOnStandardError() throws Exception {
        Path real = Path.of("../corpus/nccl-tests/nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256.txt");
        ByteArrayOutputStream damaged = new ByteArrayOutputStream();
        damaged.write(Files.readAllBytes(real));
        damaged.write(new byte[] {(byte) 0xff, (byte) 0xfe, '\n'}); // two bytes that start no UTF-8 character
        Path f = Files.write(tmp.resolve("run.txt"), damaged.toByteArray());

        CorpusTest.Run named = CorpusTest.run("parse", "nccl-tests", f.toString());
        assertThat(named.code()).isZero();
        assertThat(named.err().strip()).isEqualTo("parse: " + f + " read as nccl-tests (2 bytes that are not UTF-8 read as U+FFFD (a "
                + "character cut in two, a terminal escape or binary data); the rest was read)");
        assertThat(named.out()).contains("peak bus bandwidth: 488.81 GB/s");

        CorpusTest.Run told = CorpusTest.run("parse", f.toString());
        assertThat(told.err()).startsWith("parse: " + f + " read as nccl-tests (").contains("; 2 bytes that are not UTF-8 read as U+FFFD");

        CorpusTest.Run clean = CorpusTest.run("parse", "nccl-tests", real.toString());
        assertThat(clean.err()).as("a clean file says nothing").isEmpty();
    }
}
