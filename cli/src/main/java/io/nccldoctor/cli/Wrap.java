package io.nccldoctor.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Word wrap for what a verb prints on a terminal or into a ticket: lines are broken at spaces only (a path or a command
 * is never split), continuation lines start under the line's text column, and tables are left as they are.
 */
final class Wrap {

    /** The width of a ticket or a chat message: wider lines are wrapped, whatever the terminal's width. */
    static final int TICKET = 120;

    /** Columns of space runs that mark a table rather than a label and its text. */
    private static final int LABEL_COLUMNS = 60;

    private Wrap() {
    }

    static String paragraph(String text, int width) {
        return String.join("\n", fill(List.of(text.split(" ")), width, width, ""));
    }

    /** Every line of {@code text} longer than {@code width} wrapped (see {@link #line}); the rest unchanged. */
    static String lines(String text, int width) {
        StringBuilder out = new StringBuilder(text.length() + 256);
        int from = 0;
        while (from < text.length()) {
            int nl = text.indexOf('\n', from);
            int end = nl < 0 ? text.length() : nl;
            String l = text.substring(from, end);
            out.append(l.length() <= width ? l : String.join("\n", line(l, width)));
            if (nl >= 0) {
                out.append('\n');
            }
            from = end + 1;
        }
        return out.toString();
    }

    /**
     * One long line as several: the head up to its text column (after the last run of two or more spaces within the
     * first 60 columns, as in "  WARN  CODE   text", else the indentation plus two) stays, the text is filled under that
     * column. A line with two or more such runs past column 60 is a table row and is returned whole.
     */
    static List<String> line(String l, int width) {
        int indent = 0;
        while (indent < l.length() && l.charAt(indent) == ' ') {
            indent++;
        }
        int column = indent + 2;
        int lateRuns = 0;
        for (int i = indent; i < l.length() - 1; i++) {
            if (l.charAt(i) == ' ' && l.charAt(i + 1) == ' ') {
                int end = i;
                while (end < l.length() && l.charAt(end) == ' ') {
                    end++;
                }
                if (i < LABEL_COLUMNS) {
                    column = end;
                } else {
                    lateRuns++;
                }
                i = end - 1;
            }
        }
        if (lateRuns >= 2) {
            return List.of(l);
        }
        if (column > width / 2) {
            column = indent + 4;
        }
        boolean bullet = l.startsWith("- ", indent);
        String head = column > indent + 2 ? l.substring(0, column) : bullet ? l.substring(0, indent + 2) : l.substring(0, indent);
        String rest = l.substring(head.length()).strip();
        List<String> out = new ArrayList<>(fill(List.of(rest.split(" +")), width - head.length(), width - column, " ".repeat(column)));
        out.set(0, head + out.get(0));
        return out;
    }

    /** Words into lines: the first up to {@code first} wide, the others {@code prefix} then up to {@code next}. */
    private static List<String> fill(List<String> words, int first, int next, String prefix) {
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int limit = first;
        for (String w : words) {
            if (w.isEmpty()) {
                continue;
            }
            if (cur.length() > 0 && cur.length() + 1 + w.length() > limit) {
                lines.add((lines.isEmpty() ? "" : prefix) + cur);
                cur.setLength(0);
                limit = next;
            }
            if (cur.length() > 0) {
                cur.append(' ');
            }
            cur.append(w);
        }
        if (cur.length() > 0 || lines.isEmpty()) {
            lines.add((lines.isEmpty() ? "" : prefix) + cur);
        }
        return lines;
    }
}
