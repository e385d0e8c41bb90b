package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.Fact;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Readers for the NCCL messages that every initialisation prints (the version, the network, the GPUDirect RDMA
 * decisions, the communicator sizes), written out by hand instead of as regular expressions: a log holds thousands of
 * them, and a matcher that hot is compiled by the JIT into a method that costs more CPU to compile than the scan of a
 * gigabyte of per-operation lines. Each reader returns exactly what {@code find()} of the expression in its comment
 * returns (LogMessagesTest holds the expressions and checks the readers against them on random lines), except that a
 * number too big for an int is no match instead of an exception.
 */
final class LogMessages {

    private LogMessages() {
    }

    /**
     * {@code NCCL version (\d+\.\d+\.\d+)}, group 1: "2.27.5" from "NCCL version 2.27.5+cuda12.9"; RCCL's own line,
     * "RCCL version : 2.27.7-HEAD:0d2c4fd" (or without the colon), gives "RCCL 2.27.7": RCCL is a fork whose releases
     * reuse NCCL's numbers, and its version is kept apart so that nothing reads it as NCCL's (its path numbering above all).
     */
    static Optional<String> version(String line) {
        Optional<String> nccl = dotted(line, "NCCL version ");
        if (nccl.isPresent()) {
            return nccl;
        }
        Optional<String> rccl = dotted(line, "RCCL version : ");
        return (rccl.isPresent() ? rccl : dotted(line, "RCCL version ")).map(v -> "RCCL " + v);
    }

    /** The first "major.minor.patch" right after {@code head} in the line. */
    private static Optional<String> dotted(String line, String head) {
        for (int at = line.indexOf(head); at >= 0; at = line.indexOf(head, at + 1)) {
            int major = at + head.length();
            int minor = digits(line, major) + 1;
            if (minor - 1 == major || !line.startsWith(".", minor - 1)) {
                continue;
            }
            int patch = digits(line, minor) + 1;
            if (patch - 1 == minor || !line.startsWith(".", patch - 1)) {
                continue;
            }
            int end = digits(line, patch);
            if (end > patch) {
                return Optional.of(line.substring(major, end));
            }
        }
        return Optional.empty();
    }

    /** {@code nranks (\d+) .*Init COMPLETE}, group 1: the communicator's size. */
    static OptionalInt communicatorSize(String line) {
        for (int at = line.indexOf("nranks "); at >= 0; at = line.indexOf("nranks ", at + 1)) {
            int from = at + "nranks ".length();
            int to = digits(line, from);
            if (to == from || !line.startsWith(" ", to)) {
                continue;
            }
            int complete = line.indexOf("Init COMPLETE", to + 1);
            if (complete < 0) {
                return OptionalInt.empty(); // nor after any later "nranks "
            }
            if (terminator(line, to + 1, complete) < complete) {
                continue; // '.' stops at a line terminator
            }
            return number(line, from, to).map(OptionalInt::of).orElseGet(OptionalInt::empty);
        }
        return OptionalInt.empty();
    }

    /**
     * A GPUDirect RDMA decision for one GPU and NIC, with the line as given: the form of NCCL 2.4 to 2.28, {@code GPU
     * Direct RDMA (Disabled|Enabled) for GPU (\S+) / HCA (\S+) \(distance (\d+) ([<>]=?) (\d+)\)}, or else that of 2.29,
     * {@code GPU Direct RDMA (Disabled|Enabled) for GPU/(\S+) \(rank \d+\) - NET/(\S+) \((?: using PXN via GPU/\S+, )?distance
     * (\d+) ([<>]=?) (\d+)[,)]} (reference/nccl-internals.md §4.4).
     */
    static Optional<NcclLog.GdrLine> gdr(String line) {
        Optional<NcclLog.GdrLine> classic = gdrDecision(line, false);
        return classic.isPresent() ? classic : gdrDecision(line, true);
    }

    private static Optional<NcclLog.GdrLine> gdrDecision(String line, boolean since229) {
        String head = "GPU Direct RDMA ";
        for (int at = line.indexOf(head); at >= 0; at = line.indexOf(head, at + 1)) {
            int p = at + head.length();
            boolean enabled = line.startsWith("Enabled", p);
            if (!enabled && !line.startsWith("Disabled", p)) {
                continue;
            }
            p += enabled ? "Enabled".length() : "Disabled".length();
            String gpuHead = since229 ? " for GPU/" : " for GPU ";
            String gpuTail = since229 ? " (rank " : " / HCA ";
            if (!line.startsWith(gpuHead, p)) {
                continue;
            }
            int gpu = p + gpuHead.length();
            int gpuEnd = nonSpace(line, gpu);
            if (gpuEnd == gpu || !line.startsWith(gpuTail, gpuEnd)) {
                continue;
            }
            int hca = gpuEnd + gpuTail.length();
            if (since229) { // "(rank 3) - NET/"
                int rankEnd = digits(line, hca);
                if (rankEnd == hca || !line.startsWith(") - NET/", rankEnd)) {
                    continue;
                }
                hca = rankEnd + ") - NET/".length();
            }
            int hcaEnd = nonSpace(line, hca);
            if (hcaEnd == hca) {
                continue;
            }
            int distance = since229 ? afterPxn(line, hcaEnd) : line.startsWith(" (distance ", hcaEnd) ? hcaEnd + " (distance ".length() : -1;
            if (distance < 0) {
                continue;
            }
            int distanceEnd = digits(line, distance);
            if (distanceEnd == distance || !line.startsWith(" ", distanceEnd)
                    || !(line.startsWith("<", distanceEnd + 1) || line.startsWith(">", distanceEnd + 1))) {
                continue;
            }
            int q = distanceEnd + 2;
            q += line.startsWith("=", q) ? 1 : 0;
            if (!line.startsWith(" ", q)) {
                continue;
            }
            int threshold = q + 1;
            int thresholdEnd = digits(line, threshold);
            if (thresholdEnd == threshold || !(line.startsWith(")", thresholdEnd) || since229 && line.startsWith(",", thresholdEnd))) {
                continue;
            }
            Optional<Integer> d = number(line, distance, distanceEnd);
            Optional<Integer> t = number(line, threshold, thresholdEnd);
            if (d.isEmpty() || t.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new NcclLog.GdrLine(enabled, line.substring(gpu, gpuEnd), line.substring(hca, hcaEnd), d.get(),
                    line.substring(distanceEnd + 1, q), t.get(), line));
        }
        return Optional.empty();
    }

    /**
     * Where "distance" starts after a 2.29 NIC name: " (distance …", or " ( using PXN via GPU/…, distance …" (the
     * optional group first, as the expression tries it); -1 when neither follows.
     */
    private static int afterPxn(String line, int at) {
        if (!line.startsWith(" (", at)) {
            return -1;
        }
        int p = at + 2;
        String pxn = " using PXN via GPU/";
        if (line.startsWith(pxn, p)) {
            int id = p + pxn.length();
            int run = nonSpace(line, id); // "\S+, ": the run must end in the comma, and hold more than it
            if (run - 1 > id && line.charAt(run - 1) == ',' && line.startsWith(" distance ", run)) {
                return run + " distance ".length();
            }
        }
        return line.startsWith("distance ", p) ? p + "distance ".length() : -1;
    }

    /**
     * {@code NET/(\S+) : GPU Direct RDMA (Enabled|Disabled) for HCA (\d+) '([^']*)'( \(no module\))?}: whether a NIC can
     * reach GPU memory at all, printed once per NIC since 2.18 (before, with " (no module)" when nvidia-peermem was not
     * loaded). Disabled: neither nvidia-peermem nor DMA-BUF is usable, and no channel of that NIC can be GDRDMA.
     */
    static Optional<NcclLog.NicGdr> nicGdr(String line) {
        for (int at = line.indexOf("NET/"); at >= 0; at = line.indexOf("NET/", at + 1)) {
            int name = at + "NET/".length();
            int nameEnd = nonSpace(line, name);
            String head = " : GPU Direct RDMA ";
            if (nameEnd == name || !line.startsWith(head, nameEnd)) {
                continue;
            }
            int p = nameEnd + head.length();
            boolean enabled = line.startsWith("Enabled", p);
            if (!enabled && !line.startsWith("Disabled", p)) {
                continue;
            }
            p += enabled ? "Enabled".length() : "Disabled".length();
            if (!line.startsWith(" for HCA ", p)) {
                continue;
            }
            int index = p + " for HCA ".length();
            int indexEnd = digits(line, index);
            if (indexEnd == index || !line.startsWith(" '", indexEnd)) {
                continue;
            }
            int hca = indexEnd + 2;
            int hcaEnd = line.indexOf('\'', hca);
            Optional<Integer> n = number(line, index, indexEnd);
            if (hcaEnd < 0 || n.isEmpty()) {
                continue;
            }
            return Optional.of(new NcclLog.NicGdr(line.substring(name, nameEnd), n.get(), line.substring(hca, hcaEnd), enabled,
                    line.startsWith(" (no module)", hcaEnd + 1), line));
        }
        return Optional.empty();
    }

    /**
     * {@code NCCL INFO (NET/\S+ : Using .*|Using network \S+.*|NET/Plugin.*)$}, group 1: what NCCL says of its
     * network, from "NET/IB : Using [0]mlx5_0:1/RoCE …", "Using network IB" or "NET/Plugin : …" to the line's end.
     */
    static Optional<String> network(String line) {
        for (int at = line.indexOf("NCCL INFO "); at >= 0; at = line.indexOf("NCCL INFO ", at + 1)) {
            int p = at + "NCCL INFO ".length();
            int rest = -1; // where the trailing ".*" starts
            if (line.startsWith("NET/", p)) {
                int name = nonSpace(line, p + 4);
                if (name > p + 4 && line.startsWith(" : Using ", name)) {
                    rest = name + " : Using ".length();
                } else if (line.startsWith("NET/Plugin", p)) {
                    rest = p + "NET/Plugin".length();
                }
            } else if (line.startsWith("Using network ", p)) {
                int name = p + "Using network ".length();
                int nameEnd = nonSpace(line, name); // "\S+.*": the greedy \S+ first, and a shorter one never does better
                rest = nameEnd > name ? nameEnd : -1;
            }
            if (rest < 0) {
                continue;
            }
            int end = terminator(line, rest, line.length());
            if (atEnd(line, end)) {
                return Optional.of(line.substring(p, end));
            }
        }
        return Optional.empty();
    }

    /**
     * "node01:4242" from "node01:4242:4300 [0] NCCL INFO …": the host and pid of NCCL's prefix (host:pid:tid
     * [cudaDev]), wherever a launcher's own prefix put it ("[1,0]<stdout>:node01:…", "0: node01:…",
     * "(RayWorkerWrapper pid=…) node01:…"); empty when the text before {@code nccl} does not end that way.
     */
    static Optional<String> process(String line, int nccl) {
        return span(line, nccl, false);
    }

    /**
     * Where a WARN line's source location starts ("node01:4242:4300 [0] transport/net_ib.cc:1296 NCCL WARN …": NCCL
     * prints file:line between its prefix and "NCCL WARN", src/debug.cc), so that {@link #process} finds the prefix before
     * it; {@code nccl} itself when no such location ends right before it.
     */
    static int beforeSourceLocation(String line, int nccl) {
        if (nccl < 4 || line.charAt(nccl - 1) != ' ') {
            return nccl;
        }
        int start = line.lastIndexOf(' ', nccl - 2) + 1;
        int colon = line.lastIndexOf(':', nccl - 2);
        if (colon <= start || colon + 1 >= nccl - 1 || digits(line, colon + 1) != nccl - 1) {
            return nccl;
        }
        return start >= 2 && line.charAt(start - 2) == ']' ? start : nccl;
    }

    /**
     * The thread of the same prefix, "node01:4242:4300": a process that initialises several GPUs (nccl-tests -g 8,
     * ncclCommInitAll) does so in one thread each, whose topology dumps interleave in its output.
     */
    static Optional<String> thread(String line, int nccl) {
        return span(line, nccl, true);
    }

    private static Optional<String> span(String line, int nccl, boolean withThread) {
        if (nccl < 8 || line.charAt(nccl - 1) != ' ' || line.charAt(nccl - 2) != ']') {
            return Optional.empty();
        }
        int open = line.lastIndexOf('[', nccl - 3);
        if (open < 6 || line.charAt(open - 1) != ' ') {
            return Optional.empty();
        }
        int start = line.lastIndexOf(' ', open - 2) + 1; // host:pid:tid is [start, open - 1)
        int tid = line.lastIndexOf(':', open - 2);
        int pid = tid > start ? line.lastIndexOf(':', tid - 1) : -1;
        if (pid <= start || pid + 1 >= tid || tid + 1 >= open - 1) {
            return Optional.empty();
        }
        int host = Math.max(start, line.lastIndexOf(':', pid - 1) + 1);
        return host < pid ? Optional.of(line.substring(host, withThread ? open - 1 : tid)) : Optional.empty();
    }

    /**
     * {@code (?:(\w+): )?(\d+) Bytes -> Algo (\w+) proto (\w+)}: NCCL's choice for one collective call, "AllReduce: 1048576
     * Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}" (NCCL_DEBUG_SUBSYS=TUNING, rank 0), or the older "1048576
     * Bytes -> Algo 1 proto 2 time 33.4" without the collective and with the numbers of NCCL's enums.
     */
    static Optional<NcclLog.Tuning> tuning(String line) {
        String arrow = " Bytes -> Algo ";
        for (int at = line.indexOf(arrow); at >= 0; at = line.indexOf(arrow, at + 1)) {
            int digits = at;
            while (digits > 0 && isDigit(line.charAt(digits - 1))) {
                digits--;
            }
            int algo = at + arrow.length();
            int algoEnd = word(line, algo);
            if (digits == at || at - digits > 18 || algoEnd == algo || !line.startsWith(" proto ", algoEnd)) {
                continue;
            }
            int proto = algoEnd + " proto ".length();
            int protoEnd = word(line, proto);
            if (protoEnd == proto) {
                continue;
            }
            int name = digits - 2;
            while (name > 0 && isWord(line.charAt(name - 1))) {
                name--;
            }
            Fact<String> collective = digits >= 3 && line.startsWith(": ", digits - 2) && name < digits - 2
                    ? Fact.of(line.substring(name, digits - 2))
                    : Fact.absent("not on the line (NCCL before 2.19 names no collective)");
            return Optional.of(new NcclLog.Tuning(collective, Long.parseLong(line.substring(digits, at)),
                    algorithm(line.substring(algo, algoEnd)), protocol(line.substring(proto, protoEnd)), 1));
        }
        return Optional.empty();
    }

    /**
     * The labels of the rows of NCCL's tuning model table, which rank 0 prints with NCCL_DEBUG_SUBSYS=TUNING (src/graph/
     * tuning.cc ncclTopoTuneModel, 2.12 to 2.30): "  Algorithm   |" and "  Protocol    |" (2.18 and later, a block per
     * three algorithms) or "Latency/AlgBw |" (before), " Max NThreads |", then a row per collective, "%13s |" of
     * ncclFuncStr (init.cc: Broadcast, Reduce, AllGather, ReduceScatter, AllReduce) with each algorithm and protocol's
     * latency/bandwidth ("%8.1f/%6.1f |").
     */
    private static final Set<String> TUNING_TABLE = Set.of("Algorithm", "Protocol", "Latency/AlgBw", "Max NThreads", "Broadcast",
            "Reduce", "AllGather", "ReduceScatter", "AllReduce");

    /**
     * A row of that table at {@code msg}: a label of thirteen characters, right-aligned (the first two left-aligned),
     * then " |". Its numbers are NCCL's model, not what it chose: the row is known and passed over.
     */
    static boolean tuningTableRow(String line, int msg) {
        return line.length() > msg + 14 && line.startsWith(" |", msg + 13) && TUNING_TABLE.contains(line.substring(msg, msg + 13).strip());
    }

    /** NCCL_ALGO_* as a name: the older tuning line prints the enum's number (0 TREE, 1 RING; the rest changed over time). */
    private static String algorithm(String printed) {
        return switch (printed) {
            case "0" -> "TREE";
            case "1" -> "RING";
            default -> printed.chars().allMatch(LogMessages::isDigit) ? "algorithm " + printed : printed;
        };
    }

    /** NCCL_PROTO_*: 0 LL, 1 LL128, 2 SIMPLE in every version. */
    private static String protocol(String printed) {
        return switch (printed) {
            case "0" -> "LL";
            case "1" -> "LL128";
            case "2" -> "SIMPLE";
            default -> printed;
        };
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    /** {@code \w}: ASCII letters, digits and '_'. */
    private static boolean isWord(int c) {
        return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    /** The end of the {@code \w} characters that start at {@code from}. */
    private static int word(String line, int from) {
        int k = from;
        while (k < line.length() && isWord(line.charAt(k))) {
            k++;
        }
        return k;
    }

    /** Where {@code $} matches without MULTILINE: the end, or before a line terminator that ends the input. */
    private static boolean atEnd(String line, int at) {
        int n = line.length();
        return at == n || at == n - 1 && terminator(line.charAt(at)) || at == n - 2 && line.startsWith("\r\n", at);
    }

    /** The first line terminator (what '.' does not match) in [from, to), or {@code to}. */
    private static int terminator(String line, int from, int to) {
        for (int k = from; k < to; k++) {
            if (terminator(line.charAt(k))) {
                return k;
            }
        }
        return to;
    }

    private static boolean terminator(char c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    /** The end of the ASCII digits ({@code \d}) that start at {@code from}. */
    private static int digits(String line, int from) {
        int k = from;
        while (k < line.length() && line.charAt(k) >= '0' && line.charAt(k) <= '9') {
            k++;
        }
        return k;
    }

    /** The end of the characters that are not {@code \s} (space, tab, newline, vertical tab, form feed, return). */
    private static int nonSpace(String line, int from) {
        int k = from;
        while (k < line.length() && " \t\n\u000B\f\r".indexOf(line.charAt(k)) < 0) {
            k++;
        }
        return k;
    }

    /** The digits in [from, to) as an int; empty when they do not fit. */
    private static Optional<Integer> number(String line, int from, int to) {
        long v = 0;
        for (int k = from; k < to; k++) {
            v = v * 10 + (line.charAt(k) - '0');
            if (v > Integer.MAX_VALUE) {
                return Optional.empty();
            }
        }
        return Optional.of((int) v);
    }
}
