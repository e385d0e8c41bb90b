package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NO_NVIDIA_GPU on lspci listings of the corpus that were filtered by vendor or slot (sources in its README): a listing
 * that shows only one vendor's functions is no evidence of no GPU, and says so instead of warning.
 */
class FilteredListingTest {

    private static final Path CORPUS = Path.of("../corpus/lspci-verbose");

    private static Evaluation judge(String file) throws IOException {
        PciReading r = PciReading.lspciVerbose(Files.readString(CORPUS.resolve(file), StandardCharsets.UTF_8), file);
        Snapshot s = ImportedSnapshot.of(r.devices(), r.rdmaNets(), "lspci text " + r.source(), List.of("test"), "test", "not recorded");
        return Evaluation.of(s, List.of(new NoNvidiaGpu()), new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
    }

    private static String reason(Evaluation e) {
        return e.notChecked().stream().filter(n -> n.code().equals("NO_NVIDIA_GPU")).findFirst().orElseThrow().reason();
    }

    @Test
    void lspciDashDOfMellanoxIsNotJudged() throws IOException {
        Evaluation e = judge("lspci-pp-bridge-path-cx7-8nic-amd-doc.txt"); // `lspci -d 15b3:1021 -PP`
        assertThat(e.findings()).as("was NO_NVIDIA_GPU:warn on 8 ConnectX-7 functions").isEmpty();
        assertThat(reason(e)).startsWith("not judged, because the listing shows only Mellanox Technologies (15b3) devices (8 PCI functions");
    }

    @Test
    void lspciDashDOfAmdAcceleratorsIsNotJudged() throws IOException {
        Evaluation e = judge("lspci-pp-bridge-path-mi300x-8gpu-amd-doc.txt"); // `lspci -d 1002:74a1 -PP`
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).contains("only Advanced Micro Devices, Inc. [AMD/ATI] (1002) devices");
    }

    @Test
    void grepMellanoxIsNotJudged() throws IOException {
        Evaluation e = judge("lspci-v-grep-a5-mellanox-cx4lx-flags-numa-access-denied-cloudlab.txt"); // `lspci -v | grep -A 5 Mellanox`
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).contains("only Mellanox Technologies (15b3) devices");
    }

    @Test
    void oneNicAloneIsNotJudged() throws IOException {
        Evaluation e = judge("lspci-verbose-cx7-mcx755106as-gen5-acs-off.txt");
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).contains("only Mellanox Technologies (15b3) devices (1 PCI function,");
    }

    @Test
    void aWholeListingWithAHostBridgeIsStillJudged() throws IOException {
        Evaluation e = judge("lspci-verbose-vv-partial-snip-markers-gtx970m-laptop.txt");
        assertThat(e.notChecked()).noneMatch(n -> n.code().equals("NO_NVIDIA_GPU") && n.reason().startsWith("not judged, because"));
    }
}
