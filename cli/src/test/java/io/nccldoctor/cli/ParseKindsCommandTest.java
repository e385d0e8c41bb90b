package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** `parse` without a kind, with several files, from standard input, and the topology kinds by name, on real outputs. */
class ParseKindsCommandTest {

    private static final String CORPUS = "../corpus/";

    @Test
    void standardInputIsToldItsKindToo() throws Exception {
        InputStream stdin = System.in;
        try {
            System.setIn(Files.newInputStream(Path.of(CORPUS + "rdma/ibstat-cx3-mlx4-fdr56-2port-active.txt")));
            CorpusTest.Run r = CorpusTest.run("parse", "-", "--json");
            assertThat(r.code()).isZero();
            assertThat(r.err().strip()).isEqualTo("parse: standard input read as rdma (its ibstat output)");
            assertThat(Json.mapper().readTree(r.out()).path("kind").asText()).isEqualTo("rdma");
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void severalFilesOfDifferentKindsAreAnArrayWithAKindEach() throws Exception {
        CorpusTest.Run r = CorpusTest.run("parse", CORPUS + "perftest/perftest-write-bw-roce-rdma-cm-cpufreq-warning-in-table.txt",
                CORPUS + "lspci-verbose/lspci-verbose-cx7-mcx755106as-gen5-acs-off.txt", "--json");
        assertThat(r.code()).isZero();
        assertThat(r.err().lines()).as("a line per file").hasSize(2);
        JsonNode all = Json.mapper().readTree(r.out());
        assertThat(all.get(0).path("kind").asText()).isEqualTo("perftest");
        assertThat(all.get(1).path("kind").asText()).isEqualTo("lspci-verbose");
        assertThat(all.get(1).path("schemaVersion").asInt()).isEqualTo(1);
    }

    @Test
    void severalNcclLogsAreOneSetAsNamedOrNot() {
        String a = CORPUS + "nccl-log/nccl-log-gke-a3high-h100-2.22.3-socket-no-rdma-grep-excerpt.txt";
        String b = "../collectives/src/test/resources/fixtures/public/nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt";
        CorpusTest.Run detected = CorpusTest.run("parse", a, b);
        CorpusTest.Run named = CorpusTest.run("parse", "nccl-log", a, b);
        assertThat(detected.out()).startsWith("NCCL logs: 2 files, ").contains("DIFFERS: the network NCCL chose differs")
                .isEqualTo(named.out());
        assertThat(detected.err()).contains("read as nccl-log (NCCL lines in each of the 2 files)");
    }

    /** A log with an nccl-tests table in it (aws-ofi-nccl's EFA run, corpus README): the log is shown, the table named. */
    @Test
    void aSecondKindInTheSameTextIsNamed() {
        String f = CORPUS + "nccl-log/nccl-log-efa-t4-g4dn-metal-2.12.7-no-gdrdma-with-table.txt";
        CorpusTest.Run r = CorpusTest.run("parse", f);
        assertThat(r.code()).isZero();
        assertThat(r.err().strip()).startsWith("parse: " + f + " read as nccl-log (")
                .endsWith("; nccl-tests also took 45 lines, which `parse nccl-tests FILE` reads)");
        CorpusTest.Run table = CorpusTest.run("parse", "nccl-tests", f);
        assertThat(table.out()).as("the table those lines are").contains("avg bus bandwidth");
        CorpusTest.Run alone = CorpusTest.run("parse", CORPUS + "rdma/ibstat-cx3-mlx4-fdr56-2port-active.txt");
        assertThat(alone.err()).as("a text of one kind names no other").doesNotContain("also took");
    }

    @Test
    void theTopologyKindsByName() throws Exception {
        CorpusTest.Run tree = CorpusTest.run("parse", "lspci-tree", CORPUS + "lspci-tree/lspci-tree-puget-wrx90-rtx6000ada-cx7.txt", "--json");
        assertThat(tree.code()).isZero();
        assertThat(tree.err()).as("named: nothing to say about detection").isEmpty();
        assertThat(Json.mapper().readTree(tree.out()).at("/census/functions").asInt()).isEqualTo(113);
        CorpusTest.Run xml = CorpusTest.run("parse", "nccl-topo-xml", CORPUS + "lspci-tree/lspci-tree-puget-wrx90-rtx6000ada-cx7.txt");
        assertThat(xml.code()).isEqualTo(2);
        assertThat(xml.err()).contains("not XML (it does not start with '<')");
        CorpusTest.Run graph = CorpusTest.run("parse", CORPUS + "nccl-topo-xml/nccl-graph-azure-ncv4-not-topology.xml");
        assertThat(graph.code()).isEqualTo(2);
        assertThat(graph.err()).contains("it is NCCL's graph file (NCCL_GRAPH_DUMP_FILE: channels, not the PCI topology)");
    }

    @Test
    void aKindWithoutAFileAndAWordThatIsNeitherAreUsageErrors() {
        CorpusTest.Run none = CorpusTest.run("parse", "nccl-tests");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err().strip()).isEqualTo("nccl-doctor: parse nccl-tests: give a FILE to read ('-' for standard input)");
        CorpusTest.Run word = CorpusTest.run("parse", "lspci", "x.txt");
        assertThat(word.code()).isEqualTo(2);
        assertThat(word.err()).contains("'lspci' is neither a file nor a kind (known: nvidia-smi-topo, perftest, nccl-tests, nccl-log, "
                + "rdma, lspci-tree, lspci-verbose, nccl-topo-xml)");
    }

    @Test
    void helpListsEveryKind() {
        String help = CorpusTest.run("parse", "--help").out().replaceAll("\\s+", " ");
        for (String kind : new String[] {"nvidia-smi-topo", "perftest", "nccl-tests", "nccl-log", "rdma", "lspci-tree", "lspci-verbose",
            "nccl-topo-xml"}) {
            assertThat(help).as(kind).contains(kind + " (");
        }
    }
}
