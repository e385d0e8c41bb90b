package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.Marker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The formats a verb writes, named by -o FILE's extension or by --format, each with the way it carries the marker. */
enum OutputFormat {
    TEXT("txt", Marker.Style.HASH, "txt", "text", "terminal"),
    HTML("html", Marker.Style.MARKUP, "html", "htm"),
    MD("md", Marker.Style.MARKUP, "md", "markdown"),
    JSON("json", Marker.Style.JSON, "json"),
    JUNIT("xml", Marker.Style.MARKUP, "xml", "junit"),
    PROM("prom", Marker.Style.HASH, "prom", "prometheus"),
    PNG("png", Marker.Style.PNG, "png"),
    SVG("svg", Marker.Style.MARKUP, "svg");

    /** What report, cluster and preflight write: every format. */
    static final Set<OutputFormat> ALL = EnumSet.allOf(OutputFormat.class);

    final String extension;
    final Marker.Style style;
    private final List<String> names;

    OutputFormat(String extension, Marker.Style style, String... names) {
        this.extension = extension;
        this.style = style;
        this.names = List.of(names);
    }

    /**
     * The format {@code --format} names, else the extension of {@code output}, else the terminal text; one that
     * {@code verb} does not write is refused with the list of those it does.
     */
    static OutputFormat of(String flag, Path output, Set<OutputFormat> allowed, String verb) {
        if (flag == null && output == null) {
            return TEXT;
        }
        String name = flag != null ? flag : extension(output.getFileName().toString());
        String what = flag != null ? "--format " + flag : "-o " + output;
        OutputFormat f = named(name.toLowerCase(Locale.ROOT));
        if (f == null) {
            throw new InputException(what + ": unknown format; use " + list(allowed) + (flag == null ? " (or give --format)" : ""));
        }
        if (!allowed.contains(f)) {
            throw new InputException(what + ": " + verb + " writes " + list(allowed));
        }
        return f;
    }

    private static OutputFormat named(String name) {
        for (OutputFormat f : values()) {
            if (f.names.contains(name)) {
                return f;
            }
        }
        return null;
    }

    /** "html, md, json or txt", in the order of this enum with txt last, as the help texts list them. */
    static String list(Set<OutputFormat> allowed) {
        List<String> names = new ArrayList<>();
        allowed.stream().filter(f -> f != TEXT).forEach(f -> names.add(f.extension));
        if (allowed.contains(TEXT)) {
            names.add(TEXT.extension);
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }
}
