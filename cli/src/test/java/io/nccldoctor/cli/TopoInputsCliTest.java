package io.nccldoctor.cli;

import static io.nccldoctor.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * topo on the inputs tickets hold (real, fixtures/public) and on the inputs that used to crash it: /dev/zero as a
 * file or on standard input, nesting 2,000 deep, and --emit-nccl-topo-xml over an existing file or a dangling link.
 */
class TopoInputsCliTest {

    private static final String PUBLIC = "../pcie-inspect/src/test/resources/fixtures/public/";

    @TempDir
    Path tmp;

    @Test
    void endlessInputIsOneLineAndExit2() {
        CliTest.Run file = run("topo", "--nccl-topo-xml", "/dev/zero");
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err().strip()).doesNotContain("\n").contains("--nccl-topo-xml /dev/zero: more than 64 MiB");
        InputStream before = System.in;
        try {
            System.setIn(new InputStream() {
                @Override
                public int read() {
                    return 0;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return len; // zeros, for ever
                }
            });
            CliTest.Run stdin = run("topo", "--lspci-verbose", "-");
            assertThat(stdin.code()).isEqualTo(2);
            assertThat(stdin.err()).contains("--lspci-verbose (standard input): more than 64 MiB").doesNotContain("\tat ");
        } finally {
            System.setIn(before);
        }
    }

    @Test
    void nestingTwoThousandDeepIsReadToAPciTreesDepth() throws Exception {
        // SYNTHETIC: the fuzz case that overflowed the stack
        StringBuilder xml = new StringBuilder("<system version=\"1\"><cpu numaid=\"0\">");
        for (int i = 0; i < 2000; i++) {
            xml.append(String.format("<pci busid=\"%04x:%02x:00.0\" class=\"0x060400\">", i / 256, i % 256));
        }
        xml.append("</pci>".repeat(2000)).append("</cpu></system>");
        Path deep = Files.writeString(tmp.resolve("deep.xml"), xml);
        CliTest.Run r = run("topo", "--nccl-topo-xml", deep.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("PCI functions: 256 (256 bridge)")
                .contains("not understood: 1744 <pci> elements nested deeper than 256 levels were not read");
    }

    @Test
    void grepExcerptsAreShownWithWhatTheyLack() {
        CliTest.Run r = run("topo", "--lspci-verbose", PUBLIC + "lspci-verbose-grep-acsctl-nccl523.txt");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("lspci lines without a device header (12 devices")
                .contains("line 2      unknown device: ACSCtl SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+")
                .contains("line 5      unknown device: ACSCtl all off")
                .contains("missing in every one: the device address (no header line, no `lspci -s BDF`)");
    }

    @Test
    void awsAndRcclTopologyFilesDrawTheirNics() throws Exception {
        CliTest.Run p4d = run("topo", "--nccl-topo-xml", PUBLIC + "nccl-topo-aws-p4d-24xl-efa.xml", "--nccl-version", "2.27.5");
        assertThat(p4d.code()).isZero();
        assertThat(p4d.out()).contains("4 NIC (4 Amazon Elastic Fabric Adapter)").contains("GPU0-NIC0  1d0f:efa0 PIX (4)  GDR on");
        CliTest.Run mi300 = run("topo", "--nccl-topo-xml", PUBLIC + "nccl-topo-rccl-mi300x-8p-940.xml", "--json");
        JsonNode doc = Json.mapper().readTree(mi300.out());
        assertThat(doc.at("/census/value/byKind/AMD_GPU").asInt()).isEqualTo(8);
        assertThat(doc.at("/topology/value/endpoints/0/kind").asText()).isEqualTo("AMD_GPU");
        assertThat(doc.at("/topology/value/pairs")).as("16 endpoints, every pair").hasSize(16 * 15 / 2);
        CliTest.Run text = run("topo", "--nccl-topo-xml", PUBLIC + "nccl-topo-rccl-mi300x-8p-940.xml");
        assertThat(text.out()).contains("GPU0-NIC0  mlx5_0   PXB (5)  RCCL").contains("56 × <xgmi> (not a PCIe link: not analysed)");
    }

    @Test
    void emittingReplacesOnlyWithForceAndNeverFollowsALink() throws Exception {
        String xml = PUBLIC + "nccl-topo-ibm-cloud-h100-vsi.xml";
        Path out = tmp.resolve("topo.xml");
        assertThat(run("topo", "--nccl-topo-xml", xml, "--emit-nccl-topo-xml", out.toString()).code()).isZero();
        String first = Files.readString(out);
        assertThat(first).startsWith("<system version=\"1\">").contains("busid=\"0000:a4:00.0\"");
        CliTest.Run again = run("topo", "--nccl-topo-xml", xml, "--emit-nccl-topo-xml", out.toString());
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.err()).contains("the file exists");
        Path target = tmp.resolve("elsewhere.xml");
        Path link = Files.createSymbolicLink(tmp.resolve("link.xml"), target);
        CliTest.Run dangling = run("topo", "--nccl-topo-xml", xml, "--emit-nccl-topo-xml", link.toString());
        assertThat(dangling.code()).isEqualTo(2);
        assertThat(dangling.err()).contains("is a symbolic link to nothing");
        assertThat(target).doesNotExist();
        CliTest.Run forced = run("topo", "--nccl-topo-xml", xml, "--emit-nccl-topo-xml", link.toString(), "--force");
        assertThat(forced.code()).isZero();
        assertThat(Files.isSymbolicLink(link)).as("the link itself was replaced").isFalse();
        assertThat(target).as("its target never written").doesNotExist();
        assertThat(Files.readString(link)).isEqualTo(first);
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file stays").containsExactlyInAnyOrder("topo.xml", "link.xml");
        }
    }
}
