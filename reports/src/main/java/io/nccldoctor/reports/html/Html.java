package io.nccldoctor.reports.html;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.List;

/**
 * What every HTML page of the tool shares: escaping for text and attribute values (every string from a host, a log or
 * a file goes through it), the head with a Content Security Policy that allows no script and no request (images
 * only as data: URIs, styles only inline), and the common style.
 */
public final class Html {

    private Html() {
    }

    /** The style every page starts from; a page adds its own rules. */
    public static final String BASE_CSS = """
            body{font:14px/1.45 "DejaVu Sans",system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
            main{max-width:1180px;margin:0 auto;padding:24px}
            h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid #d5d9e0;padding-bottom:4px}
            h3{font-size:15px;margin:18px 0 6px}
            table{border-collapse:collapse;background:#fff;font-size:12.5px;margin:6px 0}
            th,td{border:1px solid #d5d9e0;padding:3px 7px;text-align:right} th{background:#eef0f4} td.l,th.l{text-align:left}
            td.bad{background:#fbe3e3;font-weight:bold}
            img{max-width:100%;height:auto;background:#fff;border:1px solid #d5d9e0;border-radius:4px;margin:6px 0}
            ul{margin:6px 0 6px 18px;padding:0} .muted{color:#666;font-size:12.5px}
            code{font-family:"DejaVu Sans Mono",monospace;font-size:12px;background:#eef0f4;padding:0 3px;border-radius:3px}
            """;

    /** The doctype, the head (CSP, title, style) and the opening of the body, into {@code h}. */
    public static StringBuilder open(StringBuilder h, String title, String css) {
        return h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(title)).append("</title>\n<style>").append(BASE_CSS).append(css)
                .append("</style></head>\n<body><main>\n");
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

    /**
     * Prose written by this tool (a remedy, a title), escaped as {@link #esc} does, with each {@code `…`} span set as
     * {@code <code>} so that a command reads and copies as code; an unpaired backtick stays a backtick.
     */
    public static String prose(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 32);
        int from = 0;
        while (from < s.length()) {
            int open = s.indexOf('`', from);
            int close = open < 0 ? -1 : s.indexOf('`', open + 1);
            if (close < 0) {
                b.append(esc(s.substring(from)));
                break;
            }
            b.append(esc(s.substring(from, open))).append("<code>").append(esc(s.substring(open + 1, close))).append("</code>");
            from = close + 1;
        }
        return b.toString();
    }

    /** The findings section: errors, then warnings, then information, each with its code, subject, evidence and remedy. */
    public static void findings(StringBuilder h, List<Finding> findings) {
        h.append("<section id=\"findings\"><h2>Findings</h2>\n");
        if (findings.isEmpty()) {
            h.append("<p>No finding.</p>\n");
        }
        for (Severity s : List.of(Severity.ERROR, Severity.WARN, Severity.INFO)) {
            for (Finding f : findings) {
                if (f.severity() != s) {
                    continue;
                }
                h.append("<div class=\"finding ").append(s.label()).append("\"><span class=\"sev\">").append(s.label()).append("</span>")
                        .append("<span class=\"code\">").append(esc(f.code())).append("</span> <span class=\"subject\">")
                        .append(esc(f.subject())).append("</span><div><b>").append(esc(f.title())).append("</b></div><ul>");
                f.evidence().forEach(e -> h.append("<li>").append(esc(e)).append("</li>"));
                h.append("</ul><div class=\"remedy\"><b>Remedy:</b> ").append(prose(f.remedy())).append("</div></div>\n");
            }
        }
        h.append("</section>\n");
    }
}
