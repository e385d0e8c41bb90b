package io.nccldoctor.core.capture;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.RecordedCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import io.nccldoctor.core.read.Inputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** A capture folder opened for replay: its manifest checked, its host ready for the probes. */
public record Capture(Path dir, Manifest manifest, Host host) {

    /** Opens {@code dir}; anything missing or malformed is an {@link InputException} naming the file and line. */
    public static Capture open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new InputException("--from " + dir + ": no such folder; give a folder written by 'nccl-doctor capture -o DIR'");
        }
        Path manifestFile = dir.resolve(Manifest.FILE);
        if (!Files.isRegularFile(manifestFile)) {
            throw new InputException("--from " + dir + ": no " + Manifest.FILE + " there, so it is not a capture (or its capture did not finish); capture again with 'nccl-doctor capture -o DIR'");
        }
        Manifest manifest = read(manifestFile, new TypeReference<Manifest>() { });
        if (manifest.formatVersion() != Manifest.FORMAT_VERSION) {
            throw new InputException(manifestFile + ": capture format " + manifest.formatVersion()
                    + " is not supported by this version (it reads format " + Manifest.FORMAT_VERSION + "); use a matching nccl-doctor");
        }
        List<CommandResult> commands = readOptional(dir.resolve(Manifest.COMMANDS), new TypeReference<List<CommandResult>>() { }, List.of());
        if (commands.contains(null)) {
            throw new InputException(dir.resolve(Manifest.COMMANDS) + ": [" + commands.indexOf(null) + "]: null where a recorded command "
                    + "belongs; capture again or restore the file");
        }
        Map<String, JsonNode> natives = readOptional(dir.resolve(Manifest.NATIVES), new TypeReference<Map<String, JsonNode>>() { }, Map.of());
        Host host = new Host(HostRoot.at(dir.resolve(Manifest.ROOT)), new RecordedCommandRunner(commands),
                recorded(dir, natives), manifest.env() == null ? Map.of() : manifest.env(), "capture " + dir);
        return new Capture(dir, manifest, host);
    }

    private static NativeQueries recorded(Path dir, Map<String, JsonNode> answers) {
        return new NativeQueries() {
            @Override
            public <T> Fact<T> query(String key, Class<T> type, Supplier<Fact<T>> live) {
                JsonNode node = answers.get(key);
                if (node == null) {
                    return Fact.absent("not in the capture: native query " + key);
                }
                String where = dir.resolve(Manifest.NATIVES) + ": " + key;
                Fact<JsonNode> raw = Json.convert(node, new TypeReference<Fact<JsonNode>>() { }, where);
                return raw.map(v -> Json.convert(v, type, where + ".value"));
            }
        };
    }

    private static <T> T readOptional(Path file, TypeReference<T> type, T fallback) {
        return Files.isRegularFile(file) ? read(file, type) : fallback;
    }

    /** A file of the capture as its type: bounded, and every problem one line naming the file and the field. */
    private static <T> T read(Path file, TypeReference<T> type) {
        try {
            JsonNode tree = Json.tree(Inputs.text(file));
            return Json.convert(tree, type, file.toString());
        } catch (InputException e) {
            throw new InputException(e.getMessage() + "; capture again or restore the file", e);
        }
    }
}
