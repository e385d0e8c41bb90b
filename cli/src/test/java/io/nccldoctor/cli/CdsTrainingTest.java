package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

/** What the launcher's class-archive training run does: every verb's help, and each corpus kind read three ways. */
class CdsTrainingTest {

    @Test
    void everyVerbsHelpAndTwoFilesOfEachCorpusKindReadThreeWays() {
        List<List<String>> commands = CdsTraining.commands(Path.of("../corpus"));
        for (Class<?> verb : RootCommand.VERBS) {
            assertThat(commands).contains(List.of(verb.getAnnotation(Command.class).name(), "--help"));
        }
        for (String kind : List.of("lspci-tree", "lspci-verbose", "nccl-log", "nccl-tests", "nccl-topo-xml", "nvidia-smi-topo",
                "perftest", "rdma")) {
            List<List<String>> reads = commands.stream().filter(c -> c.get(c.size() - 1).contains("corpus/" + kind + "/")).toList();
            assertThat(reads).as(kind).hasSize(6);
            assertThat(reads.stream().map(c -> c.get(0) + (c.size() == 3 ? " " + c.get(1) : "")))
                    .containsOnly("parse", "parse --json", "report");
            assertThat(reads).noneMatch(c -> c.get(c.size() - 1).contains("README") || c.get(c.size() - 1).contains("facts"));
        }
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
