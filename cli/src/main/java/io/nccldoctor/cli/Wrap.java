package io.nccldoctor.cli;

/** Word wrap for terminal paragraphs. */
final class Wrap {

    private Wrap() {
    }

    static String paragraph(String text, int width) {
        StringBuilder out = new StringBuilder();
        int col = 0;
        for (String word : text.split(" ")) {
            if (col > 0 && col + 1 + word.length() > width) {
                out.append('\n');
                col = 0;
            } else if (col > 0) {
                out.append(' ');
                col++;
            }
            out.append(word);
            col += word.length();
        }
        return out.toString();
    }
}
