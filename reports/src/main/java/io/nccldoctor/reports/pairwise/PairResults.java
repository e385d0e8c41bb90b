package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A results folder read: one result per pair the file names name ({@link PairFiles}), whoever ran them; what else the
 * folder holds is counted in the notes, never dropped silently.
 */
final class PairResults {

    /** Result files are nccl-tests text: a file past this is not one, and is not read into memory. */
    static final long MAX_BYTES = 64L << 20;

    private PairResults() {
    }

    record Read(List<PairResult> pairs, List<String> notes) {
    }

    static Read read(Path dir, List<String> nodes) {
        if (!Files.isDirectory(dir)) {
            return new Read(List.of(), List.of(dir + ": no results folder yet"));
        }
        Set<String> known = Set.copyOf(nodes);
        Map<Set<String>, PairResult> byPair = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        List<String> unnamed = new ArrayList<>();
        int groups = 0;
        for (Path f : list(dir)) {
            String name = f.getFileName().toString();
            if (name.startsWith(".") || Files.isDirectory(f) || name.endsWith(".partial")) {
                continue;
            }
            if (name.startsWith(PairFiles.GROUP_PREFIX)) {
                groups++;
                continue;
            }
            PairFiles.Named named = PairFiles.parse(name, known);
            if (named.pair().isEmpty()) {
                unnamed.add(name + " (" + named.why() + ")");
                continue;
            }
            PairResult r = result(named.pair().get(), f);
            PairResult before = byPair.putIfAbsent(new HashSet<>(r.nodes()), r);
            if (before != null) {
                notes.add(name + ": the pair " + r.label() + " again (read from " + before.file() + "); this file is left out");
            }
        }
        if (!unnamed.isEmpty()) {
            notes.add(unnamed.size() + " file" + (unnamed.size() == 1 ? "" : "s") + " not read as a pair: " + String.join(", ", unnamed));
        }
        if (groups > 0) {
            notes.add(groups + " bisection result file" + (groups == 1 ? "" : "s") + " (group_…) not counted as pairs");
        }
        List<PairResult> elsewhere = byPair.values().stream().filter(PairResult::ranElsewhere).toList();
        if (!elsewhere.isEmpty()) {
            notes.add(elsewhere.size() + " of " + byPair.size() + " files ran on hosts their name does not name (first: "
                    + elsewhere.get(0).file() + " ran on " + String.join(", ", elsewhere.get(0).ranIn()) + "): the name is trusted");
        }
        return new Read(List.copyOf(byPair.values()), notes);
    }

    /** One result file by its exact name, when present. */
    static Optional<PairResult> file(Path dir, String name, List<String> nodes) {
        Path f = dir.resolve(name);
        return Files.isRegularFile(f) ? Optional.of(result(nodes, f)) : Optional.empty();
    }

    static PairResult result(List<String> nodes, Path f) {
        String name = f.getFileName().toString();
        try {
            if (Files.size(f) > MAX_BYTES) {
                return PairResult.none(nodes, name, PairResult.Status.UNREADABLE, "larger than " + (MAX_BYTES >> 20)
                        + " MiB: not an nccl-tests output", List.of());
            }
            return PairResult.of(nodes, name, List.of(new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\n", -1)));
        } catch (IOException e) {
            throw new InputException(f + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new InputException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
    }
}
