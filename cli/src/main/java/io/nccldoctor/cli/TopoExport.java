package io.nccldoctor.cli;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.NcclTopoXmlWriter;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.TopologyView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import picocli.CommandLine.Option;

/**
 * {@code --emit-nccl-topo-xml FILE}: the tree in NCCL's topology format. Written to a temporary file in the same
 * folder and moved into place, so a reader (NCCL at job start) sees the old file or the new one, never half of one;
 * the temporary file is removed on every path. An existing file, or a symbolic link (even a dangling one, which
 * would otherwise be followed to wherever it points), is replaced only with --force, and then the link itself is
 * replaced, not its target.
 */
final class TopoExport {

    @Option(names = "--emit-nccl-topo-xml", paramLabel = "FILE",
            description = "Write the PCI tree as an NCCL topology file (for NCCL_TOPO_FILE where a VM hides the real topology).")
    Path file;

    /** The verb's --force (OutputOptions): replace an existing file, or a symbolic link there (the link itself). */
    boolean force;

    /** Writes the file when asked; returns a line for the user, or null. */
    String write(Snapshot s) {
        if (file == null) {
            return null;
        }
        boolean link = Files.isSymbolicLink(file);
        if (link && !force) {
            throw new InputException("--emit-nccl-topo-xml " + file + ": is a symbolic link" + (Files.exists(file) ? "" : " to nothing")
                    + "; give another name, or add --force to replace the link itself");
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !force) {
            throw new InputException("--emit-nccl-topo-xml " + file + ": the file exists; choose another name or add --force");
        }
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new InputException("--emit-nccl-topo-xml " + file + ": is a folder; give a file name");
        }
        var devices = TopologyView.devices(s).orElseThrow(() -> new InputException("--emit-nccl-topo-xml: the PCI bus could not be read"));
        String why = "not in this source";
        Platform.Cpu cpu = Sections.platform(s).map(Platform::cpu).orElse(new Platform.Cpu(Fact.absent(why), Fact.absent(why),
                Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why)));
        replace(file, NcclTopoXmlWriter.write(devices, cpu));
        return "wrote NCCL topology file " + file + " (use it with NCCL_TOPO_FILE=" + file.toAbsolutePath() + ")";
    }

    /**
     * Temp file beside the target, moved over it (the move replaces a link, never follows it). The temp never stays:
     * removed when the write fails, and by a shutdown hook when the process is interrupted (SIGINT, SIGTERM) meanwhile.
     */
    static void replace(Path target, String text) {
        Path dir = target.toAbsolutePath().getParent();
        Path[] tmp = {null};
        Thread cleanup = new Thread(() -> deleteQuietly(tmp[0]));
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            tmp[0] = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            Files.writeString(tmp[0], text, StandardCharsets.UTF_8);
            readableByAll(tmp[0]);
            try {
                Files.move(tmp[0], target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp[0], target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp[0] = null;
        } catch (IOException e) {
            throw new InputException("--emit-nccl-topo-xml " + target + ": cannot write (" + e.getMessage() + ")", e);
        } finally {
            deleteQuietly(tmp[0]);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** rw-r--r--: NCCL reads the file in every job, often as another user; a temp file starts at rw-------. */
    private static void readableByAll(Path p) throws IOException {
        if (Files.getFileStore(p).supportsFileAttributeView("posix")) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // the write already failed and says so; a leftover temp file is named after its target
        }
    }
}
