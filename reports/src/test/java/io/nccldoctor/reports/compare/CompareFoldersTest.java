package io.nccldoctor.reports.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * `compare` on what people have: folders of real nccl-tests outputs (corpus/, collectives' fixtures/public, each cited in
 * its README), several files per arm, and runs on different size grids.
 */
@ExtendWith(GermanLocale.class)
class CompareFoldersTest {

    static final Path CORPUS = Path.of("../corpus/nccl-tests");
    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");

    @TempDir
    Path dir;

    /** Arm A: three published runs of one 8-GPU H100 node; arm B: three of two such nodes (16 ranks). */
    private List<ArmInput> folders() throws IOException {
        Path a = Files.createDirectories(dir.resolve("h100-1node"));
        Path b = Files.createDirectories(dir.resolve("h100-2node"));
        Files.copy(FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt"), a.resolve("dgxc.txt"));
        Files.copy(CORPUS.resolve("nccl-tests-h100-p5-aws-batch-mpi-tag-wide-header.txt"), a.resolve("p5-batch.txt"));
        Files.copy(CORPUS.resolve("nccl-tests-h100-p5-1node-nvls-single-row-silent-cut.txt"), a.resolve("p5-expected.txt"));
        Files.copy(CORPUS.resolve("nccl-tests-h100-p5-2node-efa-srun-label-nofooter.txt"), b.resolve("p5-2node.txt"));
        Files.copy(CORPUS.resolve("nccl-tests-h100-gcp-a3mega-2node-hash-eaten.txt"), b.resolve("a3mega.txt"));
        Files.copy(CORPUS.resolve("nccl-tests-h100-p5-2node-nvls-single-row-silent-cut.txt"), b.resolve("p5-2node-expected.txt"));
        Files.writeString(b.resolve("NOTES.md"), "# where these came from\n");
        return ArmInput.resolve(List.of(a.toString(), b.toString()), List.of(), List.of());
    }

    @Test
    void twoFoldersOfThreeRealRunsGiveAVerdictWithItsIntervalAndPValue() throws IOException {
        List<ArmInput> arms = folders();
        assertThat(arms.get(0).sweeps()).hasSize(3);
        assertThat(arms.get(1).sweeps()).hasSize(3);
        assertThat(arms.get(1).skipped()).singleElement().satisfies(s -> assertThat(s).contains("NOTES.md"));
        Comparison c = Comparison.of(arms.get(0), arms.get(1), null);
        Comparison.Row twoGiB = c.rows().stream().filter(r -> r.sizeBytes() == 1L << 31).findFirst().orElseThrow();
        assertThat(twoGiB.nA()).isEqualTo(3);
        assertThat(twoGiB.nB()).isEqualTo(3);
        assertThat(twoGiB.medianA().get()).as("468.60 (p5 'expected'), 473.37 (DGX), the p5 batch run's").isEqualTo(468.60);
        assertThat(twoGiB.medianB().get()).isEqualTo(438.85);
        assertThat(twoGiB.interval().isValue()).isTrue();
        assertThat(twoGiB.test().get().p()).isCloseTo(0.1, within(1e-9));
        assertThat(twoGiB.verdict()).as(twoGiB.reason()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(twoGiB.reason()).startsWith("interval ").contains("does not clear 0.97 to 1.03");
        assertThat(c.notes()).anyMatch(n -> n.startsWith("A ran on 8 ranks, B on 16 ranks"));
        assertThat(c.a().name()).isEqualTo("h100-1node");
        assertThat(c.b().skipped()).hasSize(1);
    }

    @Test
    void severalFilesPerArmAreOneArm() {
        List<ArmInput> arms = ArmInput.resolve(List.of(),
                List.of(FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt").toString(),
                        CORPUS.resolve("nccl-tests-h100-p5-aws-batch-mpi-tag-wide-header.txt").toString()),
                List.of(CORPUS.resolve("nccl-tests-h100-p5-2node-efa-srun-label-nofooter.txt").toString()));
        assertThat(arms.get(0).name()).isEqualTo("nccl-tests-h100-8gpu-allreduce-dgxc.txt + 1 more");
        Comparison c = Comparison.of(arms.get(0), arms.get(1), null);
        assertThat(c.a().sweeps()).isEqualTo(2);
        assertThat(c.b().sweeps()).isEqualTo(1);
        assertThatThrownBy(() -> ArmInput.resolve(List.of("x"), List.of("y"), List.of())).isInstanceOf(InputException.class)
                .hasMessageContaining("either as A B or as --a FILES --b FILES");
        assertThatThrownBy(() -> ArmInput.resolve(List.of(), List.of("y"), List.of())).hasMessageContaining("--a and --b go together");
    }

    /**
     * The RTX 5090 broadcast steps by x4 (1 KiB, 4 KiB … 64 MiB), the A100 one by x2: B's runs are read at A's 2 KiB, 8 KiB
     * … 32 MiB between their own neighbours, and the comparison says so.
     */
    @Test
    void unequalSizeGridsAreComparedAtEachOthersSizesAndSaySoWhere() {
        ArmInput a = ArmInput.of(CORPUS.resolve("nccl-tests-a100-broadcast-old-root-col.txt").toString());
        ArmInput b = ArmInput.of(CORPUS.resolve("nccl-tests-rtx5090-broadcast-socket-step4-version-header.txt").toString());
        Comparison c = Comparison.of(a, b, null);
        Comparison.Row twoKiB = c.rows().stream().filter(r -> r.sizeBytes() == 2048).findFirst().orElseThrow();
        assertThat(twoKiB.interpolatedB()).isEqualTo(1);
        assertThat(twoKiB.interpolatedA()).isZero();
        Comparison.Row oneKiB = c.rows().stream().filter(r -> r.sizeBytes() == 1024).findFirst().orElseThrow();
        Comparison.Row fourKiB = c.rows().stream().filter(r -> r.sizeBytes() == 4096).findFirst().orElseThrow();
        assertThat(twoKiB.b().get(0)).as("halfway in log2(size) between 1 KiB and 4 KiB, to two decimals")
                .isCloseTo((oneKiB.b().get(0) + fourKiB.b().get(0)) / 2, within(0.0051));
        assertThat(c.notes()).anyMatch(n -> n.startsWith("B's runs did not measure 8 sizes the other runs did")
                && n.contains("broadcast 2 KiB, broadcast 8 KiB") && n.contains("broadcast 32 MiB"));
        assertThat(c.summaries().get(0).line()).endsWith("8 sizes interpolated");
        Comparison.Row above = c.rows().stream().filter(r -> r.sizeBytes() == 128L << 20).findFirst().orElseThrow();
        assertThat(above.nB()).as("128 MiB is past B's largest size: nothing to read it between").isZero();
    }

    @Test
    void theJsonFollowsTheProjectsConventions() throws IOException {
        List<ArmInput> arms = folders();
        JsonNode doc = Json.mapper().readTree(Json.write(Comparison.of(arms.get(0), arms.get(1), null)));
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(doc.get("kind").asText()).isEqualTo("compare");
        JsonNode row = doc.get("rows").get(0);
        assertThat(row.has("busBwGBpsA")).isTrue();
        assertThat(row.has("medianBusBwGBpsA")).isTrue();
        assertThat(row.has("interpolatedB")).isTrue();
        assertThat(doc.at("/summaries/0/fasterSizesBytes").isArray()).isTrue();
        assertThat(doc.at("/thresholds/interpolateMaxFactor").asDouble()).isEqualTo(4.0);
        assertThat(doc.at("/b/skipped/0").asText()).contains("NOTES.md");
    }

    @Test
    void eachArmsNcclDecisionsComeFromTheLogsInsideItsOutputs() {
        ArmInput efa = ArmInput.of(CORPUS.resolve("nccl-tests-t4-g4dn-2node-efa-enabled-mpi-tag-elided.txt").toString());
        ArmInput metal = ArmInput.of(Path.of("../corpus/nccl-log/nccl-log-efa-t4-g4dn-metal-2.12.7-no-gdrdma-with-table.txt").toString());
        assertThat(metal.decisions().transports()).isNotEmpty();
        assertThat(metal.decisions().line()).startsWith("transports NET/AWS");
        Comparison c = Comparison.of(efa, metal, null);
        assertThat(CompareMarkdown.render(c)).contains("## What NCCL decided").contains("- B nccl-log-efa-t4-g4dn-metal");
        assertThat(CompareText.render(c)).contains("What NCCL decided (from the NCCL_DEBUG=INFO lines among or inside each arm's inputs):");
    }

    @Test
    void aFolderWithoutAnyResultIsRefusedInOneLine() throws IOException {
        Path empty = Files.createDirectories(dir.resolve("notes-only"));
        Files.writeString(empty.resolve("README.md"), "nothing measured here\n");
        assertThatThrownBy(() -> ArmInput.of(empty.toString())).isInstanceOf(InputException.class)
                .hasMessageStartingWith(empty.toString());
    }
}
