package io.nccldoctor.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader of text inputs: bounded, and bytes that are not UTF-8 replaced and counted rather than refused. */
class InputsTest {

    @TempDir
    Path tmp;

    @Test
    void devZeroIsOneLineNotAFullHeap() {
        assertThatThrownBy(() -> Inputs.text(Path.of("/dev/zero"))).isInstanceOf(InputException.class)
                .hasMessageStartingWith("/dev/zero: more than 64 MiB;");
        assertThatThrownBy(() -> Inputs.text(Path.of("/dev/zero"), "--lspci-tree")).hasMessageStartingWith("--lspci-tree /dev/zero: more than 64 MiB");
    }

    @Test
    void aFileLargerThanTheCapIsRefusedBeforeItIsRead() throws Exception {
        Path big = tmp.resolve("big.txt");
        try (var ch = FileChannel.open(big, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {'\n'}), Inputs.MAX_BYTES); // sparse: 64 MiB + 1 byte, none of it on disk
        }
        assertThatThrownBy(() -> Inputs.text(big)).isInstanceOf(InputException.class).hasMessageContaining("big.txt: more than 64 MiB");
    }

    @Test
    void oneInvalidByteIsReplacedAndCounted() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write("# nThread 1 nGpus 1\n".getBytes(StandardCharsets.UTF_8));
        b.write(0xFF); // not UTF-8 anywhere
        b.write("caf\u00e9 \u2014 ok\n".getBytes(StandardCharsets.UTF_8));
        b.write(new byte[] {(byte) 0xE2, (byte) 0x82}); // a three-byte character cut after two bytes, at the end
        Path f = Files.write(tmp.resolve("paste.txt"), b.toByteArray());
        Decoded d = Inputs.text(f);
        assertThat(d.replacedBytes()).isEqualTo(3);
        assertThat(d.lines()).containsExactly("# nThread 1 nGpus 1", "\uFFFDcaf\u00e9 \u2014 ok", "\uFFFD");
        assertThat(d.note()).hasValueSatisfying(n -> assertThat(n).startsWith(f + ": 3 bytes that are not UTF-8 read as U+FFFD"));
        assertThat(Inputs.decode("plain".getBytes(StandardCharsets.UTF_8), "x").note()).isEmpty();
    }

    @Test
    void aFolderOrAMissingFileIsOneLine() {
        assertThatThrownBy(() -> Inputs.text(tmp)).hasMessage(tmp + ": is a folder; give a file");
        assertThatThrownBy(() -> Inputs.text(tmp.resolve("nope.txt"))).hasMessage(tmp.resolve("nope.txt") + ": cannot read (no such file)");
    }
}
