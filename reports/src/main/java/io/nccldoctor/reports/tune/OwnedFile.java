package io.nccldoctor.reports.tune;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A file `tune` writes (the tuner configuration, the verification plan): replaced only when its first line carries
 * {@link TunerFile#MARKER} (a file this tool wrote before), otherwise only with --force; a symbolic link is never
 * followed (with --force the link itself is replaced). Written to a temporary file in the same folder and moved into
 * place, so NCCL starting a job meanwhile reads the old file or the new one, never half of one; the temporary file is
 * removed on every path, by a shutdown hook too when the process is interrupted.
 */
public final class OwnedFile {

    private OwnedFile() {
    }

    /** @param flag the option that named the file, for messages */
    public static void write(Path target, String text, boolean force, String flag) {
        refuse(target, force, flag);
        Path dir = target.toAbsolutePath().getParent();
        Path[] tmp = {null};
        Thread cleanup = new Thread(() -> deleteQuietly(tmp[0]));
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            tmp[0] = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            Files.writeString(tmp[0], text, StandardCharsets.UTF_8);
            if (Files.getFileStore(tmp[0]).supportsFileAttributeView("posix")) {
                // NCCL reads the file in every job, often as another user; a temporary file starts at rw-------
                Files.setPosixFilePermissions(tmp[0], PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp[0], target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp[0], target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp[0] = null;
        } catch (IOException e) {
            throw new InputException(flag + " " + target + ": cannot write (" + e.getMessage() + ")", e);
        } finally {
            deleteQuietly(tmp[0]);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** Refuses what may not be replaced, before anything is written. */
    public static void refuse(Path target, boolean force, String flag) {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new InputException(flag + " " + target + ": is a folder; give a file name");
        }
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new InputException(flag + " " + target + ": no folder " + dir + " to write it in");
        }
        if (force) {
            return;
        }
        if (Files.isSymbolicLink(target)) {
            throw new InputException(flag + " " + target + ": is a symbolic link" + (Files.exists(target) ? "" : " to nothing")
                    + "; give another name, or --force to replace the link itself");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !ours(target)) {
            throw new InputException(flag + " " + target + ": exists and was not written by nccl-doctor tune (its first line is not '"
                    + TunerFile.MARKER + "…'); give another name, or --force to replace it");
        }
    }

    /** The first line starts with the marker. */
    static boolean ours(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            return first != null && first.startsWith(TunerFile.MARKER);
        } catch (IOException | UncheckedIOException e) {
            return false; // unreadable, or not text: not a file this tool wrote
        }
    }

    private static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // the write already failed and says so; a leftover temporary file is named after its target
        }
    }
}
