package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file read in parallel ranges gives what one pass gives, wherever the cuts fall: between the lines of one process's
 * open topology dump, between a dump's header and its first line, between its last link line and its closing line,
 * within a process's burst. Checked on every real NCCL log of the corpus and of the public fixtures, cut at every line
 * start (two ranges) and at random line starts (three and four), and on random job-shaped logs whose processes
 * interleave whole initialisations (dumps included, some left open or begun before the file starts). Equal means the
 * same record and the same JSON.
 */
class LogRangesTest {

    private static final Path ROOT = Path.of("..");
    /** Bytes read at once: small ones put block ends inside the ranges too. */
    private static final int[] SEGMENTS = {512, 4096, LogReader.SEGMENT};

    @Test
    void everyRealLogCutAnywhereReadsAsInOnePass() throws IOException, InterruptedException {
        List<Path> logs = realLogs();
        assertThat(logs).as("the corpus and fixture logs").hasSizeGreaterThan(30);
        Random random = new Random(13);
        int cutsTried = 0;
        for (Path file : logs) {
            long size = Files.size(file);
            Map<Integer, NcclLog> one = new HashMap<>(); // by segment: a line longer than a segment counts as more than one
            try {
                for (int segment : SEGMENTS) {
                    one.put(segment, NcclLog.parse(file, 1, 1, segment));
                }
            } catch (InputException e) {
                assertThatThrownBy(() -> cut(file, new long[] {size / 2}, 512)).as(file.toString()).isInstanceOf(InputException.class);
                continue;
            }
            List<Long> starts = lineStarts(file);
            int step = Math.max(1, starts.size() / 200);
            for (int i = 0; i < starts.size(); i += step, cutsTried++) {
                int segment = SEGMENTS[i % SEGMENTS.length];
                assertSame(one.get(segment), cut(file, new long[] {starts.get(i)}, segment), file + " cut at byte " + starts.get(i));
            }
            for (int round = 0; round < 20 && size > 1; round++, cutsTried++) {
                long[] cuts = randomCuts(random, size, 2 + random.nextInt(2));
                int segment = SEGMENTS[round % SEGMENTS.length];
                assertSame(one.get(segment), cut(file, cuts, segment), file + " cut at " + Arrays.toString(cuts));
            }
        }
        assertThat(cutsTried).as("cuts tried").isGreaterThan(1000);
    }

    @Test
    void aSmallLogReadInRangesOnRequestReadsAsInOnePass() throws IOException {
        int joined = 0;
        for (Path file : realLogs()) {
            NcclLog one;
            try {
                one = NcclLog.parse(file, 1, 1);
            } catch (InputException e) {
                continue;
            }
            assertSame(one, NcclLog.parseInRanges(file, 2), file.toString());
            joined++;
        }
        assertThat(joined).isGreaterThan(30);
    }

    /**
     * A worker that has finished its range takes half of another's unread tail: whenever that happens (before the owner's
     * first read, after some, again within the taken tail), the ranges joined in file order read as one pass. The reads
     * are interleaved here by hand, so every order is tried, not only those the threads of a run happen to take.
     */
    @Test
    void tailsTakenWhileTheirRangeIsReadReadAsInOnePass() throws IOException {
        int taken = 0;
        int logs = 0;
        for (Path file : realLogs()) {
            byte[] bytes = Files.readAllBytes(file);
            if (LogReader.bare(bytes, Math.min(bytes.length, LogReader.SNIFF), bytes.length <= LogReader.SNIFF)) {
                continue; // read in one pass, never split
            }
            NcclLog one;
            try {
                one = NcclLog.parse(file, 1, 1, 512);
            } catch (InputException e) {
                continue;
            }
            logs++;
            for (int after = 0; after < 4; after++) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    List<FileRange> ranges = new ArrayList<>(List.of(new FileRange(ch, 0, bytes.length)));
                    for (int k = 0; k < ranges.size(); k++) {
                        FileRange r = ranges.get(k);
                        int splitAt = k == 0 ? after : 1; // a taken tail loses half of its own tail after its first read
                        int[] reads = {0};
                        r.builder = LogReader.blocks(buf -> {
                            if (reads[0]++ == splitAt && ranges.size() < 6) {
                                FileRange tail = r.split(1);
                                if (tail != null) {
                                    ranges.add(tail);
                                }
                            }
                            return r.read(buf);
                        }, r.start, 512, false);
                        r.builder.settle();
                    }
                    taken += ranges.size() - 1;
                    assertSame(one, LogReader.join(ranges).finish(file.toString()), file + ", a tail taken after " + after + " reads");
                }
            }
        }
        assertThat(logs).isGreaterThan(30);
        assertThat(taken).as("tails taken").isGreaterThan(100);
    }

    @Test
    void jobShapedLogsWithInterleavedDumpsCutAnywhereReadAsInOnePass(@TempDir Path dir) throws IOException, InterruptedException {
        Random random = new Random(31);
        int dumpsCut = 0;
        for (int round = 0; round < 120; round++) {
            String text = job(random);
            Path file = dir.resolve("job" + round + ".log");
            Files.writeString(file, text);
            NcclLog one = NcclLog.parse(file, 1, 1);
            List<Long> starts = lineStarts(file);
            for (int k = 0; k < 12; k++) {
                long[] cuts = randomCuts(random, Files.size(file), 1 + random.nextInt(3));
                assertSame(one, cut(file, cuts, SEGMENTS[k % 2]), "round " + round + " cut at " + Arrays.toString(cuts));
            }
            long mid = starts.get(starts.size() / 2);
            assertSame(one, cut(file, new long[] {mid}, LogReader.SEGMENT), "round " + round + " cut at " + mid);
            dumpsCut += one.systems().isEmpty() ? 0 : 1;
        }
        assertThat(dumpsCut).as("rounds with a topology dump").isGreaterThan(100);
    }

    /**
     * Processes of one job writing their initialisations at once, in bursts: version, network, a topology dump (one of
     * a few shapes, sometimes left open, sometimes begun before the file starts), its paths, channels, GDR decisions and
     * communicator lines.
     */
    private static String job(Random random) {
        int processes = 1 + random.nextInt(8);
        List<List<String>> lines = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            String prefix = "node" + (p / 4) + ":" + (4000 + p) + ":" + (4100 + p) + " [" + p % 4 + "] NCCL INFO ";
            List<String> own = new ArrayList<>();
            own.add("NCCL version 2.27.5+cuda12.9");
            own.add("NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0." + p + "<0>");
            for (int d = random.nextInt(3); d > 0; d--) {
                own.addAll(dump(random, p, random.nextInt(8) == 0 ? DumpEnd.OPEN : DumpEnd.CLOSED));
            }
            own.add("GPU/0-18000 : GPU/0-18000 (0/5000.0/LOC) NET/0-0 (2/48.0/PXB) CPU/0-0 (1/48.0/PHB)");
            own.add("GPU Direct RDMA " + (random.nextBoolean() ? "Enabled" : "Disabled") + " for GPU " + p + " / HCA 0 (distance "
                    + (4 + random.nextInt(3)) + " <= 5), read 1 mode Default");
            for (int ch = 0; ch < 1 + random.nextInt(6); ch++) {
                own.add(String.format("Channel %02d/0 : %d[%d] -> %d[%d] via %s", ch, p, p % 4, p + 1, (p + 1) % 4,
                        random.nextBoolean() ? "P2P/CUMEM/read" : "NET/IB/" + ch % 2 + "/GDRDMA"));
            }
            own.add("comm 0x55cc rank " + p + " nRanks " + processes + " nNodes " + (1 + (processes - 1) / 4) + " localRanks 4 localRank "
                    + p % 4 + " MNNVL 0");
            own.add("ncclCommInitRankConfig comm 0x55cc rank " + p + " nranks " + processes + " cudaDev " + p % 4 + " nvmlDev " + p % 4
                    + " busId 18000 commId 0x1 - Init COMPLETE");
            List<String> prefixed = new ArrayList<>();
            if (random.nextInt(6) == 0) { // the file begins in the middle of this process's dump
                List<String> tail = dump(random, p, DumpEnd.CLOSED);
                prefixed.addAll(tail.subList(1 + random.nextInt(tail.size() - 1), tail.size()).stream().map(l -> prefix + l).toList());
            }
            own.forEach(l -> prefixed.add(prefix + l));
            lines.add(prefixed);
        }
        StringBuilder text = new StringBuilder();
        int[] at = new int[processes];
        for (int left = processes; left > 0; ) {
            int p = random.nextInt(processes);
            for (int burst = 1 + random.nextInt(10); burst > 0 && at[p] < lines.get(p).size(); burst--) {
                text.append(lines.get(p).get(at[p]++)).append('\n');
                if (at[p] == lines.get(p).size()) {
                    left--;
                }
            }
        }
        return text.toString();
    }

    private enum DumpEnd { OPEN, CLOSED }

    /** A topology dump as ncclTopoPrint writes it (src/graph/topo.cc), one of a few shapes: two share their numbers. */
    private static List<String> dump(Random random, int process, DumpEnd end) {
        int shape = random.nextInt(3);
        List<String> out = new ArrayList<>(List.of("=== System : maxBw " + (shape == 2 ? "24.0" : "48.0") + " totalBw 370.8 ===",
                "CPU/0-0 (1/2/-1)", "+ SYS[16.0] - CPU/0-1"));
        for (int g = 0; g < 1 + shape; g++) {
            out.add("+ PCI[" + (shape == 1 && g == 1 ? "0.2" : "48.0") + "] - PCI/0-" + (17 + g) + "000 (1000c0101000a000)");
            out.add("              + PCI[48.0] - GPU/0-" + (18 + g) + "000 (" + (process * 4 + g) + ")");
            out.add("                            + NVL[370.8] - NVS/0-0");
            out.add("              + PCI[48.0] - NIC/0-" + (19 + g) + "000");
            out.add("                            + NET[50.0] - NET/0-" + g + " (0/a87cb10003e1a25" + g + "/1/50.000000)");
        }
        if (end == DumpEnd.CLOSED) {
            out.add("==========================================");
        }
        return out;
    }

    private static void assertSame(NcclLog one, NcclLog ranges, String what) {
        assertThat(ranges).as(what).isEqualTo(one);
        assertThat(Json.write(ranges)).as(what + " (JSON)").isEqualTo(Json.write(one));
    }

    private static NcclLog cut(Path file, long[] cuts, int segment) throws IOException, InterruptedException {
        return LogReader.read(file, cuts, segment).finish(file.toString());
    }

    /** Ascending cuts in [1, size), possibly equal (an empty range). */
    private static long[] randomCuts(Random random, long size, int n) {
        long[] cuts = new long[n];
        for (int k = 0; k < n; k++) {
            cuts[k] = 1 + (long) (random.nextDouble() * (size - 1));
        }
        Arrays.sort(cuts);
        return cuts;
    }

    private static List<Long> lineStarts(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\n') {
                starts.add((long) i + 1);
            }
        }
        if (starts.isEmpty()) {
            starts.add((long) Math.max(1, bytes.length));
        }
        return starts;
    }

    /** The NCCL logs of the corpus and of the public fixtures (real outputs, cited in the READMEs beside them). */
    private static List<Path> realLogs() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path folder : List.of(ROOT.resolve("corpus/nccl-log"), Path.of("src/test/resources/fixtures/public"))) {
            try (Stream<Path> files = Files.list(folder)) {
                files.filter(f -> f.getFileName().toString().startsWith("nccl-log")).sorted().forEach(out::add);
            }
        }
        return out;
    }
}
