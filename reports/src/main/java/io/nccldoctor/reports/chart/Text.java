package io.nccldoctor.reports.chart;

/**
 * Strings from hosts and logs on their way into a chart. XML 1.0 forbids most control characters even as character
 * references, so they are replaced before any text reaches an SVG; markup characters are escaped on the way out.
 */
final class Text {

    static final String REPLACEMENT = "\uFFFD";

    private Text() {
    }

    /** {@code s} with code points that XML 1.0 cannot carry (controls other than tab and newlines, lone surrogates, U+FFFE/F) replaced. */
    static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            if (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000) {
                b.appendCodePoint(c);
            } else {
                b.append(REPLACEMENT);
            }
        });
        return b.toString();
    }

    /** One printable line: cleaned, line breaks and tabs as spaces, stripped; {@code ifBlank} when nothing is left. */
    static String line(String s, String ifBlank) {
        String one = clean(s).replaceAll("[\\t\\n\\r]+", " ").strip();
        return one.isEmpty() ? ifBlank : one;
    }

    /** Escapes XML markup characters, for element content and attribute values alike. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
