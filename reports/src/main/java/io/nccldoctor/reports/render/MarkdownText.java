package io.nccldoctor.reports.render;

/**
 * The Markdown escaping of {@link MarkdownReport}, for renderers in other packages: one rule for every Markdown form,
 * so that a string from a host, a log or a file name cannot open HTML, a link or a table cell anywhere.
 */
public final class MarkdownText {

    private MarkdownText() {
    }

    /** A string from a host, a log or a file, made inert (see {@link MarkdownReport#text(String)}). */
    public static String text(String s) {
        return MarkdownReport.text(s);
    }
}
