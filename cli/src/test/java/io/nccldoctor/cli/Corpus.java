package io.nccldoctor.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real outputs the corpus test runs: every file of corpus/ (its folder names its kind) and of the public fixture
 * folders (the file name's prefix names it), with the facts read by eye from each (corpus/KIND/facts.tsv, and
 * fixture-facts/MODULE.tsv in this module's test resources), and the
 * texts of no kind that must be refused (READMEs, docs, source, JSON of nccl-doctor's own).
 */
final class Corpus {

    static final Path ROOT = Path.of("..");

    /** The public fixture folders: real outputs the parsers' own tests use, each with a README and facts.tsv. */
    static final List<Path> FIXTURES = List.of(ROOT.resolve("collectives/src/test/resources/fixtures/public"),
            ROOT.resolve("gdr-probe/src/test/resources/fixtures/public"), ROOT.resolve("pcie-inspect/src/test/resources/fixtures/public"));

    /** A fixture's kind by the start of its name; the RDMA state fixtures are named after their tools. */
    private static final Map<String, String> PREFIXES = prefixes();

    /** A fact as facts.tsv has it: the value read by eye, and the note. */
    record Row(String value, String note) {

        /**
         * The value the text itself gives: "N/A" when the note says the value came from outside the pasted block
         * ("not printed; from the source file name"), which no parser can read.
         */
        String inText() {
            return note.startsWith("not printed") || note.contains("not in the block") || note.contains("no test banner in the file")
                    ? "N/A" : value;
        }
    }

    /** One input, the kind it must be read as, and its facts (fact name to value and note, as written in facts.tsv). */
    record Input(Path file, String kind, Map<String, Row> facts) {

        String name() {
            return ROOT.relativize(file).toString();
        }
    }

    private Corpus() {
    }

    private static Map<String, String> prefixes() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("nccl-tests-", "nccl-tests");
        p.put("rccl-tests-", "nccl-tests");
        p.put("nccl-log-", "nccl-log");
        p.put("perftest-", "perftest");
        p.put("lspci-tree-", "lspci-tree");
        p.put("lspci-verbose-", "lspci-verbose");
        p.put("nccl-topo-", "nccl-topo-xml");
        p.put("rccl-topo-", "nccl-topo-xml");
        p.put("nccl-graph-", "nccl-topo-xml");
        p.put("nvidia-smi-topo-", "nvidia-smi-topo");
        for (String rdma : List.of("ibv-devinfo", "ibstat", "ibdev2netdev", "ethtool-S", "ls-sys-class", "lsmod-", "mlnx-qos",
                "rdma-link", "show-gids", "sysfs-")) {
            p.put(rdma, "rdma");
        }
        return p;
    }

    /** Every corpus file and every public fixture, with its kind and facts. */
    static List<Input> inputs() {
        List<Input> out = new ArrayList<>();
        for (Path folder : list(ROOT.resolve("corpus")).stream().filter(Files::isDirectory).toList()) {
            Map<String, Map<String, Row>> facts = facts(folder.resolve("facts.tsv"));
            for (Path f : outputs(folder)) {
                out.add(new Input(f, folder.getFileName().toString(), facts.getOrDefault(f.getFileName().toString(), Map.of())));
            }
        }
        for (Path folder : FIXTURES) {
            Map<String, Map<String, Row>> facts = facts(fixtureFacts(folder));
            for (Path f : outputs(folder)) {
                String name = f.getFileName().toString();
                String kind = PREFIXES.entrySet().stream().filter(e -> name.startsWith(e.getKey())).map(Map.Entry::getValue).findFirst()
                        .orElseThrow(() -> new AssertionError(f + ": no kind for this fixture name; add its prefix to Corpus.PREFIXES"));
                out.add(new Input(f, kind, facts.getOrDefault(name, Map.of())));
            }
        }
        return out;
    }

    /**
     * The facts of a module's public fixtures: cli/src/test/resources/fixture-facts/MODULE.tsv (not beside the fixtures,
     * whose folders the modules' own tests list file by file).
     */
    static Path fixtureFacts(Path folder) {
        return Path.of("src/test/resources/fixture-facts", ROOT.relativize(folder).getName(0) + ".tsv");
    }

    /** Texts that are none of the kinds: each must be refused by `parse` (exit 2, one line) and by `report`. */
    static List<Path> notInputs() {
        List<Path> out = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("pom.xml"), ROOT.resolve("corpus/README.md"),
                ROOT.resolve("cli/src/main/java/io/nccldoctor/cli/ParseCommand.java")));
        for (Path folder : list(ROOT.resolve("corpus")).stream().filter(Files::isDirectory).toList()) {
            out.add(folder.resolve("README.md"));
            out.add(folder.resolve("facts.tsv"));
        }
        FIXTURES.forEach(f -> out.add(f.resolve("README.md")));
        list(ROOT.resolve("docs")).stream().filter(p -> p.toString().endsWith(".md")).forEach(out::add);
        return out;
    }

    private static List<Path> outputs(Path folder) {
        return list(folder).stream().filter(Files::isRegularFile)
                .filter(p -> !p.getFileName().toString().equals("README.md") && !p.getFileName().toString().equals("facts.tsv")).toList();
    }

    private static List<Path> list(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** facts.tsv: file, fact, value, note (tab-separated, a header line first); a missing table is empty. */
    static Map<String, Map<String, Row>> facts(Path tsv) {
        Map<String, Map<String, Row>> out = new LinkedHashMap<>();
        if (!Files.exists(tsv)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split("\t", -1);
            if (c.length >= 3 && !c[0].isBlank()) {
                out.computeIfAbsent(c[0], k -> new LinkedHashMap<>()).put(c[1], new Row(c[2], c.length > 3 ? c[3] : ""));
            }
        }
        return out;
    }
}
