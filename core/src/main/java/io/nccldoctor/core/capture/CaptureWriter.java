package io.nccldoctor.core.capture;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.CommandRunner;
import io.nccldoctor.core.host.AccessListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Records exactly what the probes read on a live host into a capture folder: files and links mirrored under
 * {@code root/}, command outcomes in commands.json, native answers in native.json, and manifest.json last, so a
 * half-written capture has no manifest and is refused on replay.
 */
public final class CaptureWriter implements AccessListener {

    private final Path dir;
    private final Path root;
    private final List<CommandResult> commands = new ArrayList<>();
    private final Map<String, JsonNode> natives = new TreeMap<>();
    private int files;

    private CaptureWriter(Path dir) {
        this.dir = dir;
        this.root = dir.resolve(Manifest.ROOT);
    }

    /** Opens {@code dir} for writing; a non-empty folder is refused unless {@code force}, then emptied. */
    public static CaptureWriter create(Path dir, boolean force) {
        try {
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new InputException("capture: " + dir + " exists and is not a folder; choose another -o");
            }
            if (Files.isDirectory(dir) && !isEmpty(dir)) {
                if (!force) {
                    throw new InputException("capture: " + dir + " is not empty; choose an empty folder or add --force to replace its content");
                }
                deleteContent(dir);
            }
            Files.createDirectories(dir.resolve(Manifest.ROOT));
            return new CaptureWriter(dir);
        } catch (IOException e) {
            throw new InputException("capture: cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The live host, with every read mirrored into this capture. */
    public Host recording(Host live) {
        return new Host(live.files().listenedBy(this), recording(live.commands()), recording(live.natives()),
                live.env(), live.source());
    }

    private CommandRunner recording(CommandRunner live) {
        return (argv, timeout) -> {
            CommandResult r = live.run(argv, timeout);
            synchronized (this) {
                commands.add(r);
            }
            return r;
        };
    }

    private NativeQueries recording(NativeQueries live) {
        return new NativeQueries() {
            @Override
            public <T> Fact<T> query(String key, Class<T> type, Supplier<Fact<T>> ask) {
                Fact<T> answer = live.query(key, type, ask);
                synchronized (CaptureWriter.this) {
                    natives.put(key, Json.mapper().valueToTree(answer));
                }
                return answer;
            }
        };
    }

    /** Writes commands.json, native.json and, last, the manifest. */
    public synchronized Path finish(Manifest header) {
        Manifest m = new Manifest(Manifest.FORMAT_VERSION, header.toolVersion(), header.createdAt(), header.hostName(),
                header.argv(), header.env(), header.probes(), files, commands.size(), natives.size());
        try {
            // The element type must be explicit, or the list loses the "outcome" type id of each result.
            Files.writeString(dir.resolve(Manifest.COMMANDS), Json.mapper()
                    .writerFor(new TypeReference<List<CommandResult>>() { }).writeValueAsString(commands) + "\n");
            Files.writeString(dir.resolve(Manifest.NATIVES), Json.write(natives));
            Files.writeString(dir.resolve(Manifest.FILE), Json.write(m));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the capture into " + dir, e);
        }
    }

    @Override
    public synchronized void symlink(String hostPath, String target) {
        Path p = local(hostPath);
        try {
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(p.getParent());
                Files.createSymbolicLink(p, Path.of(target));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("capture: cannot mirror link " + hostPath, e);
        }
    }

    @Override
    public synchronized void file(String hostPath, byte[] content) {
        Path p = local(hostPath);
        try {
            Files.createDirectories(p.getParent());
            boolean fresh = !Files.exists(p, LinkOption.NOFOLLOW_LINKS) || Files.size(p) == 0;
            Files.write(p, content);
            if (fresh) {
                files++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("capture: cannot mirror file " + hostPath, e);
        }
    }

    @Override
    public synchronized void existing(String hostPath, Kind kind) {
        placeholder(local(hostPath), kind);
    }

    @Override
    public synchronized void listed(String hostDir, List<Entry> entries) {
        Path d = local(hostDir);
        placeholder(d, Kind.DIRECTORY);
        for (Entry e : entries) {
            if (e.kind() == Kind.SYMLINK) {
                symlink(hostDir.equals("/") ? "/" + e.name() : hostDir + "/" + e.name(), e.linkTarget());
            } else {
                placeholder(d.resolve(e.name()), e.kind());
            }
        }
    }

    /** A folder, or an empty file standing for one whose existence (not content) was observed. */
    private void placeholder(Path p, Kind kind) {
        try {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            if (kind == Kind.DIRECTORY) {
                Files.createDirectories(p);
            } else {
                Files.createDirectories(p.getParent());
                Files.createFile(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("capture: cannot mirror " + p, e);
        }
    }

    private Path local(String hostPath) {
        return hostPath.equals("/") ? root : root.resolve(hostPath.substring(1));
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    private static void deleteContent(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted((a, b) -> b.getNameCount() - a.getNameCount())::iterator) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        }
    }
}
