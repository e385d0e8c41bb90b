package io.nccldoctor.reports.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Markdown escaping of {@link MarkdownReport}, for renderers in other packages: one rule for every Markdown form,
 * so that a string from a host, a log or a file name cannot open HTML, a link or a table cell anywhere. Prose this tool
 * writes itself (a remedy, a title) keeps its {@code `commands`} as code spans, and long lines are wrapped for tickets.
 */
public final class MarkdownText {

    /** The widest line written outside tables and headings (which Markdown cannot wrap): a ticket's width. */
    public static final int WIDTH = 120;

    /** Words Markdown would read as the start of a list, a heading underline or a rule if a line began with them. */
    private static final Pattern UNSAFE_START = Pattern.compile("[-+*]|=+|-+|\\d{1,9}[.)]");

    private MarkdownText() {
    }

    /** A string from a host, a log or a file, made inert (see {@link MarkdownReport#text(String)}). */
    public static String text(String s) {
        return MarkdownReport.text(s);
    }

    /**
     * Prose written by this tool: each {@code `…`} span stays a code span (its content as it is, so a command renders as
     * code and copies as typed), everything else goes through {@link #text}; an unpaired backtick is escaped.
     */
    public static String prose(String s) {
        if (s == null) {
            return "";
        }
        s = s.strip();
        StringBuilder b = new StringBuilder(s.length() + 16);
        int from = 0;
        while (from < s.length()) {
            int open = s.indexOf('`', from);
            int close = open < 0 ? -1 : s.indexOf('`', open + 1);
            if (close < 0) {
                b.append(MarkdownReport.inert(s.substring(from)));
                break;
            }
            String code = s.substring(open + 1, close).replaceAll("[\\r\\n\\t]", " ").replaceAll("\\p{Cntrl}", "");
            b.append(MarkdownReport.inert(s.substring(from, open))).append('`').append(code).append('`');
            from = close + 1;
        }
        return b.toString();
    }

    /**
     * A line of Markdown as several of at most {@link #WIDTH} columns: {@code first} starts the first line (e.g. "- "),
     * {@code indent} the others (so they continue the same list item or paragraph); breaks only at spaces outside code
     * spans, and never before a word that would open a list, a rule or a heading underline. A single word longer than the
     * width (a path) stays whole.
     */
    public static List<String> wrap(String first, String markdown, String indent) {
        List<String> words = words(markdown);
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < words.size()) {
            String prefix = lines.isEmpty() ? first : indent;
            int end = start + 1;
            int length = prefix.length() + words.get(start).length();
            while (end < words.size() && length + 1 + words.get(end).length() <= WIDTH) {
                length += 1 + words.get(end).length();
                end++;
            }
            while (end < words.size() && end - 1 > start && UNSAFE_START.matcher(words.get(end)).matches()) {
                end--; // the next line would start with "-" or "1.": take the word before it along
            }
            lines.add(prefix + String.join(" ", words.subList(start, end)));
            start = end;
        }
        if (lines.isEmpty()) {
            lines.add(first.stripTrailing());
        }
        return lines;
    }

    /** Words split at spaces outside code spans. */
    static List<String> words(String markdown) {
        List<String> words = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean code = false;
        for (int i = 0; i < markdown.length(); i++) {
            char c = markdown.charAt(i);
            if (c == '`' && (i == 0 || markdown.charAt(i - 1) != '\\')) {
                code = !code;
            }
            if (c == ' ' && !code) {
                if (cur.length() > 0) {
                    words.add(cur.toString());
                    cur.setLength(0);
                }
            } else {
                cur.append(c);
            }
        }
        if (cur.length() > 0) {
            words.add(cur.toString());
        }
        return words;
    }
}
