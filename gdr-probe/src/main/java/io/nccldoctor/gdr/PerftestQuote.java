package io.nccldoctor.gdr;

import io.nccldoctor.core.read.QuotedLines;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A perftest paste quoted as a whole in Markdown, every line behind "> " (an issue comment that quotes an earlier
 * one, as linux-rdma/perftest#132 does): the quote marks are taken off, one level, so each line reads as printed.
 * Only when every line that is not blank has the mark: perftest prints no line starting with ">", and a text with
 * some quoted lines is left as it is.
 */
final class PerftestQuote {

    private static final Pattern MARK = Pattern.compile("^\\s*> ?");

    private PerftestQuote() {
    }

    static List<String> unquoted(List<String> lines) {
        return QuotedLines.unquoted(lines, MARK);
    }
}
