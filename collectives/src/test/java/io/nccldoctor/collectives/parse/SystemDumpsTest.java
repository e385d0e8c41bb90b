package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written readers of dump links and node counts against the expressions they replace, on random lines. */
class SystemDumpsTest {

    private static final Pattern LINK = Pattern.compile("^\\s*\\+ (\\w+)\\[([\\d.]+)\\] - (\\w+)/(\\S+)");
    private static final Pattern NODES = Pattern.compile("nRanks \\d{1,9} nNodes (\\d{1,9})(?!\\d)");

    @Test
    void linkAndNodeReadersMatchTheirExpressions() {
        String[] pieces = {"+ ", " ", "\t", "PCI", "NVL", "NET", "C2C", "[", "48.0", "0.2", "5000.0", "]", " - ", "-", "GPU", "NIC", "NVS", "/",
            "0-68000", " (8)", "x", "é", "nRanks ", "16", " nNodes ", "2", "1234567890", " localRanks 8", "\n", "_", "."};
        Random random = new Random(11);
        int links = 0;
        int nodes = 0;
        for (int round = 0; round < 200_000; round++) {
            StringBuilder s = new StringBuilder();
            int kind = random.nextInt(3);
            if (kind < 2) { // a link's or a node count's shape, each part swapped for a random piece one time in six
                String[] shape = kind == 0 ? new String[] {random.nextBoolean() ? "   " : "", "+ ", "PCI", "[", "48.0", "]", " - ", "GPU", "/",
                    "0-68000", " (8)"} : new String[] {"comm 0x1 rank 0 ", "nRanks ", "16", " nNodes ", "2", " localRanks 8"};
                for (String part : shape) {
                    s.append(random.nextInt(6) == 0 ? pieces[random.nextInt(pieces.length)] : part);
                }
            } else {
                for (int k = random.nextInt(9); k >= 0; k--) {
                    s.append(pieces[random.nextInt(pieces.length)]);
                }
            }
            String line = s.toString();
            Matcher m = LINK.matcher(line);
            SystemDumps.Line l = SystemDumps.link(line);
            if (m.find()) {
                links++;
                assertThat(l).as("[%s]", line).isNotNull();
                assertThat(l.a() + "|" + l.b() + "|" + l.c() + "|" + l.d()).as("[%s]", line)
                        .isEqualTo(m.group(1) + "|" + m.group(2) + "|" + m.group(3) + "|" + m.group(4));
            } else {
                assertThat(l).as("[%s]", line).isNull();
            }
            Matcher n = NODES.matcher(line);
            assertThat(InitMessages.nodes(line)).as("[%s]", line).isEqualTo(n.find() ? Optional.of(Integer.parseInt(n.group(1))) : Optional.empty());
            nodes += n.find(0) ? 1 : 0;
        }
        assertThat(links).as("enough lines matched to mean something").isGreaterThan(1000);
        assertThat(nodes).isGreaterThan(100);
    }

    @Test
    void realLines() {
        SystemDumps.Line l = SystemDumps.link("              + PCI[48.0] - GPU/0-68000 (8)");
        assertThat(l.link() + " " + l.node() + " " + l.b() + " " + l.d()).isEqualTo("0 1 48.0 0-68000");
        assertThat(SystemDumps.read("=== System : maxWidth 24.0 totalWidth 24.0 ===")).get().extracting(SystemDumps.Line::a).isEqualTo("24.0");
        assertThat(InitMessages.init("ncclCommInitRankConfig comm 0x55cc rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x65e0 "
                + "- Init COMPLETE")).contains(new InitMessages.Init(16, "1c000", true));
        assertThat(InitMessages.environment("NCCL_IB_DISABLE set by environment to 0.")).contains(Map.entry("NCCL_IB_DISABLE", "0"));
        assertThat(InitMessages.environment("NCCL_SOCKET_IFNAME set by environment to en")).contains(Map.entry("NCCL_SOCKET_IFNAME", "en"));
    }
}
