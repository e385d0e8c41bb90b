package io.nccldoctor.core;

import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.RecordedCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds a fake host for tests: a folder standing for {@code /} (files and symbolic links written with
 * {@link #file} and {@link #link}), recorded command outcomes and native answers.
 */
public final class TestHosts {

    private final Path root;
    private final List<CommandResult> commands = new ArrayList<>();
    private final Map<String, Fact<?>> natives = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();

    private TestHosts(Path root) {
        this.root = root;
    }

    public static TestHosts at(Path root) {
        return new TestHosts(root);
    }

    /** Writes {@code content} at host path {@code hostPath} (parents created). */
    public TestHosts file(String hostPath, String content) {
        try {
            Path p = local(hostPath);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public TestHosts dir(String hostPath) {
        try {
            Files.createDirectories(local(hostPath));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A symbolic link at {@code hostPath} whose target is {@code target}, verbatim (relative or absolute). */
    public TestHosts link(String hostPath, String target) {
        try {
            Path p = local(hostPath);
            Files.createDirectories(p.getParent());
            Files.createSymbolicLink(p, Path.of(target));
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public TestHosts command(CommandResult result) {
        commands.add(result);
        return this;
    }

    public TestHosts stdout(List<String> argv, String stdout) {
        return command(new CommandResult.Exited(argv, 0, stdout, "", 1));
    }

    public TestHosts nativeAnswer(String key, Fact<?> answer) {
        natives.put(key, answer);
        return this;
    }

    public TestHosts env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public Host host() {
        NativeQueries recorded = new NativeQueries() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Fact<T> query(String key, Class<T> type, Supplier<Fact<T>> live) {
                Fact<?> f = natives.get(key);
                return f == null ? Fact.absent("no native answer for " + key) : (Fact<T>) f;
            }
        };
        return new Host(HostRoot.at(root), new RecordedCommandRunner(commands), recorded, env, "test " + root);
    }

    private Path local(String hostPath) {
        return root.resolve(hostPath.substring(1));
    }
}
