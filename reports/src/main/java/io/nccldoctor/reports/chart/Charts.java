package io.nccldoctor.reports.chart;

import java.util.Arrays;
import java.util.Base64;

/** Helpers for putting rendered charts into HTML. */
public final class Charts {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private Charts() {
    }

    /** {@code data:image/png;base64,…} for an {@code <img src>}; refuses bytes that are not a PNG. */
    public static String dataUri(byte[] png) {
        if (png.length < PNG_SIGNATURE.length || !Arrays.equals(png, 0, PNG_SIGNATURE.length, PNG_SIGNATURE, 0, PNG_SIGNATURE.length)) {
            throw new IllegalArgumentException("not a PNG (no PNG signature); use dataUri(bytes, Format.SVG) for SVG");
        }
        return dataUri(png, Format.PNG);
    }

    /** {@code data:<media type>;base64,…} for bytes that {@link Chart#render} produced in {@code format}. */
    public static String dataUri(byte[] image, Format format) {
        return "data:" + format.mediaType() + ";base64," + Base64.getEncoder().encodeToString(image);
    }
}
