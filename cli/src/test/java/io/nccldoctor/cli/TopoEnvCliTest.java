package io.nccldoctor.cli;

import static io.nccldoctor.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * topo's --env what-if on a text input (an lspci tree: no host, no environment of its own) reaches the rules and is
 * named in the snapshot's source; it used to be dropped without a word, so the tree was judged at NCCL's default.
 */
class TopoEnvCliTest {

    /** Real: four RTX 6000 Ada under root buses other than their ConnectX-7's, no NUMA nodes (corpus/lspci-tree README). */
    private static final String ASUS = "../corpus/lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt";

    @Test
    void theGdrLevelOfAWhatIfDecidesATreesDistances() throws Exception {
        JsonNode atDefault = json("topo", "--lspci-tree", ASUS, "--json");
        assertThat(codes(atDefault.get("findings"))).as("at least PHB apart: off at the default threshold")
                .containsOnly("GDR_DISABLED_BY_DISTANCE").hasSize(4);

        JsonNode sys = json("topo", "--lspci-tree", ASUS, "--env", "NCCL_NET_GDR_LEVEL=SYS", "--json");
        assertThat(codes(sys.get("findings"))).as("SYS allows every path").doesNotContain("GDR_DISABLED_BY_DISTANCE");
        assertThat(sys.at("/snapshot/source").asText()).endsWith("with --env NCCL_NET_GDR_LEVEL=SYS");
        assertThat(sys.at("/snapshot/env/NCCL_NET_GDR_LEVEL").asText()).isEqualTo("SYS");

        JsonNode phb = json("topo", "--lspci-tree", ASUS, "--env", "NCCL_NET_GDR_LEVEL=PHB", "--json");
        assertThat(codes(phb.get("findings"))).as("PHB or SYS, the tree cannot say which: not judged")
                .doesNotContain("GDR_DISABLED_BY_DISTANCE");
        assertThat(codes(phb.get("notChecked"))).contains("GDR_DISABLED_BY_DISTANCE");
    }

    private static JsonNode json(String... args) throws Exception {
        CliTest.Run r = run(args);
        assertThat(r.err()).as("no error for %s", List.of(args)).isEmpty();
        return Json.mapper().readTree(r.out());
    }

    private static List<String> codes(JsonNode list) {
        List<String> codes = new ArrayList<>();
        list.forEach(f -> codes.add(f.get("code").asText()));
        return codes;
    }
}
