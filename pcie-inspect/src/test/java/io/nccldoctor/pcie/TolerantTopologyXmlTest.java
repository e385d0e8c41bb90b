package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Topology XML as tickets hold it: a real snippet that starts inside the file, and SYNTHETIC damaged files (deep
 * nesting, a DOCTYPE with an external entity, repeated or missing busids) that must be read as far as they are PCI
 * and never crash.
 */
class TolerantTopologyXmlTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    @Test
    void aSnippetFromAnIssueIsReadWithItsBoundariesNamed() throws IOException {
        NcclTopoXml x = NcclTopoXml.parse(Files.readString(DIR.resolve("nccl-topo-h100-vsi-snippet-nccl1453.xml")), "snippet");
        assertThat(x.devices().stream().map(PciDevice::address)).containsExactly("0000:bf:00.0", "0000:c1:00.0", "0000:c2:00.0");
        assertThat(x.rdmaNames()).containsExactly(Map.entry("0000:c1:00.0", "mlx5_5"));
        assertThat(x.devices()).allMatch(d -> d.numaNode().isAbsent());
        assertThat(x.notRead()).anyMatch(l -> l.startsWith("line 1: <pci> outside any <cpu>"))
                .anyMatch(l -> l.startsWith("line 16: </cpu> closes nothing that is open"))
                .anyMatch(l -> l.startsWith("line 17: the text ends inside <cpu> (line 17)"))
                .anyMatch(l -> l.equals("4 × <nvlink> (not a PCIe link: not analysed)"));
        Topology t = Topology.of(x.devices(), x.rdmaNames(), "2.27.5", "snippet");
        assertThat(t.pair("GPU0", "NIC0").smiPath()).as("both behind the emulated bridge bf:00.0").isEqualTo(SmiPath.PIX);
    }

    /** SYNTHETIC: the fuzz case that overflowed the stack (2,000 nested <pci>). */
    @Test
    void nestingDeeperThanAnyPciTreeIsCutWithoutRecursion() {
        int depth = 2000;
        StringBuilder xml = new StringBuilder("<system version=\"1\"><cpu numaid=\"0\">");
        for (int i = 0; i < depth; i++) {
            xml.append(String.format("<pci busid=\"%04x:%02x:00.0\" class=\"0x060400\">", i / 256, i % 256));
        }
        xml.append("<pci busid=\"ffff:00:00.0\" class=\"0x030200\" vendor=\"0x10de\"/>");
        xml.append("</pci>".repeat(depth)).append("</cpu></system>");
        NcclTopoXml x = NcclTopoXml.parse(xml.toString(), "deep.xml");
        assertThat(x.devices()).hasSize(NcclTopoReader.MAX_DEPTH);
        assertThat(x.notRead()).anyMatch(l -> l.startsWith("1745 <pci> elements nested deeper than 256 levels were not read"));
        Topology t = Topology.of(x.devices(), x.rdmaNames(), "2.27.5", "deep");
        assertThat(t.endpoints()).as("the GPU was below the cut").isEmpty();
        assertThat(NcclTopoXmlWriter.write(x.devices(), new Platform.Cpu(Fact.absent("t"), Fact.absent("t"), Fact.absent("t"),
                Fact.absent("t"), Fact.absent("t"), Fact.absent("t")))).startsWith("<system");
    }

    /** SYNTHETIC: every kind of damage at once, as the fuzz suite makes it. */
    @Test
    void entitiesAreNeverExpandedAndBadElementsAreListed() {
        String xml = "<!DOCTYPE system [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<system version=\"1\">\n<cpu numaid=\"x\">\n"
                + "<pci busid=\"0000:01:00.0\" class=\"&e;\" vendor=\"0x10de\"/>\n<pci busid=\"0000:01:00.0\" class=\"0x030200\"/>\n"
                + "<pci class=\"0x020700\"/>\n<pci busid=\"bogus\"/>\n<gpu dev=\"0\"/>\n<quirk/>\n<pci busid=\"0000:02:00.0\"/>\n<pci\" class=\">0x060400\"/>\n"
                + "</cpu>\n</system>\n";
        NcclTopoXml x = NcclTopoXml.parse(xml, "odd.xml");
        assertThat(x.devices()).hasSize(2).first().satisfies(d -> assertThat(d.classCode()).as("&e; stays unexpanded: no class")
                .isEqualTo("000000"));
        assertThat(x.notRead()).anyMatch(l -> l.contains("DOCTYPE")).anyMatch(l -> l.contains("unknown entity &e;"))
                .anyMatch(l -> l.contains("numaid 'x' is not a number")).anyMatch(l -> l.contains("repeats busid 0000:01:00.0"))
                .anyMatch(l -> l.contains("has no busid")).anyMatch(l -> l.contains("has busid 'bogus'"))
                .anyMatch(l -> l.contains("<gpu> outside a <pci>")).anyMatch(l -> l.contains("1 × <quirk>"))
                .anyMatch(l -> l.contains("line 11: <pci\"> has a value whose quote is not closed"));
    }

    @Test
    void textWithoutPciElementsIsOneClearLine() {
        assertThatThrownBy(() -> NcclTopoXml.parse("<html><body>not a topology</body></html>", "page.html"))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("page.html: no <pci> element with a busid: not an NCCL topology file");
        assertThatThrownBy(() -> NcclTopoXml.parse("<system><cpu numaid=\"0\"><pci busid=\"0000:0", "cut.xml"))
                .isInstanceOf(InputException.class).hasMessageContaining("the text ends inside a tag");
    }
}
