package io.nccldoctor.reports.pairwise;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The names of result files. This tool writes NODE1_NODE2.txt for a pair and group_FIRST_to_LAST_N.txt for a
 * bisection half. Files others wrote are read when named by the pair: the two node names joined by "_", "__", "-",
 * "--", "+" or ",", with the extension .txt, .log, .out or none (nodeA_nodeB.txt, nodeA-nodeB.log). A name that splits
 * more than one way (gpu-01-gpu-02) is resolved by the node list when one is given, else by the split whose halves look
 * alike (the same characters with the digits in the same places); one that still splits two ways is not read.
 */
final class PairFiles {

    static final String EXTENSION = ".txt";
    static final List<String> EXTENSIONS = List.of(".txt", ".log", ".out");
    static final String GROUP_PREFIX = "group_";
    static final List<String> SEPARATORS = List.of("__", "--", "+", ",", "_", "-");
    private static final String HOST = "[A-Za-z0-9][A-Za-z0-9._-]*";

    private PairFiles() {
    }

    static String pairName(String a, String b) {
        return a + "_" + b;
    }

    static String groupName(List<String> nodes) {
        return GROUP_PREFIX + nodes.get(0) + "_to_" + nodes.get(nodes.size() - 1) + "_" + nodes.size();
    }

    /**
     * The pair a file name names.
     *
     * @param pair the two nodes, or empty with {@code why}
     */
    record Named(Optional<List<String>> pair, String why) {
    }

    static Named parse(String fileName, Set<String> known) {
        String stem = stem(fileName);
        if (stem == null) {
            return new Named(Optional.empty(), "not a text output (.txt, .log, .out or no extension)");
        }
        Set<List<String>> splits = new LinkedHashSet<>();
        for (String sep : SEPARATORS) {
            for (int i = stem.indexOf(sep); i > 0; i = stem.indexOf(sep, i + 1)) {
                String a = stem.substring(0, i);
                String b = stem.substring(i + sep.length());
                if (a.matches(HOST) && b.matches(HOST) && !a.equals(b) && !a.endsWith("_") && !a.endsWith("-")) {
                    splits.add(List.of(a, b));
                }
            }
        }
        List<List<String>> candidates = new ArrayList<>(splits);
        if (!known.isEmpty()) {
            candidates.removeIf(p -> !known.contains(p.get(0)) || !known.contains(p.get(1)));
            return candidates.size() == 1 ? new Named(Optional.of(candidates.get(0)), "")
                    : new Named(Optional.empty(), candidates.isEmpty() ? "names no two of the given nodes"
                    : "splits into more than one pair of the given nodes: " + candidates);
        }
        if (candidates.size() > 1) {
            candidates.removeIf(p -> !shape(p.get(0)).equals(shape(p.get(1))));
        }
        return candidates.size() == 1 ? new Named(Optional.of(candidates.get(0)), "")
                : new Named(Optional.empty(), candidates.isEmpty() ? "names no pair of nodes (NODE1_NODE2.txt)"
                : "splits into more than one pair of names; give the node list to tell them apart");
    }

    /** The name without .txt, .log or .out; the name itself without an extension; null for another extension. */
    static String stem(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String ext : EXTENSIONS) {
            if (lower.endsWith(ext)) {
                return fileName.substring(0, fileName.length() - ext.length());
            }
        }
        int dot = fileName.lastIndexOf('.');
        // a dot followed by letters is an extension (.json, .csv); host names keep dots before digits or inside domains
        return dot > 0 && fileName.substring(dot + 1).matches("[A-Za-z]{1,5}") && !fileName.substring(0, dot).contains(".")
                ? null : fileName;
    }

    /** "gpu-01" → "gpu-##": the name with its digits masked, to tell which split of a name gives two alike halves. */
    static String shape(String name) {
        return name.replaceAll("\\d", "#");
    }
}
