package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One meaning per flag: -o is the output file wherever it appears; where it meant something else the new spelling is
 * documented and the old one still works (capture's folder, sweep's results), and the flags verbs lacked (topo and gdr
 * -o and --rules, --from with --env, counters --root) do what their help says.
 */
class RenamedFlagsTest {

    @TempDir
    Path tmp;

    @Test
    void captureTakesItsFolderAsAnArgumentAsDirOrAsTheOldDashO() {
        assertThat(CliTest.run("capture", tmp.resolve("a").toString()).code()).isZero();
        assertThat(CliTest.run("capture", "--dir", tmp.resolve("b").toString()).code()).isZero();
        assertThat(CliTest.run("capture", "-o", tmp.resolve("c").toString()).code()).as("the README's old spelling").isZero();
        for (String d : new String[] {"a", "b", "c"}) {
            assertThat(tmp.resolve(d).resolve("manifest.json")).exists();
        }
        CliTest.Run none = CliTest.run("capture");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err().strip()).isEqualTo("nccl-doctor: capture: name the folder to write, e.g. nccl-doctor capture node17-capture");
        CliTest.Run help = CliTest.run("capture", "--help");
        assertThat(help.out()).contains("Usage: nccl-doctor capture").contains("[DIR]").doesNotContain("--output");
    }

    @Test
    void sweepResultsAreResultsAndTheOldDashOStillNamesThem() {
        CliTest.Run results = CliTest.run("sweep", "../configs/sweeps/proto.yaml", "--dry-run", "--results", tmp.resolve("p.jsonl").toString());
        CliTest.Run old = CliTest.run("sweep", "../configs/sweeps/proto.yaml", "--dry-run", "-o", tmp.resolve("p.jsonl").toString());
        assertThat(results.code()).isZero();
        assertThat(results.out()).contains("results to " + tmp.resolve("p.jsonl").toAbsolutePath());
        assertThat(old.out()).isEqualTo(results.out());
        assertThat(CliTest.run("sweep", "quick", "--json").err()).contains("--json prints the plan of --dry-run");
        CliTest.Run abDry = CliTest.run("sweep", "../configs/sweeps/ab-nccl.yaml", "--dry-run");
        assertThat(abDry.code()).as("the shipped plan names folders this machine lacks: a dry run warns").isZero();
        assertThat(abDry.out()).contains("warning: libraries.a: /opt/nccl-2.28.3/lib does not exist here");
        CliTest.Run abRun = CliTest.run("sweep", "../configs/sweeps/ab-nccl.yaml", "--results", tmp.resolve("ab.jsonl").toString());
        assertThat(abRun.code()).as("a real run refuses them").isEqualTo(2);
        assertThat(CliTest.run("run", "-o", "max").err()).contains("-o max: the reduction operation is --op max");
    }

    @Test
    void gdrFromACaptureWithAChangedEnvironmentAnswersWhatIf() throws Exception {
        JsonNode as = Json.mapper().readTree(CliTest.run("gdr", "--from", VerbContractTest.CAPTURE, "--json").out());
        JsonNode phb = Json.mapper().readTree(CliTest.run("gdr", "--from", VerbContractTest.CAPTURE, "--env",
                "NCCL_NET_GDR_LEVEL=PHB", "--json").out());
        assertThat(as.at("/snapshot/env/NCCL_NET_GDR_LEVEL").asText()).as("the capture's own, lower case").isEqualTo("phb");
        assertThat(phb.at("/snapshot/env/NCCL_NET_GDR_LEVEL").asText()).isEqualTo("PHB");
        assertThat(phb.at("/snapshot/source").asText()).endsWith("with --env NCCL_NET_GDR_LEVEL=PHB");
        String text = CliTest.run("gdr", "--from", VerbContractTest.CAPTURE, "--env", "NCCL_NET_GDR_LEVEL=PHB").out();
        assertThat(text).contains("GDR on   GPU0 <-> mlx5_0");
        assertThat(CliTest.run("gdr", "--from", VerbContractTest.CAPTURE).out()).contains("GDR off  GPU0 <-> mlx5_0");
    }

    @Test
    void topoAndGdrTakeRulesAndWriteWithDashO() throws Exception {
        Path rules = Files.writeString(tmp.resolve("rules.yaml"), "disabled: [GDR_DISABLED_BY_DISTANCE, NCCL_GDR_LEVEL_IGNORED]\n");
        String plain = CliTest.run("gdr", "--from", VerbContractTest.CAPTURE).out();
        String site = CliTest.run("gdr", "--from", VerbContractTest.CAPTURE, "--rules", rules.toString()).out();
        assertThat(plain).contains("NCCL_GDR_LEVEL_IGNORED");
        assertThat(site).as("--rules is read").doesNotContain("WARN  NCCL_GDR_LEVEL_IGNORED");
        CliTest.Run bad = CliTest.run("topo", "--from", VerbContractTest.CAPTURE, "--rules", tmp.resolve("none.yaml").toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--rules " + tmp.resolve("none.yaml") + ": no such file");
        Path topo = tmp.resolve("topo.json");
        assertThat(CliTest.run("topo", "--from", VerbContractTest.CAPTURE, "-o", topo.toString()).code()).isIn(0, 1);
        assertThat(Json.mapper().readTree(topo.toFile()).get("kind").asText()).isEqualTo("topo");
        CliTest.Run md = CliTest.run("gdr", "--from", VerbContractTest.CAPTURE, "-o", tmp.resolve("gdr.md").toString());
        assertThat(md.code()).isEqualTo(2);
        assertThat(md.err()).contains("gdr writes json or txt");
    }

    @Test
    void countersDocumentsItsRoot() {
        CliTest.Run help = CliTest.run("counters", "--help");
        assertThat(Unwrapped.of(help.out())).contains("--root=DIR").contains("Read DIR/sys and DIR/proc instead of this node's");
        CliTest.Run r = CliTest.run("counters", "--root", VerbContractTest.CAPTURE + "/root", "--json");
        assertThat(r.code()).as(r.err()).isIn(0, 1);
    }
}
