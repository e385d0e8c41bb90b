package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * lspci without root and an ACSCtl line cut mid-flags, on real pastes of the corpus (corpus/lspci-verbose/README.md):
 * what the text does not show is said, with the reason, never read as "no link" or "ACS off".
 */
class UnprivilegedAndCutAcsTest {

    private static final Path DIR = Path.of("../corpus/lspci-verbose");

    private static PciReading read(String name) throws IOException {
        return PciReading.lspciVerbose(Files.readString(DIR.resolve(name), StandardCharsets.UTF_8), name);
    }

    /** fastfetch#1658: `Capabilities: <access denied>` (pciutils ls-caps.c L1823): no LnkSta or ACSCtl because of it. */
    @Test
    void accessDeniedIsGivenAsTheReasonLinkAndAcsAreMissing() throws IOException {
        PciReading r = read("lspci-vvv-unprivileged-access-denied-pex890xx-fastfetch1658.txt");
        LspciFragment tail = r.fragments().get(0);
        assertThat(tail.link().speedGTps().reason()).isEqualTo(LspciText.UNPRIVILEGED);
        assertThat(tail.config().acsControl().reason()).isEqualTo(LspciText.UNPRIVILEGED);
        assertThat(tail.missing()).anyMatch(m -> m.startsWith("LnkCap, LnkSta, DevCtl, ACSCtl and ATSCtl: lspci ran without root"));
        assertThat(r.devices()).singleElement().satisfies(d -> {
            assertThat(d.address()).isEqualTo("0000:b9:02.0");
            assertThat(d.numaNode().get()).isEqualTo(2);
        });
    }

    /** nccl#629's grep: 16 ACSCtl lines, 4 whole with ReqRedir+ CmpltRedir+, the 16th cut at "Req". */
    @Test
    void aCutAcsLineIsNotReadAsRedirectOff() throws IOException {
        PciReading r = read("lspci-verbose-grep-acsctl-4-redirect-last-cut-nccl629.txt");
        assertThat(r.fragments()).hasSize(16);
        assertThat(r.fragments().stream().filter(f -> f.config().acsControl().isValue())).hasSize(15);
        assertThat(r.fragments().stream().filter(f -> f.config().acsControl().isValue()
                && f.config().acsControl().get().contains("ReqRedir"))).extracting(LspciFragment::firstLine).containsExactly(4, 10, 11, 13);
        assertThat(r.notUnderstood()).anyMatch(p -> p.contains(":16: ACSCtl line cut at 'Req'"));
    }

    /**
     * A CloudLab guide's `lspci -v | grep -A 5 Mellanox` without root: single -v prints the NUMA node on its Flags line
     * (pciutils lspci.c L936-937), and every function says access denied.
     */
    @Test
    void singleVerboseFlagsLineGivesTheNumaNode() throws IOException {
        PciReading r = read("lspci-v-grep-a5-mellanox-cx4lx-flags-numa-access-denied-cloudlab.txt");
        assertThat(r.devices()).extracting(PciDevice::address)
                .containsExactly("0000:03:00.0", "0000:03:00.1", "0000:07:00.0", "0000:07:00.1");
        assertThat(r.devices()).allSatisfy(d -> {
            assertThat(d.numaNode().get()).isEqualTo(0);
            assertThat(d.link().speedGTps().reason()).isEqualTo(LspciText.UNPRIVILEGED);
        });
    }
}
