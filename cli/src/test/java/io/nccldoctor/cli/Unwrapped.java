package io.nccldoctor.cli;

/**
 * A verb's terminal text with its wrapping undone (every run of blanks and line breaks one space), for assertions on a
 * sentence that the {@link Wrap#TICKET}-column wrapping may have broken over lines.
 */
final class Unwrapped {

    private Unwrapped() {
    }

    static String of(String text) {
        return text.replaceAll("\\s+", " ");
    }
}
