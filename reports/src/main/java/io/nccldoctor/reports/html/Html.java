package io.nccldoctor.reports.html;

/** HTML escaping for text and attribute values: every string from a host, a log or a file goes through it. */
public final class Html {

    private Html() {
    }

    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        b.append('\uFFFD'); // control characters have no place in a report
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
