package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the reader does with text it was not made for: other tools' output, and the real fixtures cut short, with a
 * line missing, or pasted one after another. The cut and joined texts are made here from the real ones, for this
 * robustness test only; the facts themselves are asserted on the fixtures as published (RdmaTextReaderTest).
 */
class RdmaTextRobustnessTest {

    @Test
    void textThatIsNoRdmaStateIsRefusedWithTheKindsTried() throws IOException {
        for (String file : List.of("README.md", "perftest-write-bw-roce-cx5-client.txt")) {
            List<String> lines = Files.readAllLines(RdmaTextReaderTest.PUBLIC.resolve(file));
            assertThatThrownBy(() -> RdmaTextReader.parse(lines, file)).isInstanceOf(InputException.class)
                    .hasMessageContaining(file + ": none of the RDMA state outputs")
                    .hasMessageContaining("ibv_devinfo, ibstat, ibstatus").hasMessageContaining("mlnx_qos, ethtool -S");
        }
        assertThatThrownBy(() -> RdmaTextReader.parse(List.of("", "  "), "empty.txt")).isInstanceOf(InputException.class)
                .hasMessageContaining("the text is empty");
    }

    /** Every prefix of every fixture, and every fixture with one line left out: read or refused, never an exception. */
    @Test
    void cutAndGappedFixturesAreReadOrRefusedNeverCrash() throws IOException {
        int read = 0;
        for (List<String> lines : fixtures()) {
            for (int cut = 0; cut <= lines.size(); cut++) {
                read += readOrRefuse(lines.subList(0, cut));
                List<String> gapped = new ArrayList<>(lines);
                if (cut < lines.size()) {
                    gapped.remove(cut);
                    read += readOrRefuse(gapped);
                }
            }
        }
        assertThat(read).as("most variants still hold a recognisable section").isGreaterThan(1000);
    }

    private static int readOrRefuse(List<String> lines) {
        try {
            RdmaPaste p = RdmaTextReader.parse(lines, "variant");
            RdmaPaste.Lines l = p.lines();
            assertThat(l.facts() + l.known() + l.skipped() + l.notUnderstood()).isEqualTo(lines.size());
            return 1;
        } catch (InputException refused) {
            return 0;
        }
    }

    /** Two outputs of one port taken at different times disagree: the first is kept and the disagreement is a note. */
    @Test
    void sectionsThatDisagreeLeaveANoteAndKeepTheFirst() throws IOException {
        List<String> joined = new ArrayList<>(Files.readAllLines(RdmaTextReaderTest.PUBLIC.resolve("ibv-devinfo-cx7-ib-down-lid65535.txt")));
        joined.addAll(Files.readAllLines(RdmaTextReaderTest.PUBLIC.resolve("lsmod-ls-l-ibstat-cx4-ib-init-no-sm.txt")));
        RdmaPaste p = RdmaTextReader.parse(joined, "joined");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBV_DEVINFO, RdmaKind.LS, RdmaKind.IBSTAT);
        assertThat(PasteFactsView.of(p)).containsEntry("mlx5_0/1 state", "DOWN").containsEntry("mlx5_0 pci", "0000:04:00.0");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1 state: DOWN (ibv_devinfo, line 13) but INIT (ibstat, line ")
                && n.endsWith("the first is kept"));
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 firmware: 28.39.2048"));
    }

    private static List<List<String>> fixtures() throws IOException {
        List<List<String>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(RdmaTextReaderTest.PUBLIC)) {
            for (Path f : files.sorted().toList()) {
                String n = f.getFileName().toString();
                if (!n.startsWith("perftest") && !n.equals("README.md")) {
                    out.add(Files.readAllLines(f));
                }
            }
        }
        return out;
    }
}
