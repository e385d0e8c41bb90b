package io.nccldoctor.cli;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one table of what is coloured in a verb's terminal text: severities and verdicts, red for what fails, yellow for
 * what warns, green for what passes, cyan for information. Only {@link Terminal} applies it, and only on a terminal.
 */
final class Verdicts {

    private static final String RED = "31;1";
    private static final String YELLOW = "33;1";
    private static final String GREEN = "32;1";
    private static final String CYAN = "36";

    private record Paint(Pattern pattern, String code) {
    }

    /** Group 1 of each pattern is coloured; the first pattern that matches a stretch of a line wins. */
    private static final List<Paint> TABLE = List.of(
            new Paint(Pattern.compile("(?m)^\\s*(FAIL|ERROR)\\b"), RED),
            new Paint(Pattern.compile("(?m)^\\s*(WARN)\\b"), YELLOW),
            new Paint(Pattern.compile("(?m)^\\s*(PASS|OK)\\b"), GREEN),
            new Paint(Pattern.compile("(?m)^\\s*(INFO)\\b"), CYAN),
            new Paint(Pattern.compile("\\b(HARNESS_ARTIFACT|FABRIC|BELOW_BASELINE):"), RED),
            new Paint(Pattern.compile("\\b(CONSISTENT|AT_BASELINE):"), GREEN),
            new Paint(Pattern.compile("\\b(B slower)\\b"), RED),
            new Paint(Pattern.compile("\\b(B faster)\\b"), GREEN),
            new Paint(Pattern.compile("\\b(NOT a multiple of 16)\\b"), RED),
            new Paint(Pattern.compile("(?m)^\\s*(GDR off)\\b"), YELLOW),
            new Paint(Pattern.compile("(?m)^\\s*(GDR on)\\b"), GREEN));

    private Verdicts() {
    }

    static String paint(String text) {
        String out = text;
        for (Paint p : TABLE) {
            Matcher m = p.pattern().matcher(out);
            StringBuilder b = new StringBuilder(out.length() + 64);
            int last = 0;
            while (m.find()) {
                b.append(out, last, m.start(1)).append("\u001b[").append(p.code()).append('m').append(m.group(1)).append("\u001b[0m");
                last = m.end(1);
            }
            out = b.append(out, last, out.length()).toString();
        }
        return out;
    }
}
