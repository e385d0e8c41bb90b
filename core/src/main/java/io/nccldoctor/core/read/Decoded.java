package io.nccldoctor.core.read;

import java.util.List;
import java.util.Optional;

/**
 * A text input as read: its characters, the name it is reported under, and how many of its bytes were not UTF-8. Each
 * such byte sequence became one U+FFFD instead of failing the read (a log cut in the middle of a character, a terminal
 * escape, a paste through a Latin-1 editor); the count is said, never hidden.
 *
 * @param source        the file, or "standard input"
 * @param replacedBytes bytes that were not UTF-8
 */
public record Decoded(String text, String source, int replacedBytes) {

    /** The text's lines, without their line ends (\n, \r\n or \r). */
    public List<String> lines() {
        return text.lines().toList();
    }

    /** "FILE: 3 bytes that are not UTF-8 read as U+FFFD (…)"; empty when every byte was UTF-8. */
    public Optional<String> note() {
        if (replacedBytes == 0) {
            return Optional.empty();
        }
        return Optional.of(source + ": " + replacedBytes + (replacedBytes == 1 ? " byte that is" : " bytes that are")
                + " not UTF-8 read as U+FFFD (a character cut in two, a terminal escape or binary data); the rest was read");
    }
}
