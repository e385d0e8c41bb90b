package io.nccldoctor.collectives.parse;

import java.util.List;

/**
 * How a whole paste is quoted, decided once for all its lines: a Markdown quote ("> " before every line, as a reply
 * quotes an output) or a unified diff's marks ("+" before each added line, "-" before each removed one, a space before
 * context, as a pull request's review thread shows a README's table: GoogleCloudPlatform/ai-infra-cluster-provisioning
 * PR #376). nccl-tests itself starts no line with '>', '+' or '-'.
 */
final class NcclTestsQuoting {

    /** The line without its quote; {@code removed}: a diff's removed line, the old text, not read. */
    record Line(String text, boolean removed) {
    }

    private final boolean diff;
    private final boolean quote;

    private NcclTestsQuoting(boolean diff, boolean quote) {
        this.diff = diff;
        this.quote = quote;
    }

    /**
     * A diff: every non-blank line starts with '+', '-' or a space (or is a "@@" hunk line), and some with '+' or '-'
     * followed by a space, a tab, '#' or a digit. A quote: every non-blank line starts with '>'.
     */
    static NcclTestsQuoting of(List<String> raw) {
        boolean diff = true;
        boolean marked = false;
        boolean quote = true;
        int nonBlank = 0;
        for (String l : raw) {
            if (l.isBlank()) {
                continue;
            }
            nonBlank++;
            char c = l.charAt(0);
            quote &= c == '>';
            diff &= c == '+' || c == '-' || c == ' ' || c == '\t' || l.startsWith("@@");
            marked |= (c == '+' || c == '-') && l.length() > 1 && " \t#0123456789".indexOf(l.charAt(1)) >= 0;
        }
        return new NcclTestsQuoting(nonBlank > 0 && diff && marked, nonBlank > 0 && quote);
    }

    /** True when the paste is diff-quoted. */
    boolean diff() {
        return diff;
    }

    Line line(String l) {
        if (quote) {
            return new Line(l.replaceFirst("^>\\s?", ""), false);
        }
        if (!diff || l.isEmpty()) {
            return new Line(l, false);
        }
        char c = l.charAt(0);
        if (l.startsWith("@@")) {
            return new Line("", false); // a hunk header: where the lines are in the file
        }
        return new Line(l.substring(1), c == '-');
    }
}
