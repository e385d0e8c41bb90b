package io.nccldoctor.reports.render;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: it throws on any line the format does
 * not allow, and also on what the format tolerates but node_exporter's textfile collector or a careful writer should
 * not produce: a sample before its family's TYPE, a family whose lines are split into two groups, a series written
 * twice, and one family with two different label name sets.
 */
final class Exposition {

    record Sample(String name, Map<String, String> labels, double value, String timestamp) {
    }

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Pattern META = Pattern.compile("#[ \t]+(HELP|TYPE)[ \t]+(\\S+)(?:[ \t]+(.*))?");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    final Map<String, String> types = new LinkedHashMap<>();
    final Map<String, String> help = new LinkedHashMap<>();
    final List<Sample> samples = new ArrayList<>();
    private final Set<String> closed = new HashSet<>();
    private final Set<String> sampled = new HashSet<>();
    private final Set<String> series = new HashSet<>();
    private final Map<String, Set<String>> labelNames = new HashMap<>();
    private String current;
    private int lineNo;

    private Exposition() {
    }

    static Exposition parse(String text) {
        Exposition e = new Exposition();
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("the last line does not end with a line feed");
        }
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            e.lineNo = i + 1;
            try {
                e.line(lines[i]);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("line " + e.lineNo + ": " + ex.getMessage() + ": " + lines[i], ex);
            }
        }
        return e;
    }

    /** The value of the one sample with exactly these labels; fails when there is none. */
    double value(String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels)).findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + labels)).value();
    }

    List<Sample> samples(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    private void line(String line) {
        if (line.isEmpty()) {
            return;
        }
        if (line.startsWith("#")) {
            meta(line);
        } else {
            sample(line);
        }
    }

    private void meta(String line) {
        Matcher m = META.matcher(line);
        if (!m.matches()) {
            return; // a comment
        }
        String name = m.group(2);
        String rest = m.group(3) == null ? "" : m.group(3);
        require(NAME.matcher(name).matches(), "bad metric name '" + name + "'");
        enter(name);
        if (m.group(1).equals("HELP")) {
            require(help.put(name, unescape(rest, false)) == null, "second HELP for " + name);
        } else {
            require(TYPES.contains(rest), "unknown type '" + rest + "'");
            require(!sampled.contains(name), "TYPE after samples of " + name);
            require(types.put(name, rest) == null, "second TYPE for " + name);
        }
    }

    private void sample(String line) {
        Matcher m = NAME.matcher(line);
        require(m.lookingAt(), "no metric name");
        String name = m.group();
        int at = m.end();
        Map<String, String> labels = new TreeMap<>();
        if (at < line.length() && line.charAt(at) == '{') {
            at = labels(line, at + 1, labels);
        }
        String[] rest = line.substring(at).split("[ \t]+", -1);
        require(rest.length >= 2 && rest.length <= 3 && rest[0].isEmpty(), "want ' value [timestamp]' after the labels");
        double value = value(rest[1]);
        String timestamp = rest.length == 3 ? rest[2] : null;
        require(timestamp == null || timestamp.matches("-?\\d+"), "bad timestamp '" + timestamp + "'");
        String family = family(name);
        require(types.containsKey(family), "sample of " + family + " before its TYPE");
        enter(family);
        sampled.add(family);
        require(series.add(name + labels), "duplicate series " + name + labels);
        Set<String> names = labelNames.computeIfAbsent(family, k -> Set.copyOf(labels.keySet()));
        require(names.equals(labels.keySet()), family + " mixes label sets " + names + " and " + labels.keySet());
        samples.add(new Sample(name, Map.copyOf(labels), value, timestamp));
    }

    /** Reads name="value" pairs up to the closing brace; returns the index after it. */
    private int labels(String line, int at, Map<String, String> into) {
        while (true) {
            at = skipBlanks(line, at);
            require(at < line.length(), "unterminated label set");
            if (line.charAt(at) == '}') {
                return at + 1;
            }
            Matcher n = LABEL_NAME.matcher(line).region(at, line.length());
            require(n.lookingAt(), "bad label name at column " + (at + 1));
            String name = n.group();
            require(!name.startsWith("__"), "reserved label name " + name);
            at = skipBlanks(line, n.end());
            require(at + 1 < line.length() && line.charAt(at) == '=' && line.charAt(at + 1) == '"', "want =\" after " + name);
            int end = closingQuote(line, at + 2);
            require(into.put(name, unescape(line.substring(at + 2, end), true)) == null, "label " + name + " twice");
            at = skipBlanks(line, end + 1);
            require(at < line.length(), "unterminated label set");
            if (line.charAt(at) == ',') {
                at++;
            } else {
                require(line.charAt(at) == '}', "want , or } after the value of " + name);
            }
        }
    }

    private static int closingQuote(String line, int from) {
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        throw new IllegalArgumentException("unterminated label value");
    }

    /** Label values know \\, \" and \n; HELP text knows \\ and \n. Any other escape is an error. */
    private static String unescape(String s, boolean labelValue) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                b.append(c);
                continue;
            }
            require(i + 1 < s.length(), "a lone backslash at the end");
            char e = s.charAt(++i);
            switch (e) {
                case '\\' -> b.append('\\');
                case 'n' -> b.append('\n');
                case '"' -> {
                    require(labelValue, "\\\" is not an escape in HELP");
                    b.append('"');
                }
                default -> throw new IllegalArgumentException("unknown escape \\" + e);
            }
        }
        return b.toString();
    }

    private static double value(String s) {
        if (s.equals("NaN")) {
            return Double.NaN;
        }
        if (s.equals("+Inf") || s.equals("Inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (s.equals("-Inf")) {
            return Double.NEGATIVE_INFINITY;
        }
        require(NUMBER.matcher(s).matches(), "bad value '" + s + "'");
        return Double.parseDouble(s);
    }

    /** Histogram and summary samples belong to the family without their suffix. */
    private String family(String name) {
        for (String suffix : List.of("_bucket", "_sum", "_count")) {
            String base = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : null;
            if (base != null && Set.of("histogram", "summary").contains(types.get(base))) {
                return base;
            }
        }
        return name;
    }

    private void enter(String family) {
        if (family.equals(current)) {
            return;
        }
        require(!closed.contains(family), "family " + family + " split into two groups");
        if (current != null) {
            closed.add(current);
        }
        current = family;
    }

    private static int skipBlanks(String s, int at) {
        while (at < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }

    private static void require(boolean ok, String why) {
        if (!ok) {
            throw new IllegalArgumentException(why);
        }
    }
}
