package io.nccldoctor.core.output;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file replaced in one step: the bytes go to a temporary file in the target's folder (the same file system, so the
 * rename is atomic and a textfile collector or a browser never reads half a file), which is then moved over the
 * target. The temporary file is removed on every path: after the move, on an error, and when the JVM is stopped by
 * SIGINT or SIGTERM in the middle (a shutdown hook waits for a write in progress to finish or fail, then removes what is
 * left). Only SIGKILL, which runs no code, can leave a {@code .nccl-doctor-*.tmp} behind.
 */
public final class AtomicFile {

    private static final Object LOCK = new Object();
    private static final Set<Path> PENDING = new LinkedHashSet<>();
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final Set<PosixFilePermission> SHARED = PosixFilePermissions.fromString("rw-r--r--");
    private static boolean hooked;
    private static boolean closing;

    private AtomicFile() {
    }

    /** What writes the content: a document streamed as it is made, too large to hold. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code bytes} to {@code target} atomically; the folder must exist. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, out -> out.write(bytes));
    }

    /** Writes what {@code content} streams to {@code target} atomically; the folder must exist. */
    public static void write(Path target, Content content) throws IOException {
        write(target, content, false);
    }

    /**
     * The same; {@code readableByAll} makes the file rw-r--r-- whatever the umask, before it takes the target's name:
     * for a configuration that other users' jobs read (NCCL reads a tuner file in every job, often as another user).
     */
    public static void write(Path target, Content content, boolean readableByAll) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = dir.resolve(".nccl-doctor-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + ".tmp");
        synchronized (LOCK) {
            if (closing) {
                throw new IOException("the process is being stopped");
            }
            hook();
            PENDING.add(tmp);
            try {
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE))) { // the umask's permissions, as any new file
                    content.writeTo(out);
                }
                if (readableByAll && Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                    Files.setPosixFilePermissions(tmp, SHARED);
                }
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
                PENDING.remove(tmp);
            }
        }
    }

    /** The temporary files being written now (for tests). */
    static Set<Path> pending() {
        synchronized (LOCK) {
            return Set.copyOf(PENDING);
        }
    }

    private static void hook() {
        if (hooked) {
            return;
        }
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(AtomicFile::cleanUp, "nccl-doctor-output-cleanup"));
    }

    /** On shutdown: no new write starts; the one in progress has finished (the lock), so whatever is pending is left over. */
    private static void cleanUp() {
        synchronized (LOCK) {
            closing = true;
            for (Path p : PENDING) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    System.err.println("nccl-doctor: could not remove " + p + " (" + e.getMessage() + ")");
                }
            }
            PENDING.clear();
        }
    }
}
