package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU Direct RDMA decisions read from bytes against the string reader they stand for: on random lines made from NCCL's
 * wordings with parts swapped, every line the bytes accept gives the decision {@link LogMessages#gdr} gives (enabled,
 * distance, comparison, threshold, wording); and logs of many ranks' decisions, where the bytes take over once the
 * examples are kept, read alike by lines, by blocks, in ranges and as a stream.
 */
class GdrBytesTest {

    private static final String[][] SHAPES = {
        {"GPU Direct RDMA ", "Enabled", " for GPU ", "17", " / HCA ", "1", " (distance ", "5", " <= ", "5", ")", ", read 1 mode Default"},
        {"GPU Direct RDMA ", "Disabled", " for GPU ", "18000", " / HCA ", "0", " (distance ", "8", " > ", "5", ")", ""},
        {"GPU Direct RDMA ", "Disabled", " for GPU ", "0[0]", " / HCA ", "0", " (distance ", "4", " >= ", "2", ")", ""},
        {"GPU Direct RDMA ", "Enabled", " for GPU/", "0-1b000", " (rank ", "0", ") - NET/", "0-0", " (distance ", "5", " <= ", "6", "), read 1"}};
    private static final String[] PIECES = {"GPU Direct RDMA ", "Enabled", "Disabled", "Enable", " for GPU ", " for GPU/", " / HCA ", "/",
        " (distance ", " (distance", "(distance ", "5", "12", "1234567890", "12345678901", " <= ", " < ", " > ", " >= ", " = ", " =< ", ")",
        ",", ", read 1 mode Default", " - NET/0-0", " for GPU/x - NET/y", "\t", " ", "  ", "x", "é", "G", "", "0-1b000", " (rank 3) - NET/"};
    private static final String[] PREFIXES = {"node01:4242:4300 [0] ", "", "[1,0]<stdout>:n:1:2 [3] ", "GPU-node:1:2 [0] ",
        "GPU Direct RDMA Disabled for GPU 1 / HCA 2 (distance 9 > 5) h:1:2 [0] ", "x for GPU/ - NET/ y:1:2 [1] "};

    @Test
    void bytesAndStringsReadTheSameDecisions() {
        Random random = new Random(31);
        GdrBytes g = new GdrBytes();
        int accepted = 0;
        for (int round = 0; round < 100_000; round++) {
            StringBuilder s = new StringBuilder(PREFIXES[random.nextInt(PREFIXES.length)]);
            int nccl = s.length();
            s.append("NCCL INFO ");
            int msg = s.length();
            for (String part : SHAPES[random.nextInt(SHAPES.length)]) {
                s.append(random.nextInt(8) == 0 ? PIECES[random.nextInt(PIECES.length)] : part);
            }
            String line = new String(s.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.ISO_8859_1);
            if (!g.read(DumpLinkBytesTest.block(bytes), 0, nccl, msg, line.length())) {
                continue;
            }
            accepted++;
            Optional<NcclLog.GdrLine> strings = LogMessages.gdr(line);
            assertThat(strings).as("[%s]", line).isPresent();
            NcclLog.GdrLine d = strings.get();
            assertThat(new NcclLog.GdrCount(g.enabled, g.distance, g.relation, g.threshold, NcclLog.GdrWording.before229(g.relation), 1))
                    .as("[%s]", line).isEqualTo(new NcclLog.GdrCount(d.enabled(), d.distance(), d.relation(), d.threshold(), d.wording(), 1));
        }
        assertThat(accepted).as("enough lines read from bytes to mean something").isGreaterThan(5_000);
    }

    @Test
    void nccls2_27LinesAreReadFromBytes() {
        GdrBytes g = new GdrBytes();
        String line = "node0000:40005:40098 [5] NCCL INFO GPU Direct RDMA Enabled for GPU 5 / HCA 6 (distance 5 <= 5), read 1 mode Default";
        assertThat(g.read(DumpLinkBytesTest.block((line + "\n").getBytes(StandardCharsets.ISO_8859_1)), 0, 25, 35, line.length())).isTrue();
        assertThat(new Object[] {g.enabled, g.distance, g.relation, g.threshold}).containsExactly(true, 5, "<=", 5);
        line = "h:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)";
        assertThat(g.read(DumpLinkBytesTest.block((line + "\n").getBytes(StandardCharsets.ISO_8859_1)), 0, 10, 20, line.length())).isTrue();
        assertThat(new Object[] {g.enabled, g.distance, g.relation, g.threshold}).containsExactly(false, 8, ">", 5);
    }

    @Test
    void logsOfManyRanksDecisionsReadAlikeEveryWay(@TempDir Path dir) throws IOException {
        Random random = new Random(37);
        for (int round = 0; round < 60; round++) {
            StringBuilder text = new StringBuilder();
            int processes = 1 + random.nextInt(8);
            for (int n = 200 + random.nextInt(400); n > 0; n--) {
                int p = random.nextInt(processes);
                text.append(PREFIXES[random.nextInt(4) == 0 ? random.nextInt(PREFIXES.length) : 0].replace("4242", "" + (4242 + p)))
                        .append("NCCL INFO ");
                String[] shape = SHAPES[random.nextInt(10) == 0 ? random.nextInt(SHAPES.length) : random.nextInt(2)];
                for (int i = 0; i < shape.length; i++) {
                    String part = i == 3 ? "" + random.nextInt(300) : i == 5 ? "" + random.nextInt(8) : shape[i];
                    text.append(random.nextInt(40) == 0 ? PIECES[random.nextInt(PIECES.length)] : part);
                }
                text.append('\n');
                if (random.nextInt(20) == 0) {
                    text.append("node01:4242:4300 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n");
                }
            }
            Path file = dir.resolve("gdr" + round + ".log");
            Files.writeString(file, text);
            NcclLog lines = NcclLog.parse(new BufferedReader(new StringReader(text.toString())), file.toString());
            assertThat(lines.gdr()).as("examples kept, then the bytes count the rest").hasSize(64);
            assertThat(NcclLog.parse(file, 1, 1)).as("round %d", round).isEqualTo(lines);
            assertThat(NcclLog.parse(file, 3, 1, 1024)).as("round %d in three ranges", round).isEqualTo(lines);
            assertThat(NcclLog.parse(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), file.toString(), 700))
                    .as("round %d as a stream", round).isEqualTo(lines);
        }
    }
}
