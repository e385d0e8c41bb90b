package io.nccldoctor.core.read;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A paste whose every line carries the same mark in front: a Markdown quote ("> ", an issue comment quoting an earlier
 * one) or a shell comment ("# ", a script that keeps a tool's output as comments). The mark is taken off, one level,
 * only when every line that is not blank has it, and the same one: a text with some marked lines (a root prompt "# "
 * above the output) is left as it is. Lines keep their numbers.
 */
public final class QuotedLines {

    private QuotedLines() {
    }

    /**
     * The lines with {@code mark} taken off, or the lines as they are. {@code mark} is matched at the start of each line;
     * what it matched, without white space, must be the same on every line (">" on all, or "#" on all).
     */
    public static List<String> unquoted(List<String> lines, Pattern mark) {
        String common = null;
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            Matcher m = mark.matcher(l);
            if (!m.lookingAt() || common != null && !common.equals(m.group().strip())) {
                return lines;
            }
            common = m.group().strip();
        }
        return common == null ? lines : lines.stream().map(l -> l.isBlank() ? l : mark.matcher(l).replaceFirst("")).toList();
    }
}
