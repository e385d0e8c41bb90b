package io.nccldoctor.core.output;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The one rule for every file a verb writes with {@code -o FILE}: a new file is created; an existing one is replaced
 * only when it carries this tool's {@link Marker} (an earlier run's output), any other file, a symbolic link (the link
 * itself is replaced) only with {@code --force}; a folder never. The target's folder must exist: a mistyped path is
 * refused rather than created. The write is {@link AtomicFile atomic}.
 */
public final class OutputFile {

    private OutputFile() {
    }

    /** Refuses a target this rule does not let us replace; called before the work, so a refusal costs nothing. */
    public static void check(Path target, boolean force, String flag) {
        String name = flag + " " + target;
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new InputException(name + ": is a folder; give a file name");
        }
        Path dir = target.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new InputException(name + ": the folder " + dir + " does not exist; create it first (mkdir -p " + dir + ")");
        }
        if (force) {
            return;
        }
        if (Files.isSymbolicLink(target)) {
            throw new InputException(name + ": is a symbolic link; give the file it points to, or --force to replace the link itself");
        }
        if (Files.exists(target) && !Marker.in(target)) {
            throw new InputException(name + ": exists and is not an earlier nccl-doctor output (its first line carries no nccl-doctor "
                    + "marker); give another name, or --force to replace it");
        }
    }

    /** Checks again (the file may have appeared meanwhile), then writes {@code doc} (already marked) atomically. */
    public static void write(Path target, byte[] doc, boolean force, String flag) {
        write(target, out -> out.write(doc), force, flag);
    }

    /** The same for a document streamed as it is made (marked by whoever streams it). */
    public static void write(Path target, AtomicFile.Content doc, boolean force, String flag) {
        write(target, doc, force, flag, false);
    }

    /** The same for a configuration other users' jobs read: rw-r--r-- whatever the umask ({@link AtomicFile}). */
    public static void writeShared(Path target, byte[] doc, boolean force, String flag) {
        write(target, out -> out.write(doc), force, flag, true);
    }

    private static void write(Path target, AtomicFile.Content doc, boolean force, String flag, boolean readableByAll) {
        check(target, force, flag);
        try {
            AtomicFile.write(target, doc, readableByAll);
        } catch (IOException e) {
            throw new InputException(flag + " " + target + ": cannot write (" + e.getMessage() + ")", e);
        }
    }
}
