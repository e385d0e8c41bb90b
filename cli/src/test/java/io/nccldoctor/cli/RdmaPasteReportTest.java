package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * What a pasted RDMA text leaves out reaches `report` as it reaches `parse rdma`: devices ibv_devinfo could not open,
 * an excerpt starting inside a port, a device listed without ports. Each input is a corpus file copied verbatim from
 * its source (corpus/rdma/README.md).
 */
class RdmaPasteReportTest {

    static final String RDMA = "../corpus/rdma/";

    static String run(String... args) {
        StringWriter out = new StringWriter();
        Cli.run(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        return out.toString();
    }

    @Test
    void reportSaysTheDevicesIbvDevinfoCouldNotOpen() {
        String report = run("report", RDMA + "ibv-devinfo-failed-to-open-8-devices-container.txt").replaceAll("\\s+", " ");
        assertThat(report).contains("Notes on the inputs").contains("ibv_devinfo could not open 8 devices it found (\"Failed to open "
                + "device\", lines 1, 2, 3, 4, 5, 26, 27, 28)");
    }

    @Test
    void markdownAndHtmlReportsSayThemToo() throws Exception {
        Path dir = Files.createTempDirectory("rdma-notes");
        Path md = dir.resolve("report.md");
        Path html = dir.resolve("report.html");
        try {
            run("report", RDMA + "ibv-devinfo-failed-to-open-8-devices-container.txt", "-o", md.toString());
            assertThat(Files.readString(md).replaceAll("\\s+", " ")).contains("## Notes on the inputs")
                    .contains("could not open 8 devices it found");
            run("report", RDMA + "ibv-devinfo-failed-to-open-8-devices-container.txt", "-o", html.toString());
            assertThat(Files.readString(html)).contains("<h2>Notes on the inputs</h2>").contains("could not open 8 devices it found");
        } finally {
            Files.deleteIfExists(md);
            Files.deleteIfExists(html);
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void reportSaysAnEthtoolFirmwareWithNoRdmaDeviceAtItsPciFunction() {
        String report = run("report", RDMA + "ethtool-i-cx4lx-mlx5-core-fw-psid-bare.txt").replaceAll("\\s+", " ");
        assertThat(report).contains("ethtool -i (ethtool -i, line 1): driver mlx5_core, firmware 14.23.1020 (PSID MT_2420110034), "
                + "PCI 0000:af:00.0: the input places no RDMA device at that PCI function");
    }

    @Test
    void reportSaysAnExcerptStartsInsideAPort() {
        String parse = run("parse", "rdma", RDMA + "ibv-devinfo-starts-mid-port-cx7-eth.txt");
        String report = run("report", RDMA + "ibv-devinfo-starts-mid-port-cx7-eth.txt").replaceAll("\\s+", " ");
        String note = parse.lines().dropWhile(l -> !l.equals("Notes")).skip(1).findFirst().orElseThrow().strip();
        assertThat(report).contains("Notes on the inputs").contains(note.replaceAll("\\s+", " "));
    }

    @Test
    void firmwareCheckSaysHowManyWereReadAndHowManyNotOpened() {
        String parse = run("parse", "rdma", RDMA + "ibv-devinfo-failed-to-open-8-devices-container.txt");
        assertThat(parse).contains("HCA_FIRMWARE_MIXED  1 RDMA device read (mlx4_2 fw 2.40.7000) and 8 that ibv_devinfo could "
                + "not open or query").contains("was not compared").doesNotContain("fewer than two RDMA devices");
    }

    @Test
    void aDeviceShowGidsListsNoGidOfIsFlaggedByTheGidRule() {
        String report = run("report", RDMA + "show-gids-none-found-in-pod.txt");
        assertThat(report).contains("ROCE_NO_V2_GID").contains("mlx5_0 has no GID on any port");
        String parse = run("parse", "rdma", RDMA + "show-gids-none-found-in-pod.txt");
        assertThat(parse).contains("show_gids (show_gids, line 4) walks every port of mlx5_0 and lists no GID");
    }
}
