package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * nccl-tests output as a page rendered it in Markdown (microsoft/mscclpp PR #736): the header lines keep their '#'
 * escaped ("\#"), each row's cells are joined by " | ", and a "-- | --" line separates the first row (taken for the
 * table's header) from the others. Each line is given back as the plain output had it, so that the table reader splits
 * a row into the same cells, by the same column header, as a plain row; what cannot be told so is refused.
 */
final class NcclTestsMarkdown {

    /**
     * @param plain    the line as nccl-tests printed it; "" for a separator line or a refused row
     * @param markdown true when the line was Markdown (an escaped '#', a row joined by '|', a separator)
     * @param refused  why the row cannot be read, or null
     */
    record Line(String plain, boolean markdown, String refused) {
    }

    private static final Pattern SEPARATOR = Pattern.compile("^\\|?\\s*:?-{2,}:?\\s*(?:\\|\\s*:?-{2,}:?\\s*)+\\|?$");
    /** A table row: the size first, a whole cell of digits, then cells after '|' (a leading '|' as some renderers write it). */
    private static final Pattern ROW = Pattern.compile("^\\|?\\s*\\d+\\s*\\|.*$");

    private NcclTestsMarkdown() {
    }

    /** The plain line of a stripped line; a line that is no Markdown comes back as it is. */
    static Line plain(String t) {
        if (t.startsWith("\\#")) {
            return new Line(t.substring(1).replace("\\_", "_"), true, null);
        }
        if (t.startsWith("`#")) {
            return new Line(t.substring(1), false, null); // a backtick that opens inline code before a '#' line (NVIDIA/nccl#258)
        }
        if (SEPARATOR.matcher(t).matches()) {
            return new Line("", true, null);
        }
        if (!ROW.matcher(t).matches()) {
            return new Line(t, false, null);
        }
        List<String> cells = new ArrayList<>();
        for (String cell : t.replaceFirst("^\\|", "").replaceFirst("\\|$", "").split("\\|", -1)) {
            String c = cell.strip();
            if (c.contains(" ") || c.contains("\t")) {
                return new Line("", true, "the Markdown cell '" + c + "' holds several values: its columns cannot be told");
            }
            if (!c.isEmpty()) {
                cells.add(c); // an empty cell is the blank a plain row leaves (old alltoall's redop), which the plain split drops too
            }
        }
        return new Line(String.join(" ", cells), true, null);
    }
}
