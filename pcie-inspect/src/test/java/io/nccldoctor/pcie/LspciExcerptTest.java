package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lspci -vvv | grep …} excerpts pasted into real tickets: no device header, so each group of lines is one
 * device whose address is unknown unless {@code lspci -s BDF} named it; what they say is read, what they cannot say
 * is listed (fixtures/public/README.md, section 3).
 */
class LspciExcerptTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    private static PciReading read(String file) throws IOException {
        return PciReading.lspciVerbose(Files.readString(DIR.resolve(file)), file);
    }

    @Test
    void aDowngradedLinkWithoutItsDevice() throws IOException {
        PciReading r = read("lspci-verbose-grep-lnk-downgraded-rtx4090-riser.txt");
        assertThat(r.devices()).as("no address to give it").isEmpty();
        LspciFragment f = r.fragments().get(0);
        assertThat(r.fragments()).hasSize(1);
        assertThat(f.link().speedGTps().get()).isEqualTo(2.5);
        assertThat(f.link().width().get()).isEqualTo(16);
        assertThat(f.link().maxSpeedGTps().get()).isEqualTo(16.0);
        assertThat(f.device().isAbsent()).isTrue();
        assertThat(f.missing()).contains("the device address (no header line, no `lspci -s BDF`)",
                "class, vendor and device ids (no header line)", "ACSCtl", "NUMA node").doesNotContain("LnkSta", "LnkCap");
        assertThat(r.notUnderstood()).isEmpty();
    }

    @Test
    void lspciDashSNamesTheDevice() throws IOException {
        PciReading r = read("lspci-verbose-grep-lnk-slot-named-rx9070.txt");
        PciDevice d = r.devices().get(0);
        assertThat(d.address()).isEqualTo("0000:2f:00.0");
        assertThat(d.link().speedGTps().get()).isEqualTo(32.0);
        assertThat(d.link().maxWidth().get()).isEqualTo(16);
        assertThat(d.kind()).as("no header: no class to say what it is").isEqualTo(DeviceKind.OTHER);
        assertThat(r.fragments()).singleElement().satisfies(f -> {
            assertThat(f.device().get()).isEqualTo("0000:2f:00.0");
            assertThat(f.missing()).contains("class, vendor and device ids (no header line)")
                    .doesNotContain("the device address (no header line, no `lspci -s BDF`)");
        });
        assertThat(r.census().notUnderstood()).singleElement().asString().startsWith("0000:2f:00.0");
    }

    @Test
    void unindentedLinesAreStillLspciLines() throws IOException {
        PciReading r = read("lspci-verbose-lnk-unindented-rx7800xt.txt");
        assertThat(r.fragments()).singleElement().satisfies(f -> {
            assertThat(f.link().speedGTps().get()).isEqualTo(16.0);
            assertThat(f.link().maxSpeedGTps().isAbsent()).as("LnkCap2 is not LnkCap").isTrue();
            assertThat(f.firstLine()).isEqualTo(1);
            assertThat(f.lastLine()).isEqualTo(3);
        });
        assertThat(r.notUnderstood()).isEmpty();
    }

    @Test
    void oneAcsControlLinePerDevice() throws IOException {
        PciReading spaces = read("lspci-verbose-grep-acsctl-nccl523.txt");
        assertThat(spaces.fragments()).hasSize(12);
        assertThat(redirecting(spaces.fragments())).as("lines 1, 9, 10, 11 and 12 of the grep").containsExactly(2, 10, 11, 12, 13);
        assertThat(spaces.fragments().get(3).config().acsControl().get()).isEmpty();
        PciReading off = read("lspci-verbose-grep-acsctl-disabled-nccl1405.txt");
        assertThat(off.fragments()).hasSize(14).allMatch(f -> f.config().acsControl().get().isEmpty());
        PciReading tabs = read("lspci-verbose-grep-acsctl-tabs-nccl629.txt");
        assertThat(tabs.fragments()).hasSize(15);
        assertThat(redirecting(tabs.fragments())).containsExactly(4, 10, 11, 13);
        assertThat(spaces.notUnderstood()).as("'# lspci -vvv | grep -i acsctl' is the command").isEmpty();
    }

    @Test
    void atsControlGroupedByItsCapabilityLine() throws IOException {
        PciReading r = read("lspci-verbose-grep-ats-h200-vm.txt");
        assertThat(r.fragments()).hasSize(7).allMatch(f -> f.config().atsEnabled().get());
        assertThat(r.fragments().get(1).firstLine()).isEqualTo(5);
        assertThat(r.fragments().get(1).lastLine()).isEqualTo(7);
    }

    @Test
    void headerBlocksStillHaveNoFragments() throws IOException {
        PciReading r = read("lspci-verbose-lenovo-sd665n-v3-cx7.txt");
        assertThat(r.fragments()).isEmpty();
        assertThat(r.notUnderstood()).as("the libkmod stderr line after each block").hasSize(2)
                .allMatch(l -> l.contains("lspci: Unable to load libkmod resources"));
    }

    private static List<Integer> redirecting(List<LspciFragment> fragments) {
        return fragments.stream().filter(f -> f.config().acsControl().get().contains("ReqRedir")).map(LspciFragment::firstLine).toList();
    }
}
