package io.nccldoctor.reports.chart;

/** The two encodings every chart renders to: PNG for embedding and tickets, SVG for zooming and text search. */
public enum Format {
    PNG("image/png"),
    SVG("image/svg+xml");

    private final String mediaType;

    Format(String mediaType) {
        this.mediaType = mediaType;
    }

    /** The MIME type, as a {@code data:} URI or an HTTP header wants it. */
    public String mediaType() {
        return mediaType;
    }
}
