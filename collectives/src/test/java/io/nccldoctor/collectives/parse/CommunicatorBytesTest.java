package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The communicator lines read from bytes against the string readers they stand for, on random lines made from NCCL's
 * shapes with parts swapped: on every line the bytes accept, the same Init START/COMPLETE, size, bus id and node count.
 */
class CommunicatorBytesTest {

    @Test
    void bytesAndStringsReadTheSameCommunicators() {
        String[] pieces = {"comm 0x", "55cc", "0x", " rank ", "3", " nranks ", "16", " nRanks ", " nNodes ", "2", " cudaDev ", " nvmlDev ",
            " busId ", "1c000", " commId ", "0x65e0", " - Init START", " - Init COMPLETE", " localRanks ", " localRank ", " MNNVL ", "0",
            "[Rank 0] ", "ncclCommInitRankConfig ", "ncclCommSplit ", "ncclCommInitnranks ", " xnranks ", " ", "  ", "-", "x", "é",
            "1234567890", "12345678901234567", "g", " Init COMPLETE", "\r"};
        String[][] shapes = {
            {"", "ncclCommInitRankConfig ", "comm 0x", "55cc", " rank ", "3", " nranks ", "16", " cudaDev ", "3", " nvmlDev ", "3", " busId ",
                "1c000", " commId ", "0x65e0", " - Init START"},
            {"[Rank 0] ", "ncclCommInitRankConfig ", "comm 0x", "9", " rank ", "0", " nranks ", "1", " cudaDev ", "0", " nvmlDev ", "0",
                " busId ", "2000", " commId ", "0x3", " - Init COMPLETE"},
            {"comm 0x", "7f12", " rank ", "0", " nranks ", "4", " cudaDev ", "0", " busId ", "1c000", " - Init COMPLETE"},
            {"comm 0x", "55cc", " rank ", "0", " nRanks ", "16", " nNodes ", "2", " localRanks ", "8", " localRank ", "0", " MNNVL ", "0"}};
        String[] prefixes = {"node01:4242:4300 [0] ", "", "nranks 5 x:1:2 [0] ", "[1,0]<stdout>:n:1:2 [3] ", "h - Init START:1:2 [0] "};
        Random random = new Random(23);
        CommunicatorBytes c = new CommunicatorBytes();
        int accepted = 0;
        for (int round = 0; round < 100_000; round++) {
            StringBuilder s = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
            int nccl = s.length();
            s.append("NCCL INFO ");
            int msg = s.length();
            for (String part : shapes[random.nextInt(shapes.length)]) {
                s.append(random.nextInt(8) == 0 ? pieces[random.nextInt(pieces.length)] : part);
            }
            String line = new String(s.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.ISO_8859_1);
            ByteWords b = DumpLinkBytesTest.block(bytes);
            if (!c.read(b, 0, nccl, msg, line.length())) {
                continue;
            }
            accepted++;
            boolean init = line.indexOf(" - Init ", msg) >= 0;
            OptionalInt size = init && line.indexOf("Init COMPLETE", msg) >= 0 ? LogMessages.communicatorSize(line) : OptionalInt.empty();
            Optional<InitMessages.Init> started = init ? InitMessages.init(line, msg) : Optional.empty();
            Optional<Integer> nodes = init ? Optional.empty() : InitMessages.nodes(line, msg);
            assertThat(c.init).as("[%s]", line).isEqualTo(init);
            assertThat(c.init && c.complete ? OptionalInt.of(c.nranks) : OptionalInt.empty()).as("[%s]", line).isEqualTo(size);
            assertThat(c.init && c.busFrom >= 0 ? Optional.of(new InitMessages.Init(c.nranks, line.substring(c.busFrom, c.busTo), c.complete))
                    : Optional.empty()).as("[%s]", line).isEqualTo(started);
            assertThat(!c.init && c.nodes >= 0 ? Optional.of(c.nodes) : Optional.empty()).as("[%s]", line).isEqualTo(nodes);
            assertThat(c.init ? c.commId : InitLog.NO_COMM_ID).as("commId of [%s]", line)
                    .isEqualTo(init ? InitLog.commId(line, msg) : InitLog.NO_COMM_ID);
        }
        assertThat(accepted).as("enough lines read from bytes to mean something").isGreaterThan(10_000);
    }
}
