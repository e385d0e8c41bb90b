package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.nccldoctor.core.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The output file rule: replace only a file this tool wrote, else --force; never through a link; no temporary file left. */
class OwnedFileTest {

    @TempDir
    Path tmp;

    private long leftovers() throws Exception {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
        }
    }

    @Test
    void aFileThisToolWroteIsReplacedAnotherOnlyWithForce() throws Exception {
        Path f = tmp.resolve("nccl_tuner.conf");
        OwnedFile.write(f, TunerFile.MARKER + ": one\n", false, "-o");
        OwnedFile.write(f, TunerFile.MARKER + ": two\n", false, "-o");
        assertThat(Files.readString(f)).isEqualTo(TunerFile.MARKER + ": two\n");
        Files.writeString(f, "allreduce,0,1,ring,ll,-1,-1,-1\n");
        assertThatThrownBy(() -> OwnedFile.write(f, TunerFile.MARKER + ": three\n", false, "-o")).isInstanceOf(InputException.class)
                .hasMessage("-o " + f + ": exists and was not written by nccl-doctor tune (its first line is not '# nccl-doctor tune…'); "
                        + "give another name, or --force to replace it");
        assertThat(Files.readString(f)).isEqualTo("allreduce,0,1,ring,ll,-1,-1,-1\n");
        OwnedFile.write(f, TunerFile.MARKER + ": three\n", true, "-o");
        assertThat(Files.readString(f)).startsWith(TunerFile.MARKER);
        assertThat(Files.getPosixFilePermissions(f).toString()).as("NCCL reads it as any user").contains("OTHERS_READ");
        assertThat(leftovers()).isZero();
    }

    @Test
    void aLinkIsNeverFollowedAndWithForceTheLinkItselfIsReplaced() throws Exception {
        Path target = tmp.resolve("elsewhere.conf");
        Files.writeString(target, TunerFile.MARKER + ": the link's target\n");
        Path link = Files.createSymbolicLink(tmp.resolve("nccl_tuner.conf"), target);
        assertThatThrownBy(() -> OwnedFile.write(link, TunerFile.MARKER + ": new\n", false, "-o")).isInstanceOf(InputException.class)
                .hasMessageContaining("is a symbolic link; give another name, or --force to replace the link itself");
        OwnedFile.write(link, TunerFile.MARKER + ": new\n", true, "-o");
        assertThat(Files.isSymbolicLink(link)).isFalse();
        assertThat(Files.readString(target)).as("the target is untouched").isEqualTo(TunerFile.MARKER + ": the link's target\n");
        assertThat(leftovers()).isZero();
    }

    @Test
    void aNameTooLongForItsTemporaryFileFailsWithoutLeavingOne() throws Exception {
        Path f = tmp.resolve("n".repeat(250));
        assertThatThrownBy(() -> OwnedFile.write(f, "x", false, "-o")).isInstanceOf(InputException.class).hasMessageContaining(
                "cannot write");
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void aFolderOrAMissingFolderIsRefusedBeforeAnythingIsWritten() throws Exception {
        assertThatThrownBy(() -> OwnedFile.write(tmp, "x", true, "-o")).isInstanceOf(InputException.class).hasMessageEndingWith(
                ": is a folder; give a file name");
        Path nowhere = tmp.resolve("missing").resolve("nccl_tuner.conf");
        assertThatThrownBy(() -> OwnedFile.write(nowhere, "x", true, "-o")).isInstanceOf(InputException.class).hasMessageContaining(
                "no folder");
        assertThat(leftovers()).isZero();
    }

    /** A folder one may not write in: as root every folder is writable, so this runs for other users only. */
    @Test
    void aWriteThatFailsLeavesNoTemporaryFile() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root writes into a read-only folder");
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Path f = dir.resolve("nccl_tuner.conf");
        assertThat(dir.toFile().setWritable(false)).isTrue();
        try {
            assertThatThrownBy(() -> OwnedFile.write(f, "x", false, "-o")).isInstanceOf(InputException.class).hasMessageContaining(
                    "cannot write");
            try (Stream<Path> s = Files.list(dir)) {
                assertThat(s.toList()).isEmpty();
            }
        } finally {
            dir.toFile().setWritable(true);
        }
    }
}
