package io.nccldoctor.core.host;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.read.Inputs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file system of the host being examined: {@code /} on a live node, or the {@code root/} folder of a
 * capture. Every probe reads files through here, never through {@code java.io} directly, so that the same
 * code runs live and on replay.
 *
 * <p>Paths are host paths ("/sys/bus/pci/devices/0000:17:00.0"). Symbolic links are resolved here, one
 * component at a time, as if the root were {@code /}: an absolute link target inside a capture stays inside the
 * capture. This matters for sysfs, whose device links ({@code ../../../devices/pci0000:00/…}) carry the PCI
 * hierarchy, and for library links ({@code libnccl.so.2 -> libnccl.so.2.28.3}) that carry versions.
 */
public final class HostRoot {

    private static final int MAX_LINK_HOPS = 40; // Linux's own limit (MAXSYMLINKS)

    private final Path root;
    private final AccessListener listener;

    private HostRoot(Path root, AccessListener listener) {
        this.root = root;
        this.listener = listener;
    }

    /** The machine this JVM runs on. */
    public static HostRoot live() {
        return new HostRoot(Path.of("/"), AccessListener.NONE);
    }

    /** A folder that stands for {@code /}, such as a capture's root or a test's sysfs tree. */
    public static HostRoot at(Path folder) {
        return new HostRoot(folder.toAbsolutePath().normalize(), AccessListener.NONE);
    }

    /** The same root, reporting every access to {@code listener}. */
    public HostRoot listenedBy(AccessListener listener) {
        return new HostRoot(root, listener);
    }

    public Path folder() {
        return root;
    }

    public boolean isLive() {
        return root.getParent() == null;
    }

    /** The path with every symbolic link resolved inside this root (like realpath(3)). */
    public Fact<String> realPath(String hostPath) {
        try {
            String resolved = resolve(hostPath);
            if (!Files.exists(local(resolved), LinkOption.NOFOLLOW_LINKS)) {
                return Fact.absent("no such file: " + hostPath);
            }
            listener.existing(resolved, kindOf(local(resolved)));
            return Fact.of(resolved);
        } catch (IOException e) {
            return failure(hostPath, e);
        }
    }

    public boolean exists(String hostPath) {
        return realPath(hostPath).isValue();
    }

    public Fact<byte[]> readBytes(String hostPath) {
        try {
            String resolved = resolve(hostPath);
            byte[] content;
            try (InputStream in = Files.newInputStream(local(resolved))) {
                content = in.readNBytes(Inputs.MAX_BYTES + 1);
            }
            if (content.length > Inputs.MAX_BYTES) { // a device file or a damaged capture: no probe reads a file this size
                return Fact.error(hostPath + ": more than " + (Inputs.MAX_BYTES >> 20) + " MiB, not read");
            }
            listener.file(resolved, content);
            return Fact.of(content);
        } catch (IOException e) {
            return failure(hostPath, e);
        }
    }

    /** A text file's lines (UTF-8; /proc and sysfs are ASCII). */
    public Fact<List<String>> readLines(String hostPath) {
        return readBytes(hostPath).map(b -> new String(b, StandardCharsets.UTF_8).lines().toList());
    }

    /** A one-value file such as a sysfs attribute, without its trailing newline. */
    public Fact<String> readAttribute(String hostPath) {
        return readBytes(hostPath).map(b -> new String(b, StandardCharsets.UTF_8).strip());
    }

    /** The target of a symbolic link, verbatim; absent when the path is no link. */
    public Fact<String> readLink(String hostPath) {
        try {
            String parent = resolve(parentOf(hostPath));
            String link = join(parent, nameOf(hostPath));
            Path local = local(link);
            if (!Files.isSymbolicLink(local)) {
                return Files.exists(local, LinkOption.NOFOLLOW_LINKS)
                        ? Fact.absent("not a symbolic link: " + hostPath)
                        : Fact.absent("no such file: " + hostPath);
            }
            String target = Files.readSymbolicLink(local).toString();
            listener.symlink(link, target);
            return Fact.of(target);
        } catch (IOException e) {
            return failure(hostPath, e);
        }
    }

    /** Names in a folder, sorted. */
    public Fact<List<String>> list(String hostDir) {
        try {
            String resolved = resolve(hostDir);
            List<AccessListener.Entry> entries = new ArrayList<>();
            try (Stream<Path> children = Files.list(local(resolved))) {
                for (Path child : (Iterable<Path>) children.sorted()::iterator) {
                    AccessListener.Kind kind = kindOf(child);
                    String target = kind == AccessListener.Kind.SYMLINK ? Files.readSymbolicLink(child).toString() : null;
                    entries.add(new AccessListener.Entry(child.getFileName().toString(), kind, target));
                }
            }
            listener.listed(resolved, entries);
            return Fact.of(entries.stream().map(AccessListener.Entry::name).toList());
        } catch (IOException e) {
            return failure(hostDir, e);
        }
    }

    private String resolve(String hostPath) throws IOException {
        if (!hostPath.startsWith("/")) {
            throw new IllegalArgumentException("host paths are absolute: " + hostPath);
        }
        if (hostPath.indexOf('\0') >= 0) { // a name read from a damaged file: no file name holds a NUL byte
            throw new NoSuchFileException(hostPath.replace('\0', '?'));
        }
        Deque<String> pending = new ArrayDeque<>(components(hostPath));
        Deque<String> current = new ArrayDeque<>();
        int hops = 0;
        while (!pending.isEmpty()) {
            String c = pending.pollFirst();
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..")) {
                current.pollLast();
                continue;
            }
            current.addLast(c);
            Path local = local(join(current));
            if (Files.isSymbolicLink(local)) {
                if (++hops > MAX_LINK_HOPS) {
                    throw new FileSystemException(hostPath, null, "too many levels of symbolic links");
                }
                String target = Files.readSymbolicLink(local).toString();
                listener.symlink(join(current), target);
                current.pollLast();
                if (target.startsWith("/")) {
                    current.clear();
                }
                List<String> parts = components(target);
                for (int i = parts.size() - 1; i >= 0; i--) {
                    pending.addFirst(parts.get(i));
                }
            }
        }
        return join(current);
    }

    private Path local(String resolvedHostPath) {
        return resolvedHostPath.equals("/") ? root : root.resolve(resolvedHostPath.substring(1));
    }

    private static AccessListener.Kind kindOf(Path p) {
        if (Files.isSymbolicLink(p)) {
            return AccessListener.Kind.SYMLINK;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return AccessListener.Kind.DIRECTORY;
        }
        return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? AccessListener.Kind.FILE : AccessListener.Kind.OTHER;
    }

    private static List<String> components(String path) {
        return Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    private static String join(Iterable<String> parts) {
        return "/" + String.join("/", parts);
    }

    private static String join(String dir, String name) {
        return dir.equals("/") ? "/" + name : dir + "/" + name;
    }

    static String parentOf(String hostPath) {
        String trimmed = hostPath.replaceAll("/+$", "");
        int slash = trimmed.lastIndexOf('/');
        return slash <= 0 ? "/" : trimmed.substring(0, slash);
    }

    static String nameOf(String hostPath) {
        String trimmed = hostPath.replaceAll("/+$", "");
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static <T> Fact<T> failure(String hostPath, IOException e) {
        if (e instanceof NoSuchFileException) {
            return Fact.absent("no such file: " + hostPath);
        }
        if (e instanceof NotDirectoryException) {
            return Fact.absent("not a folder: " + hostPath);
        }
        if (e instanceof AccessDeniedException) {
            return Fact.error("permission denied: " + hostPath);
        }
        String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : e.getMessage();
        return Fact.error(hostPath + ": " + reason);
    }
}
