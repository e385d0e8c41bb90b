package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.capture.Capture;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NcclTopoXmlWriterTest {

    /** What NCCL would compute from the written file equals what it computes from sysfs, pair by pair. */
    @ParameterizedTest
    @ValueSource(strings = {"dgx-class", "arrowlake-ws", "threadripper-pro-ws", "epyc-2s"})
    void writtenFilesKeepEveryNcclPath(String fixture) {
        Host host = Capture.open(TopologyFixturesTest.CAPTURES.resolve(fixture)).host();
        List<PciDevice> devices = new PciInventoryProbe().run(host).devices().get();
        Platform.Cpu cpu = new PlatformProbe().run(host).cpu();
        String xml = NcclTopoXmlWriter.write(devices, cpu);
        assertThat(xml).startsWith("<system version=\"1\">").contains("<cpu numaid=\"0\"");
        NcclTopoXml back = NcclTopoXml.parse(xml, fixture);
        PciTree sysfs = PciTree.of(devices);
        PciTree fromXml = PciTree.of(back.devices());
        List<PciDevice> ends = devices.stream().filter(d -> d.kind() == DeviceKind.GPU || d.kind() == DeviceKind.NIC).toList();
        assertThat(back.devices()).extracting(PciDevice::address).containsAll(ends.stream().map(PciDevice::address).toList());
        for (PciDevice a : ends) {
            for (PciDevice b : ends) {
                assertThat(fromXml.ncclPath(a.address(), b.address())).as("%s %s-%s", fixture, a.address(), b.address())
                        .isEqualTo(sysfs.ncclPath(a.address(), b.address()));
            }
        }
    }

    @org.junit.jupiter.api.Test
    void cpuAttributesAreEscapedSoTheFileStaysWellFormed() {
        Host host = Capture.open(TopologyFixturesTest.CAPTURES.resolve("arrowlake-ws")).host();
        List<PciDevice> devices = new PciInventoryProbe().run(host).devices().get();
        var cpu = new Platform.Cpu(Fact.of("Genuine\"Intel<&"), Fact.of(6), Fact.of(198), Fact.absent("x"), Fact.absent("x"), Fact.absent("x"));
        String xml = NcclTopoXmlWriter.write(devices, cpu);
        assertThat(xml).contains("vendor=\"Genuine&quot;Intel&lt;&amp;\" familyid=\"6\" modelid=\"198\"");
        assertThat(NcclTopoXml.parse(xml, "escaped").devices()).isNotEmpty();
    }
}
