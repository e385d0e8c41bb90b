package io.nccldoctor.reports.tune;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's example tuner reading its configuration, rule for rule, to read back what `tune` writes as NCCL would: a
 * port of loadConfig, countConfigLines, parseCollType, parseAlgorithm and parseProtocol of NVIDIA/nccl
 * plugins/tuner/example/plugin.c at commit 5067397c2676d5aed50042fc39e5c8ee96eb0027 (master after v2.29.7-1; the
 * reader is the same since ext-tuner/example/plugin.c of v2.27.5-1, the first release with the CSV reader).
 *
 * <ul>
 * <li>fgets(line, MAX_LINE_LENGTH = 256): at most 255 bytes at a time, so a longer line is read as several;</li>
 * <li>a line whose first byte is '#' or '\n' is skipped; anything else non-empty after cutting the '\n' counts;</li>
 * <li>strtok(line, ","): empty fields vanish; each token loses leading and trailing blanks and tabs;</li>
 * <li>8, 9 or 10 tokens make a row (the loop stops at 10, so an 11th field is dropped unseen); fewer, none;</li>
 * <li>an unknown collective is allreduce, an unknown algorithm ring, an unknown protocol simple (strcmp, lower case);</li>
 * <li>min and max bytes through strtoull, the rest through atoi: digits up to the first other character.</li>
 * </ul>
 */
final class ExampleTunerConfig {

    /**
     * One row as the plugin holds it, with whether each name was one it knows (false: it silently took its default).
     */
    record Row(String collType, long minBytes, long maxBytes, String algorithm, String protocol, int channels, int nNodes, int nRanks,
               int numPipeOps, int regBuff, boolean knownNames) {
    }

    static final int MAX_LINE_LENGTH = 256;

    private ExampleTunerConfig() {
    }

    static List<Row> read(String file) {
        List<String> lines = fgets(file.getBytes(StandardCharsets.UTF_8));
        int count = 0; // countConfigLines
        for (String l : lines) {
            if (!(l.startsWith("#") || l.startsWith("\n")) && !cut(l).isEmpty()) {
                count++;
            }
        }
        List<Row> out = new ArrayList<>();
        for (String l : lines) {
            if (out.size() >= count) {
                break;
            }
            if (l.startsWith("#") || l.startsWith("\n")) {
                continue;
            }
            List<String> tokens = new ArrayList<>();
            for (String t : cut(l).split(",")) {
                if (!t.isEmpty() && tokens.size() < 10) {
                    tokens.add(trim(t));
                }
            }
            if (tokens.size() >= 8) {
                out.add(row(tokens));
            }
        }
        return out;
    }

    /** The lines fgets returns: up to and including '\n', or 255 bytes, whichever comes first. */
    static List<String> fgets(byte[] bytes) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n' || i - start + 1 == MAX_LINE_LENGTH - 1) {
                out.add(new String(bytes, start, i - start + 1, StandardCharsets.ISO_8859_1));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            out.add(new String(bytes, start, bytes.length - start, StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static String cut(String line) {
        int nl = line.indexOf('\n');
        return nl < 0 ? line : line.substring(0, nl);
    }

    private static String trim(String t) {
        int a = 0;
        int b = t.length();
        while (a < b && (t.charAt(a) == ' ' || t.charAt(a) == '\t')) {
            a++;
        }
        while (b - 1 > a && (t.charAt(b - 1) == ' ' || t.charAt(b - 1) == '\t')) {
            b--;
        }
        return t.substring(a, b);
    }

    private static Row row(List<String> t) {
        List<String> colls = List.of("broadcast", "reduce", "allgather", "reducescatter", "allreduce");
        List<String> algos = List.of("tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat");
        List<String> protos = List.of("ll", "ll128", "simple");
        boolean known = colls.contains(t.get(0)) && algos.contains(t.get(3)) && protos.contains(t.get(4));
        return new Row(colls.contains(t.get(0)) ? t.get(0) : "allreduce", strtoull(t.get(1)), strtoull(t.get(2)),
                algos.contains(t.get(3)) ? t.get(3) : "ring", protos.contains(t.get(4)) ? t.get(4) : "simple", atoi(t.get(5)), atoi(t.get(6)),
                atoi(t.get(7)), t.size() >= 9 ? atoi(t.get(8)) : -1, t.size() >= 10 ? atoi(t.get(9)) : -1, known);
    }

    /** strtoull(s, NULL, 10): leading blanks, digits; a minus sign negates modulo 2^64 (kept as the long of those bits). */
    private static long strtoull(String s) {
        String d = s.stripLeading();
        boolean negative = d.startsWith("-");
        int i = negative || d.startsWith("+") ? 1 : 0;
        long v = 0;
        while (i < d.length() && Character.isDigit(d.charAt(i))) {
            v = v * 10 + (d.charAt(i++) - '0');
        }
        return negative ? -v : v;
    }

    private static int atoi(String s) {
        return (int) strtoull(s);
    }
}
