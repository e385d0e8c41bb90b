package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.pcie.PciReading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The text form of the lspci and topology XML kinds, on real inputs (pcie-inspect fixtures/public). */
class PciReadingTextTest {

    private static final Path DIR = Path.of("../pcie-inspect/src/test/resources/fixtures/public");

    @Test
    void aTopologyFileWithEveryFunctionAndWhatWasNotRead() throws IOException {
        String file = "nccl-topo-h100-vsi-snippet-nccl1453.xml";
        String text = PciReadingText.render(PciReading.ncclTopoXml(Files.readString(DIR.resolve(file)), file), file);
        assertThat(text).startsWith("nccl-topo-xml from " + file + ": 3 PCI functions\n")
                .contains("  0000:c1:00.0  nic      15b3:101e  class 020000  mlx5_5  link 32.0 GT/s x?")
                .contains("By kind: 1 gpu, 1 nic, 1 bridge\n")
                .contains("not read: line 16: </cpu> closes nothing that is open");
    }

    @Test
    void theReadingAsJson() throws IOException {
        String file = "nccl-topo-aws-p4d-24xl-efa.xml";
        JsonNode doc = Json.mapper().readTree(Json.write(PciReading.ncclTopoXml(Files.readString(DIR.resolve(file)), file)));
        assertThat(doc.get("kind").asText()).isEqualTo("nccl-topo-xml");
        assertThat(doc.get("devices")).hasSize(16);
        assertThat(doc.at("/census/rdmaFamilies/Amazon Elastic Fabric Adapter").asInt()).isEqualTo(4);
    }

    @Test
    void grepExcerptsWithWhatTheyLack() throws IOException {
        String file = "lspci-verbose-grep-ats-h200-vm.txt";
        String text = PciReadingText.render(PciReading.lspciVerbose(Files.readString(DIR.resolve(file)), file), file);
        assertThat(text).startsWith("lspci-verbose from " + file + ": 0 PCI functions, 7 devices without a header line\n")
                .contains("  lines 2-4  unknown device: LnkSta ?, LnkCap ?, ATS on; not in the excerpt: the device address");
    }
}
