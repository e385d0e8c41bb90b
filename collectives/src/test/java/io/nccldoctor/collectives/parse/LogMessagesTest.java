package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written message readers against the regular expressions they replace, on real lines and random ones. */
class LogMessagesTest {

    private static final Pattern VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)");
    private static final Pattern COMM = Pattern.compile("nranks (\\d+) .*Init COMPLETE");
    private static final Pattern GDR = Pattern.compile(
            "GPU Direct RDMA (Disabled|Enabled) for GPU (\\S+) / HCA (\\S+) \\(distance (\\d+) ([<>]=?) (\\d+)\\)");
    private static final Pattern GDR_229 = Pattern.compile("GPU Direct RDMA (Disabled|Enabled) for GPU/(\\S+) \\(rank \\d+\\) - "
            + "NET/(\\S+) \\((?: using PXN via GPU/\\S+, )?distance (\\d+) ([<>]=?) (\\d+)[,)]");
    private static final Pattern TUNING = Pattern.compile("(?:(\\w+): )?(\\d+) Bytes -> Algo (\\w+) proto (\\w+)");
    private static final Pattern NIC_GDR = Pattern.compile(
            "NET/(\\S+) : GPU Direct RDMA (Enabled|Disabled) for HCA (\\d+) '([^']*)'( \\(no module\\))?");
    private static final Pattern NET = Pattern.compile("NCCL INFO (NET/\\S+ : Using .*|Using network \\S+.*|NET/Plugin.*)$");

    @Test
    void realLines() {
        assertThat(LogMessages.version("node01:12345:12345 [0] NCCL INFO NCCL version 2.27.5+cuda12.9")).contains("2.27.5");
        assertThat(LogMessages.version("NCCL version 2.18+cuda12.1")).isEmpty();
        assertThat(LogMessages.communicatorSize("h:1:2 [0] NCCL INFO comm 0x5566 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 "
                + "commId 0x1 - Init COMPLETE")).isEqualTo(OptionalInt.of(16));
        NcclLog.GdrLine g = LogMessages.gdr("h:1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)")
                .orElseThrow();
        assertThat(g.enabled()).isFalse();
        assertThat(g.gpu()).isEqualTo("18000");
        assertThat(g.hca()).isEqualTo("0");
        assertThat(g.distance()).isEqualTo(8);
        assertThat(g.threshold()).isEqualTo(5);
        assertThat(LogMessages.gdr("GPU Direct RDMA Enabled for GPU 1 / HCA 2 (distance 4 <= 5), read 1 mode Default").orElseThrow()
                .relation()).isEqualTo("<=");
        NcclLog.GdrLine since229 = LogMessages.gdr("h:1:2 [0] NCCL INFO GPU Direct RDMA Enabled for GPU/0-110592 (rank 3) - NET/0-0 "
                + "( using PXN via GPU/0-118784, distance 5 <= 6, read 1, mode Default)").orElseThrow();
        assertThat(since229.gpu()).isEqualTo("0-110592");
        assertThat(since229.hca()).isEqualTo("0-0");
        assertThat(since229.distance()).isEqualTo(5);
        assertThat(since229.threshold()).isEqualTo(6);
        NcclLog.NicGdr nic = LogMessages.nicGdr("h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_1' (no module)")
                .orElseThrow();
        assertThat(nic.net()).isEqualTo("IB");
        assertThat(nic.index()).isEqualTo(1);
        assertThat(nic.hca()).isEqualTo("mlx5_1");
        assertThat(nic.enabled()).isFalse();
        assertThat(nic.noModule()).isTrue();
        assertThat(LogMessages.nicGdr("NET/IBext_v8 : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'").orElseThrow().noModule()).isFalse();
        assertThat(LogMessages.network("h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>"))
                .contains("NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>");
        assertThat(LogMessages.network("h:1:2 [0] NCCL INFO Using network IB")).contains("Using network IB");
        assertThat(LogMessages.network("h:1:2 [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)"))
                .contains("NET/Plugin: No plugin found (libnccl-net.so)");
        assertThat(LogMessages.communicatorSize("nranks 99999999999 x Init COMPLETE")).as("too big for an int: no match, no exception")
                .isEmpty();
    }

    @Test
    void tuningLinesOfBothGenerations() {
        NcclLog.Tuning named = LogMessages.tuning("h:1:2 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE "
                + "channel{Lo..Hi}={0..3}").orElseThrow();
        assertThat(named.collective().get()).isEqualTo("AllReduce");
        assertThat(named.bytes()).isEqualTo(1048576);
        assertThat(named.algorithm() + "/" + named.protocol()).isEqualTo("RING/SIMPLE");
        NcclLog.Tuning numbered = LogMessages.tuning("h:1:2 [0] NCCL INFO 4096 Bytes -> Algo 0 proto 1 time 12.5").orElseThrow();
        assertThat(numbered.collective().isValue()).isFalse();
        assertThat(numbered.algorithm() + "/" + numbered.protocol()).as("the enums' numbers named").isEqualTo("TREE/LL128");
    }

    @Test
    void processFromTheLinePrefixWhereverALauncherPutIt() {
        String[][] cases = {
            {"node01:4242:4300 [0] NCCL INFO x", "node01:4242"},
            {"[1,0]<stdout>:node01:4242:4300 [7] NCCL INFO x", "node01:4242"},
            {"0: node01:4242:4300 [0] NCCL INFO x", "node01:4242"},
            {"(RayWorkerWrapper pid=660) deepseek-v2-5-0:660:660 [6] NCCL INFO x", "deepseek-v2-5-0:660"},
            {"2024-05-01T10:00:00 gpu-a:1:2 [0] NCCL INFO x", "gpu-a:1"},
            {"NCCL INFO x", ""}, {"x NCCL INFO x", ""}, {"node01:4242 [0] NCCL INFO x", ""}, {":4242:4300 [0] NCCL INFO x", ""},
            {"a::4300 [0] NCCL INFO x", ""}, {"a:b:c[0] NCCL INFO x", ""}, {"a:1:2 [0]NCCL INFO x", ""}, {"a:1: [0] NCCL INFO x", ""}};
        for (String[] c : cases) {
            int nccl = c[0].indexOf("NCCL ");
            assertThat(LogMessages.process(c[0], nccl).orElse("")).as("process of [%s]", c[0]).isEqualTo(c[1]);
        }
    }

    /** What the reader names an enum's number: the i-th name for "i", "algorithm i" past them, the text itself otherwise. */
    private static String named(String printed, String... names) {
        if (!printed.chars().allMatch(Character::isDigit) || printed.chars().anyMatch(c -> c > '9')) {
            return printed;
        }
        int n = Integer.parseInt(printed.length() > 9 ? "99" : printed);
        return n < names.length && printed.length() == 1 ? names[n] : names.length == 2 ? "algorithm " + printed : printed;
    }

    /**
     * Valid lines of each kind cut into tokens, then mutated (a token replaced, dropped or doubled, a piece inserted)
     * with the pieces where the readers could go wrong: the literal heads cut short, digits and dots, every kind of white
     * space, the line terminators that stop '.' (\r, \u0085, \u2028) and "\r\n" at the end.
     */
    @Test
    void agreeWithTheRegularExpressionsOnRandomLines() {
        String[][] templates = {
            {"h:1:1 [0] ", "NCCL INFO ", "NCCL version ", "2", ".", "27", ".", "5", "+cuda12.9"},
            {"h:1:2 [0] ", "NCCL INFO ", "comm 0x1 rank 0 ", "nranks ", "16", " ", "cudaDev 0 ", "- ", "Init COMPLETE"},
            {"h:1:2 [0] ", "NCCL INFO ", "GPU Direct RDMA ", "Disabled", " for GPU ", "18000", " / HCA ", "0", " (distance ", "8", " > ",
                "5", ")"},
            {"h:1:2 [0] ", "NCCL INFO ", "NET/", "IB", " : Using ", "[0]mlx5_0:1/RoCE", " ; OOB eth0"},
            {"h:1:2 [0] ", "NCCL INFO ", "Using network ", "IB"},
            {"h:1:2 [0] ", "NCCL INFO ", "NET/Plugin", ": No plugin found"},
            {"h:1:2 [0] ", "NCCL INFO ", "GPU Direct RDMA ", "Enabled", " for GPU/", "0-110592", " (rank ", "3", ") - NET/", "0-1", " (",
                " using PXN via GPU/", "0-118784,", " ", "distance ", "5", " <= ", "6", ", read 1, mode Default)"},
            {"h:1:2 [0] ", "NCCL INFO ", "NET/", "IB", " : GPU Direct RDMA ", "Disabled", " for HCA ", "0", " '", "mlx5_0", "'",
                " (no module)"},
            {"h:1:2 [0] ", "NCCL INFO ", "AllReduce", ": ", "1048576", " Bytes -> Algo ", "RING", " proto ", "SIMPLE", " channel{Lo..Hi}={0..3}"},
            {"h:1:2 [0] ", "NCCL INFO ", "4096", " Bytes -> Algo ", "1", " proto ", "2", " time 12.5"}};
        String[] pieces = {"NCCL version ", "NCCL version", "2", "27", ".", "5", "nranks ", "nranks", "16", " ", "Init COMPLETE",
            "Init COMPLET", "GPU Direct RDMA ", "Disabled", "Enabled", " for GPU ", " / HCA ", "mlx5_0", " (distance ", " >= ",
            " <= ", " < ", ">", "=", ")", "(", "NCCL INFO ", "NCCL INFO", "NET/", " : Using ", "Using network ", "NET/Plugin", "\t",
            "\r", "\n", "\u0085", "\u2028", "\u000B", "x", "\r\n", "é", "99999", ",", " (", "GPU/", " (rank ", ") - NET/",
            " using PXN via GPU/", "distance ", " : GPU Direct RDMA ", " for HCA ", "'", " (no module)", ": ", " Bytes -> Algo ",
            " proto ", "_", "ALL-"};
        Random random = new Random(7);
        int[] matched = new int[7];
        for (int round = 0; round < 100_000; round++) {
            java.util.List<String> tokens = new java.util.ArrayList<>(java.util.List.of(templates[random.nextInt(templates.length)]));
            for (int m = random.nextInt(4); m > 0; m--) {
                int at = random.nextInt(tokens.size());
                switch (random.nextInt(4)) {
                    case 0 -> tokens.set(at, pieces[random.nextInt(pieces.length)]);
                    case 1 -> tokens.remove(at);
                    case 2 -> tokens.add(at, tokens.get(at));
                    default -> tokens.add(at, pieces[random.nextInt(pieces.length)]);
                }
                if (tokens.isEmpty()) {
                    break;
                }
            }
            String line = String.join("", tokens);
            Matcher v = VERSION.matcher(line);
            boolean version = v.find();
            assertThat(LogMessages.version(line)).as("version of [%s]", line).isEqualTo(version ? Optional.of(v.group(1)) : Optional.empty());
            Matcher c = COMM.matcher(line);
            boolean comm = c.find();
            assertThat(LogMessages.communicatorSize(line)).as("nranks of [%s]", line)
                    .isEqualTo(comm ? OptionalInt.of(Integer.parseInt(c.group(1))) : OptionalInt.empty());
            Matcher g = GDR.matcher(line);
            boolean classic = g.find();
            boolean gdr = classic || (g = GDR_229.matcher(line)).find();
            Optional<NcclLog.GdrLine> expected = gdr
                    ? Optional.of(new NcclLog.GdrLine(g.group(1).equals("Enabled"), g.group(2), g.group(3), Integer.parseInt(g.group(4)),
                            g.group(5), Integer.parseInt(g.group(6)), line))
                    : Optional.empty();
            assertThat(LogMessages.gdr(line)).as("GDR decision of [%s]", line).isEqualTo(expected);
            Matcher h = NIC_GDR.matcher(line);
            boolean nic = h.find();
            assertThat(LogMessages.nicGdr(line)).as("NIC GDR support of [%s]", line).isEqualTo(nic
                    ? Optional.of(new NcclLog.NicGdr(h.group(1), Integer.parseInt(h.group(3)), h.group(4), h.group(2).equals("Enabled"),
                            h.group(5) != null, line))
                    : Optional.empty());
            Matcher n = NET.matcher(line);
            boolean net = n.find();
            assertThat(LogMessages.network(line)).as("network of [%s]", line).isEqualTo(net ? Optional.of(n.group(1)) : Optional.empty());
            matched[0] += version ? 1 : 0;
            matched[1] += comm ? 1 : 0;
            matched[2] += gdr ? 1 : 0;
            matched[3] += net ? 1 : 0;
            matched[4] += nic ? 1 : 0;
            matched[5] += gdr && !classic ? 1 : 0;
            Matcher tu = TUNING.matcher(line);
            boolean tuning = tu.find() && tu.group(2).length() <= 18; // a size past a long is no match (the class comment says so)
            Optional<String> tuned = LogMessages.tuning(line).map(t -> t.collective().orElse("-") + " " + t.bytes() + " " + t.algorithm()
                    + " " + t.protocol());
            assertThat(tuned).as("tuning of [%s]", line).isEqualTo(tuning ? Optional.of((tu.group(1) == null ? "-" : tu.group(1)) + " "
                    + Long.parseLong(tu.group(2)) + " " + named(tu.group(3), "TREE", "RING") + " " + named(tu.group(4), "LL", "LL128", "SIMPLE")) : Optional.empty());
            matched[6] += tuning ? 1 : 0;
        }
        assertThat(java.util.Arrays.stream(matched).boxed().toList()).as("each kind must match often and fail often, or the comparison proves little (version, nranks, "
                + "GDR, network, NIC GDR, GDR of 2.29, tuning): " + java.util.Arrays.toString(matched)).allSatisfy(k -> assertThat(k).isBetween(3_000, 50_000));
    }
}
