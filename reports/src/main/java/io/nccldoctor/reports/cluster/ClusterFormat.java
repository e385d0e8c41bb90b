package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

/** The forms of a cluster report, chosen by the extension of -o. */
public enum ClusterFormat {
    TEXT(ClusterText::render),
    MARKDOWN(ClusterMarkdown::render),
    JSON(Json::write),
    HTML(ClusterHtml::render);

    private final Function<ClusterReport, String> renderer;

    ClusterFormat(Function<ClusterReport, String> renderer) {
        this.renderer = renderer;
    }

    public String render(ClusterReport r) {
        return renderer.apply(r);
    }

    /** .txt, .md, .json or .html (also .htm, .markdown); anything else is an input error naming the file. */
    public static ClusterFormat of(Path output) {
        String name = output.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return switch (ext) {
            case "txt", "text" -> TEXT;
            case "md", "markdown" -> MARKDOWN;
            case "json" -> JSON;
            case "html", "htm" -> HTML;
            default -> throw new InputException("-o " + output + ": unknown format; name the file .txt, .md, .json or .html");
        };
    }
}
