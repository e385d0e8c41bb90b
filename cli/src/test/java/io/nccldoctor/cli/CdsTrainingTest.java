package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** What the launcher's class-archive training run does: every verb's help, each corpus file read three ways, the join. */
class CdsTrainingTest {

    @Test
    void everyVerbsHelpAndEveryCorpusFileReadThreeWays() throws IOException {
        List<List<String>> commands = CdsTraining.commands(Path.of("../corpus"));
        for (Class<?> verb : RootCommand.VERBS) {
            assertThat(commands).contains(List.of(verb.getAnnotation(Command.class).name(), "--help"));
        }
        for (String kind : List.of("lspci-tree", "lspci-verbose", "nccl-log", "nccl-tests", "nccl-topo-xml", "nvidia-smi-topo",
                "perftest", "rdma")) {
            List<List<String>> reads = commands.stream().filter(c -> c.get(c.size() - 1).contains("corpus/" + kind + "/")).toList();
            long files;
            try (Stream<Path> all = Files.list(Path.of("../corpus", kind))) {
                files = all.filter(f -> !f.getFileName().toString().startsWith("README") && !f.getFileName().toString().startsWith("facts")).count();
            }
            assertThat(files).as(kind).isGreaterThan(2);
            assertThat(reads).as(kind).hasSize((int) files * 3);
            assertThat(reads.stream().map(c -> c.get(0) + (c.size() == 3 ? " " + c.get(1) : "")))
                    .containsOnly("parse", "parse --json", "report");
            assertThat(reads).noneMatch(c -> c.get(c.size() - 1).contains("README") || c.get(c.size() - 1).contains("facts"));
        }
    }

    @Test
    void everyNcclLogOfTheCorpusIsAlsoReadInTwoRanges() {
        List<Path> logs = CdsTraining.joinedLogs(Path.of("../corpus"));
        assertThat(logs).hasSizeGreaterThan(10).allMatch(f -> f.getParent().getFileName().toString().equals("nccl-log"))
                .noneMatch(f -> f.getFileName().toString().startsWith("README") || f.getFileName().toString().startsWith("facts"));
        assertThat(CdsTraining.joinedLogs(Path.of("no-such-corpus"))).isEmpty();
    }

    @Test
    void nothingThatProbesTheNode() {
        assertThat(CdsTraining.commands(Path.of("../corpus"))).as("--version loads libcuda and libnccl; the verbs that probe are only asked for help")
                .noneMatch(c -> c.contains("--version"))
                .allMatch(c -> c.contains("--help") || List.of("parse", "report", "explain").contains(c.get(0)));
    }

    @Test
    void withoutACorpusOnlyTheCommandsThatNeedNoInput() {
        List<List<String>> commands = CdsTraining.commands(Path.of("no-such-corpus"));
        assertThat(commands).hasSize(RootCommand.VERBS.size() + 2).noneMatch(c -> c.size() > 1 && !c.get(c.size() - 1).startsWith("-"));
    }
}
