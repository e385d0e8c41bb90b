package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.capture.Capture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PcieConfigTest {

    private static byte[] config(String fixture, String device) throws Exception {
        String dir = Capture.open(TopologyFixturesTest.CAPTURES.resolve(fixture)).host().files()
                .realPath("/sys/bus/pci/devices/" + device).get();
        return Files.readAllBytes(TopologyFixturesTest.CAPTURES.resolve(fixture).resolve("root" + dir + "/config"));
    }

    @Test
    void rootReadsPayloadSizesAndAcs() throws Exception {
        PcieConfig port = PcieConfig.parse(config("arrowlake-ws", "0000:00:01.0"));
        assertThat(port.portType().get()).isEqualTo("root port");
        assertThat(port.maxPayload().get()).isEqualTo(128);
        assertThat(port.maxPayloadSupported().get()).isEqualTo(256);
        assertThat(port.maxReadRequest().get()).isEqualTo(512);
        assertThat(port.acsControl().get()).containsExactly("SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd");
        PcieConfig gpu = PcieConfig.parse(config("arrowlake-ws", "0000:01:00.0"));
        assertThat(gpu.portType().get()).isEqualTo("endpoint");
        assertThat(gpu.acsControl().reason()).isEqualTo("no ACS capability");
    }

    @Test
    void anUnprivilegedReadSaysRootIsNeeded() throws Exception {
        byte[] first64 = java.util.Arrays.copyOf(config("dgx-class", "0000:18:00.0"), 64);
        PcieConfig c = PcieConfig.parse(first64);
        assertThat(c.maxPayload().isAbsent()).isTrue();
        assertThat(c.maxPayload().reason()).contains("root");
        assertThat(PcieConfig.parse(new byte[10]).maxPayload().isError()).isTrue();
    }

    @Test
    void aBrokenCapabilityChainEnds() {
        byte[] b = new byte[256];
        b[0x06] = 0x10;
        b[0x34] = 0x40;
        b[0x40] = 0x05; // MSI, pointing to itself
        b[0x41] = 0x40;
        assertThat(PcieConfig.parse(b).maxPayload().reason()).contains("no PCI Express capability");
    }

    @Test
    void linkSpeedStrings() {
        assertThat(PciLink.parseSpeed("8.0 GT/s PCIe").get()).isEqualTo(8.0);
        assertThat(PciLink.parseSpeed("16 GT/s").get()).as("kernel 5.6 and older").isEqualTo(16.0);
        assertThat(PciLink.parseSpeed("Unknown").isAbsent()).isTrue();
        assertThat(PciLink.parseWidth("0").isAbsent()).isTrue();
        assertThat(PciLink.generation(32.0).get()).isEqualTo(5);
        assertThat(PciLink.generation(7.0).isError()).isTrue();
    }

    @Test
    void capturesHaveTheFullConfigSpace() throws Exception {
        assertThat(config("epyc-2s", "0000:81:00.0")).hasSize(4096);
        assertThat(Path.of("src/test/resources/fixtures/captures/epyc-2s/manifest.json")).exists();
    }
}
