package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Node names as Slurm writes them: "gpu01", "gpu[01-04,07]", "a[1-2]b[3-4]" (every bracket expanded, in order), and
 * comma-separated lists of these ("gpu01,gpu02" or "gpu[01-02],cpu1"), as `scontrol show hostnames` expands them.
 * Zero padding follows the lower bound's width, as Slurm does.
 */
public final class Hostlist {

    private static final Pattern BRACKET = Pattern.compile("\\[([^\\]]*)\\]");
    private static final Pattern RANGE = Pattern.compile("(\\d+)(?:-(\\d+))?");
    static final int MAX_NODES = 100_000;

    private Hostlist() {
    }

    /** Every word expanded, duplicates refused (a node twice is a typo, and a pair of a node with itself is no pair). */
    public static List<String> expand(List<String> words) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : words) {
            for (String part : splitTop(w.strip())) {
                for (String host : expandOne(part)) {
                    if (!out.add(host)) {
                        throw new InputException("node " + host + " is given twice (in '" + w + "'); give each node once");
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /** Splits at commas outside brackets: "a[1,2],b" → "a[1,2]", "b". */
    private static List<String> splitTop(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
            if (depth < 0 || depth > 1) {
                throw new InputException("'" + s + "': unbalanced or nested brackets; write a Slurm hostlist such as gpu[01-04]");
            }
        }
        if (depth != 0) {
            throw new InputException("'" + s + "': a '[' without its ']'; write a Slurm hostlist such as gpu[01-04]");
        }
        parts.add(s.substring(start));
        return parts.stream().map(String::strip).filter(p -> !p.isEmpty()).toList();
    }

    private static List<String> expandOne(String word) {
        Matcher m = BRACKET.matcher(word);
        if (!m.find()) {
            if (!word.matches("[A-Za-z0-9._-]+")) {
                throw new InputException("'" + word + "' is not a host name (letters, digits, '.', '_', '-')");
            }
            return List.of(word);
        }
        String head = word.substring(0, m.start());
        String tail = word.substring(m.end());
        List<String> rests = tail.isEmpty() ? List.of("") : expandOne(tail);
        List<String> out = new ArrayList<>();
        for (String number : numbers(m.group(1), word)) {
            for (String rest : rests) {
                out.add(head + number + rest);
                if (out.size() > MAX_NODES) {
                    throw new InputException("'" + word + "' names more than " + MAX_NODES + " nodes");
                }
            }
        }
        return out;
    }

    private static List<String> numbers(String inside, String word) {
        List<String> out = new ArrayList<>();
        for (String item : inside.split(",")) {
            Matcher r = RANGE.matcher(item.strip());
            if (!r.matches()) {
                throw new InputException("'" + word + "': '" + item + "' in brackets is neither a number nor a range lo-hi");
            }
            String lo = r.group(1);
            String hi = r.group(2) == null ? lo : r.group(2);
            if (lo.length() > 9 || hi.length() > 9) {
                throw new InputException("'" + word + "': numbers of more than 9 digits");
            }
            long a = Long.parseLong(lo);
            long b = Long.parseLong(hi);
            if (b < a || b - a > MAX_NODES) {
                throw new InputException("'" + word + "': range " + item + " runs backwards or names more than " + MAX_NODES + " nodes");
            }
            for (long n = a; n <= b; n++) {
                out.add(String.format(Locale.ROOT, "%0" + lo.length() + "d", n));
            }
        }
        return out;
    }
}
