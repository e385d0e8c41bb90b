package io.nccldoctor.core.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one output rule: new files written, our own replaced, anything else refused without --force, folders never created. */
class OutputFileTest {

    @TempDir
    Path tmp;

    private static byte[] doc(String body) {
        return Marker.add(Marker.Style.HASH, body.getBytes(StandardCharsets.UTF_8), "test -o");
    }

    @Test
    void aNewFileThenItsOwnReplacementAndNothingLeftBeside() throws Exception {
        Path f = tmp.resolve("nccl-doctor.prom");
        OutputFile.write(f, doc("x 1\n"), false, "-o");
        OutputFile.write(f, doc("x 2\n"), false, "-o");
        assertThat(Files.readString(f)).endsWith("x 2\n");
        try (Stream<Path> in = Files.list(tmp)) {
            assertThat(in).containsExactly(f);
        }
        assertThat(AtomicFile.pending()).isEmpty();
    }

    @Test
    void aUsersFileIsRefusedUntouchedUnlessForced() throws Exception {
        Path runbook = tmp.resolve("runbook.md");
        Files.writeString(runbook, "# nccl-doctor runbook\n\nnccl-doctor preflight -o /var/lib/...\n");
        assertThatThrownBy(() -> OutputFile.write(runbook, doc("x 1\n"), false, "-o")).isInstanceOf(InputException.class)
                .hasMessage("-o " + runbook + ": exists and is not an earlier nccl-doctor output (its first line carries no "
                        + "nccl-doctor marker); give another name, or --force to replace it");
        assertThat(Files.readString(runbook)).startsWith("# nccl-doctor runbook");
        OutputFile.write(runbook, doc("x 1\n"), true, "-o");
        assertThat(Files.readString(runbook)).startsWith("# nccl-doctor generated this file");
    }

    @Test
    void aMissingFolderAFolderAndALinkAreRefusedInOneLine() throws Exception {
        Path missing = tmp.resolve("no/such/dir/x.prom");
        assertThatThrownBy(() -> OutputFile.check(missing, true, "-o")).hasMessageContaining("the folder " + missing.getParent()
                + " does not exist; create it first (mkdir -p " + missing.getParent() + ")");
        assertThat(tmp.resolve("no")).doesNotExist();
        assertThatThrownBy(() -> OutputFile.check(tmp, true, "-o")).hasMessageContaining("is a folder; give a file name");
        Path own = tmp.resolve("own.prom");
        OutputFile.write(own, doc("x 1\n"), false, "-o");
        Path link = Files.createSymbolicLink(tmp.resolve("link.prom"), own);
        assertThatThrownBy(() -> OutputFile.check(link, false, "-o")).hasMessageContaining("is a symbolic link");
        OutputFile.write(link, doc("x 3\n"), true, "-o");
        assertThat(Files.isSymbolicLink(link)).as("--force replaces the link itself").isFalse();
        assertThat(Files.readString(own)).as("not its target").endsWith("x 1\n");
    }
}
