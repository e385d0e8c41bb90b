package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.Fact;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The run parameters nccl-tests prints before its table (src/util.cu writeDeviceReport; src/common.cu before v2.17.3):
 * {@code # nThread %d nGpus %d minBytes %ld maxBytes %ld step: %ld(%s) warmup iters: %d iters: %d agg iters: %d
 * validation: %d graph: %d unalign: %d}. "agg iters" and "graph" appeared in v2.13, "unalign" in v2.18.2; nccl-tests 1.x
 * printed the line without its '#'. Forks add fields ("side_work: 0 direction: H2D"): they are kept in {@link #other()}.
 *
 * @param validation    -c: data-check iterations; 0 prints N/A in the #wrong column
 * @param graphLaunches -G: CUDA graph launches per timing, 0 when graphs are off
 * @param modes         the mode lines printed under it: "Blocking Enabled: …" (-z), "Per-Iteration Report: …" (-I),
 *                      "Parallel Init Enabled: …" (-p)
 */
public record NcclTestsParameters(Fact<Integer> threads, Fact<Integer> gpusPerThread, Fact<Long> minBytes, Fact<Long> maxBytes,
                                  Fact<Long> step, Fact<String> stepKind, Fact<Integer> warmupIters, Fact<Integer> iters,
                                  Fact<Integer> aggIters, Fact<Integer> validation, Fact<Integer> graphLaunches,
                                  Fact<Integer> unalign, Map<String, String> other, List<String> modes) {

    /** "nThread" at the start of the line, after an optional '#' that Markdown may have taken. */
    static final Pattern LINE = Pattern.compile("^#?\\s*nThread\\s+\\d");
    private static final Pattern STEP = Pattern.compile("(-?\\d+)\\((\\w+)\\)");

    /** Reads one parameters line; fields it does not hold are absent with the reason. */
    static NcclTestsParameters parse(String line, List<String> modes) {
        Map<String, String> fields = fields(line.strip().replaceFirst("^#", "").strip());
        Map<String, String> other = new LinkedHashMap<>(fields);
        List.of("nThread", "nGpus", "minBytes", "maxBytes", "step", "warmup iters", "iters", "agg iters", "validation", "graph",
                "unalign").forEach(other::remove);
        Fact<Long> step = Fact.absent("no 'step:' field");
        Fact<String> kind = step.map(String::valueOf);
        String stepText = fields.get("step");
        if (stepText != null) {
            var m = STEP.matcher(stepText);
            step = m.matches() ? count(m.group(1), "step") : Fact.error("unreadable step '" + stepText + "'");
            kind = m.matches() ? Fact.of(m.group(2)) : Fact.error("unreadable step '" + stepText + "'");
        }
        return new NcclTestsParameters(small(fields, "nThread"), small(fields, "nGpus"), big(fields, "minBytes"), big(fields, "maxBytes"),
                step, kind, small(fields, "warmup iters"), small(fields, "iters"), small(fields, "agg iters"),
                small(fields, "validation"), small(fields, "graph"), small(fields, "unalign"), other, List.copyOf(modes));
    }

    /**
     * "nThread 1 nGpus 8 … step: 2(factor) warmup iters: 5" → key → value. A key is one or more words; a key that ends
     * with ':' takes the next word as its value whatever it is, a key without one takes the next number.
     */
    static Map<String, String> fields(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> key = new ArrayList<>();
        String[] words = text.split("\\s+");
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (w.endsWith(":") && w.length() > 1) {
                key.add(w.substring(0, w.length() - 1));
                if (i + 1 < words.length) {
                    out.put(String.join(" ", key), words[++i]);
                }
                key.clear();
            } else if (!key.isEmpty() && w.matches("-?\\d.*")) {
                out.put(String.join(" ", key), w);
                key.clear();
            } else {
                key.add(w);
            }
        }
        return out;
    }

    private static Fact<Integer> small(Map<String, String> fields, String key) {
        return big(fields, key).flatMap(v -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? Fact.of((int) (long) v)
                : Fact.error("'" + key + "' " + v + " is past the range nccl-tests prints (%d)"));
    }

    private static Fact<Long> big(Map<String, String> fields, String key) {
        String v = fields.get(key);
        return v == null ? Fact.absent("the parameters line has no '" + key + "' field (an older nccl-tests, or cut)") : count(v, key);
    }

    /** A decimal integer of any length: values past the 64-bit range are an error fact, never an exception. */
    static Fact<Long> count(String text, String what) {
        if (!text.matches("-?\\d+")) {
            return Fact.error("'" + what + "' is '" + text + "', not a whole number");
        }
        BigInteger v = new BigInteger(text);
        return v.bitLength() < 64 ? Fact.of(v.longValue()) : Fact.error("'" + what + "' " + text + " is past the 64-bit range");
    }
}
