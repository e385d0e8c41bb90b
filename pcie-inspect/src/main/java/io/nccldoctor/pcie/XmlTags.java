package io.nccldoctor.pcie;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lenient scanner of XML tags for pasted topology files: start, end and empty-element tags with their attributes
 * and line numbers, in one pass and without recursion. It reads what a strict parser refuses (a file cut off, a
 * snippet that starts or ends inside an element) and says where it stopped: {@link #problems()}. Entities are the
 * five predefined ones and character references; a DOCTYPE is skipped, so nothing is ever expanded or fetched.
 */
final class XmlTags {

    enum Kind { START, END }

    /** @param empty an empty-element tag ({@code <pci … />}): a start immediately followed by its end */
    record Tag(Kind kind, String name, Map<String, String> attributes, int line, boolean empty) {
    }

    private final String text;
    private final List<String> problems = new ArrayList<>();
    private int at;
    private int line = 1;
    private int lineCountedTo;
    private boolean stopped;
    private int strayText;
    private int strayTextLine;

    XmlTags(String text) {
        this.text = text;
    }

    List<String> problems() {
        List<String> out = new ArrayList<>(problems);
        if (strayText > 0) {
            out.add(0, "line " + strayTextLine + ": text outside any tag (" + strayText + " lines in all; NCCL's format has none), not read");
        }
        return out;
    }

    /** The line of the last position read. */
    int line() {
        return lineAt(at);
    }

    /** The line of the last character that is not white space: where a cut text ends. */
    int lastContentLine() {
        int i = text.length() - 1;
        while (i > 0 && Character.isWhitespace(text.charAt(i))) {
            i--;
        }
        return lineAt(Math.max(0, i));
    }

    /** The next tag, or null at the end of the text or where a cut makes reading on impossible. */
    Tag next() {
        while (!stopped) {
            int open = text.indexOf('<', at);
            textBetween(at, open < 0 ? text.length() : open);
            if (open < 0) {
                at = text.length();
                return null;
            }
            at = open;
            Tag t = tag();
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    private void textBetween(int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                int end = text.indexOf('\n', i);
                int first = lineAt(i);
                int last = lineAt(end < 0 || end > to ? to : end);
                if (strayText == 0) {
                    strayTextLine = first;
                }
                strayText += last - first + 1;
                return;
            }
        }
    }

    /** The tag at {@code at}; null when it was a comment, declaration or an unreadable tag that was skipped. */
    private Tag tag() {
        if (text.startsWith("<!--", at)) {
            return skipTo("-->", "a comment");
        }
        if (text.startsWith("<?", at)) {
            return skipTo("?>", "an XML declaration");
        }
        if (text.startsWith("<![CDATA[", at)) {
            return skipTo("]]>", "a CDATA section");
        }
        if (text.startsWith("<!", at)) {
            problems.add("line " + line() + ": a DOCTYPE or declaration, skipped (no entity is expanded)");
            return skipTo(">", "a declaration");
        }
        int close = findTagEnd(at + 1);
        if (close < -1) {
            problems.add("line " + line() + ": a tag that is not closed before the next one (`" + excerpt(at) + "`), not read");
            at = -1 - close;
            return null;
        }
        if (close < 0) {
            stop("line " + line() + ": the text ends inside a tag (`" + excerpt(at) + "`): that element was not read");
            return null;
        }
        String body = text.substring(at + 1, close);
        int tagLine = line();
        at = close + 1;
        if (body.startsWith("/")) {
            return new Tag(Kind.END, body.substring(1).strip(), Map.of(), tagLine, false);
        }
        boolean empty = body.endsWith("/");
        return parseStart(empty ? body.substring(0, body.length() - 1) : body, tagLine, empty);
    }

    /** The '>' that ends a tag, ignoring any inside quoted attribute values; -1 when the text ends first. */
    private int findTagEnd(int from) {
        char quote = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                return i;
            } else if (c == '<') {
                return -1 - i; // a new tag begins inside this one: handled by the caller as unreadable
            }
        }
        return -1;
    }

    private Tag parseStart(String body, int tagLine, boolean empty) {
        int i = 0;
        while (i < body.length() && !Character.isWhitespace(body.charAt(i))) {
            i++;
        }
        String name = body.substring(0, i);
        Map<String, String> attributes = new LinkedHashMap<>();
        while (i < body.length()) {
            while (i < body.length() && Character.isWhitespace(body.charAt(i))) {
                i++;
            }
            int eq = body.indexOf('=', i);
            if (i >= body.length()) {
                break;
            }
            if (eq < 0 || eq + 1 >= body.length() || (body.charAt(eq + 1) != '"' && body.charAt(eq + 1) != '\'')) {
                problems.add("line " + tagLine + ": <" + name + "> has an attribute that is not name=\"value\" ("
                        + body.substring(i).strip() + "); the rest of that tag was not read");
                break;
            }
            char quote = body.charAt(eq + 1);
            int end = body.indexOf(quote, eq + 2);
            if (end < 0) {
                problems.add("line " + tagLine + ": <" + name + "> has a value whose quote is not closed ("
                        + body.substring(i).strip() + "); the rest of that tag was not read");
                break;
            }
            attributes.put(body.substring(i, eq).strip(), decode(body.substring(eq + 2, end), tagLine));
            i = end + 1;
        }
        return new Tag(Kind.START, name, attributes, tagLine, empty);
    }

    private String decode(String value, int tagLine) {
        if (value.indexOf('&') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            int semi = value.indexOf(';', i);
            if (c != '&' || semi < 0) {
                out.append(c);
                continue;
            }
            String entity = value.substring(i + 1, semi);
            String decoded = switch (entity) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> characterReference(entity);
            };
            if (decoded == null) {
                problems.add("line " + tagLine + ": unknown entity &" + entity + "; kept as written");
                out.append(c);
                continue;
            }
            out.append(decoded);
            i = semi;
        }
        return out.toString();
    }

    private static String characterReference(String entity) {
        try {
            if (entity.startsWith("#x")) {
                return Character.toString(Integer.parseInt(entity.substring(2), 16));
            }
            if (entity.startsWith("#")) {
                return Character.toString(Integer.parseInt(entity.substring(1)));
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        return null;
    }

    private Tag skipTo(String end, String what) {
        int found = text.indexOf(end, at);
        if (found < 0) {
            stop("line " + line() + ": the text ends inside " + what + ": nothing after it was read");
            return null;
        }
        at = found + end.length();
        return null;
    }

    private void stop(String why) {
        problems.add(why);
        stopped = true;
    }

    private String excerpt(int from) {
        String rest = text.substring(from, Math.min(text.length(), from + 60)).strip();
        int nl = rest.indexOf('\n');
        return (nl >= 0 ? rest.substring(0, nl) : rest) + (text.length() - from > 60 || nl >= 0 ? "…" : "");
    }

    /** The 1-based line of an offset; offsets only grow, so counting newlines once keeps the scan linear. */
    private int lineAt(int offset) {
        if (offset < lineCountedTo) {
            int n = line;
            for (int i = offset; i < lineCountedTo; i++) {
                if (text.charAt(i) == '\n') {
                    n--;
                }
            }
            return n;
        }
        for (int i = lineCountedTo; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        lineCountedTo = Math.max(lineCountedTo, Math.min(offset, text.length()));
        return line;
    }
}
