package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.read.Decoded;
import io.nccldoctor.core.read.Inputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reads the inputs of `nccl-doctor cluster`: the --json of preflight, gdr or topo (the snapshot inside), a bare snapshot,
 * a capture folder (replayed into a snapshot by the function the CLI passes), a bandwidth CSV, or a folder holding any
 * of these one level deep. Snapshot files are read in parallel and each is reduced to its drift-table cells at once,
 * so a thousand nodes never sit in memory as trees.
 */
public final class ClusterInputs {

    private final Function<Path, Snapshot> captures;

    /** The inputs of one read, by kind, in the order given (a folder's entries in name order). */
    private static final class Found {
        final List<Path> json = new ArrayList<>();
        final List<Path> folders = new ArrayList<>();
        final List<Path> csv = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
    }

    /** @param captures replays a capture folder into a snapshot (the CLI's probes over the capture's host) */
    public ClusterInputs(Function<Path, Snapshot> captures) {
        this.captures = captures;
    }

    /** Reads every input; one that is none of the known kinds is an {@link InputException} naming it. */
    public ClusterData read(List<String> args) {
        Found found = new Found();
        for (String a : args) {
            classify(Path.of(a), found);
        }
        if (found.json.isEmpty() && found.folders.isEmpty() && found.csv.isEmpty()) {
            throw new InputException(String.join(", ", args) + ": no input: no snapshot (.json), capture folder or bandwidth file (.csv)");
        }
        List<NodeReading> nodes = new ArrayList<>();
        for (Attempt a : found.json.parallelStream().map(ClusterInputs::attempt).toList()) {
            if (a.error() != null) {
                throw a.error(); // the first bad file in input order, whichever thread met it first
            }
            nodes.add(a.reading());
            a.replaced().ifPresent(found.notes::add);
        }
        for (Path dir : found.folders) {
            nodes.add(NodeReading.of(captures.apply(dir), dir.toString()));
        }
        List<Sample> samples = new ArrayList<>();
        for (Path p : found.csv) {
            Decoded text = Inputs.text(p);
            text.note().ifPresent(found.notes::add);
            samples.addAll(BandwidthFile.parse(text.lines(), p.toString()));
        }
        return new ClusterData(args, nodes, samples, found.notes);
    }

    private static void classify(Path p, Found found) {
        if (Files.isDirectory(p)) {
            if (Files.isRegularFile(p.resolve("manifest.json"))) {
                found.folders.add(p);
            } else {
                folder(p, found);
            }
        } else if (!Files.isRegularFile(p)) {
            throw new InputException(p + ": no such file or folder");
        } else if (extension(p).equals("csv")) {
            found.csv.add(p);
        } else if (extension(p).equals("json")) {
            found.json.add(p);
        } else {
            List<String> lines = Inputs.text(p).lines();
            String first = lines.stream().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
            if (first.startsWith("{")) {
                found.json.add(p);
            } else if (BandwidthFile.looksLike(lines)) {
                found.csv.add(p);
            } else {
                throw new InputException(p + ": neither a snapshot (JSON) nor a bandwidth file (header '" + BandwidthFile.HEADER + "')");
            }
        }
    }

    /** A folder of inputs: its .json and .csv files and capture folders, in name order; anything else is noted. */
    private static void folder(Path dir, Found found) {
        List<String> other = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path e : entries.sorted().toList()) {
                String name = e.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                if (Files.isDirectory(e) && Files.isRegularFile(e.resolve("manifest.json"))) {
                    found.folders.add(e);
                } else if (Files.isRegularFile(e) && extension(e).equals("json")) {
                    found.json.add(e);
                } else if (Files.isRegularFile(e) && extension(e).equals("csv")) {
                    found.csv.add(e);
                } else {
                    other.add(name);
                }
            }
        } catch (IOException e) {
            throw new InputException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
        if (!other.isEmpty()) {
            found.notes.add(dir + ": left out " + other.size() + (other.size() == 1 ? " entry" : " entries") + " that are not .json, .csv or "
                    + "capture folders: " + ClusterChecks.names(new LinkedHashSet<>(other), ClusterChecks.NAMED));
        }
    }

    /** One snapshot file read on a worker thread: the node, or the error; and how many of its bytes were not UTF-8. */
    private record Attempt(NodeReading reading, InputException error, Optional<String> replaced) {
    }

    private static Attempt attempt(Path p) {
        try {
            Decoded text = Inputs.text(p);
            return new Attempt(SnapshotFile.read(text, p), null, text.note());
        } catch (InputException e) {
            return new Attempt(null, e, Optional.empty());
        }
    }

    private static String extension(Path p) {
        String n = p.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot < 0 ? "" : n.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
