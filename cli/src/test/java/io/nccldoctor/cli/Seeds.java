package io.nccldoctor.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The real inputs the robustness properties start from: the corpus (corpus/**, outputs published in tickets and docs)
 * and each module's public fixtures, by kind. Paths are relative to the cli module, where the tests run.
 */
final class Seeds {

    static final Path ROOT = Path.of("..");

    private Seeds() {
    }

    static List<Path> ncclTests() {
        return join(files("corpus/nccl-tests", n -> n.endsWith(".txt")),
                files("collectives/src/test/resources/fixtures/public", n -> n.startsWith("nccl-tests-")));
    }

    static List<Path> ncclLogs() {
        return join(files("corpus/nccl-log", n -> n.endsWith(".txt")),
                files("collectives/src/test/resources/fixtures/public", n -> n.startsWith("nccl-log-")));
    }

    static List<Path> perftest() {
        return join(files("corpus/perftest", n -> n.endsWith(".txt")),
                files("gdr-probe/src/test/resources/fixtures/public", n -> n.startsWith("perftest-")));
    }

    static List<Path> smiTopo() {
        return join(files("corpus/nvidia-smi-topo", n -> n.endsWith(".txt")),
                files("pcie-inspect/src/test/resources/fixtures/public", n -> n.startsWith("nvidia-smi-topo")));
    }

    static List<Path> rdma() {
        return join(files("corpus/rdma", n -> n.endsWith(".txt")),
                files("gdr-probe/src/test/resources/fixtures/public", n -> n.endsWith(".txt") && !n.startsWith("perftest-")));
    }

    static List<Path> lspciTree() {
        return join(files("corpus/lspci-tree", n -> n.endsWith(".txt")),
                files("pcie-inspect/src/test/resources/fixtures/public", n -> n.startsWith("lspci-tree-")));
    }

    static List<Path> lspciVerbose() {
        return join(files("corpus/lspci-verbose", n -> n.endsWith(".txt")),
                files("pcie-inspect/src/test/resources/fixtures/public", n -> n.startsWith("lspci-verbose-")));
    }

    static List<Path> ncclTopoXml() {
        return join(files("corpus/nccl-topo-xml", n -> n.endsWith(".xml")),
                files("pcie-inspect/src/test/resources/fixtures/public", n -> n.startsWith("nccl-") || n.startsWith("rccl-")));
    }

    /** Capture folders (`capture -o DIR`) of the four machine classes and the RoCE nodes. */
    static List<Path> captures() {
        List<Path> out = new ArrayList<>();
        for (String d : List.of("pcie-inspect/src/test/resources/fixtures/captures", "gdr-probe/src/test/resources/fixtures/roce")) {
            try (Stream<Path> s = Files.list(ROOT.resolve(d))) {
                s.filter(p -> Files.isRegularFile(p.resolve("manifest.json"))).sorted().forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** The example bundle: report.yaml with nccl-tests outputs, a `run --json`, a sweep result, logs and a capture. */
    static Path exampleBundle() {
        return ROOT.resolve("configs/examples/field-report-cluster");
    }

    static List<Path> files(String dir, Predicate<String> name) {
        try (Stream<Path> s = Files.list(ROOT.resolve(dir))) {
            return s.filter(Files::isRegularFile).filter(p -> name.test(p.getFileName().toString())).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SafeVarargs
    static List<Path> join(List<Path>... lists) {
        List<Path> out = new ArrayList<>();
        for (List<Path> l : lists) {
            out.addAll(l);
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no seed files: the fixtures moved");
        }
        return List.copyOf(out);
    }

    static <T> T pick(List<T> from, int index) {
        return from.get(Math.floorMod(index, from.size()));
    }
}
