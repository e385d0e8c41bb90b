package io.nccldoctor.reports.chart;

/** A chart drawn from plain data; the same value renders to either format at any size. */
public interface Chart {

    /**
     * Draws the chart.
     *
     * @param width  pixels (PNG) or user units (SVG), 1 to {@value Canvas#MAX_SIDE}
     * @param height as width
     * @return the encoded image: PNG bytes, or an SVG document in UTF-8
     */
    byte[] render(Format format, int width, int height);
}
