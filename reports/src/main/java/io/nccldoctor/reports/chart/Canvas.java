package io.nccldoctor.reports.chart;

import de.erichseifert.vectorgraphics2d.Document;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/** Turns what a painter draws into PNG or SVG bytes; the only class that touches ImageIO and VectorGraphics2D. */
final class Canvas {

    /** Largest side accepted: 8192² RGB is 256 MiB of raster, a mistake rather than a chart. */
    static final int MAX_SIDE = 8192;

    static {
        Headless.ensure();
    }

    private static final Pattern DOCTYPE = Pattern.compile("<!DOCTYPE[^>]*>\\s*");
    private static final Pattern SVG_START = Pattern.compile("<svg\\b[^>]*>");
    private static final Pattern FONT_FAMILY = Pattern.compile("font-family:(&quot;[^;&]*&quot;);");

    private Canvas() {
    }

    /** Draws onto a white canvas of the given size. */
    interface Painter {
        void paint(Graphics2D g, int width, int height);
    }

    /**
     * What a screen reader or a text search finds in the SVG, whose glyphs may be outlines: the title and the data in
     * words. Host strings go in raw; they are escaped here.
     */
    record Caption(String title, String description) {
    }

    static byte[] render(Format format, int width, int height, Caption caption, Painter painter) {
        if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
            throw new IllegalArgumentException("chart size " + width + "x" + height + " is outside 1.." + MAX_SIDE);
        }
        return switch (format) {
            case PNG -> png(width, height, painter);
            case SVG -> svg(width, height, caption, painter);
        };
    }

    private static byte[] png(int width, int height, Painter painter) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            prepare(g, width, height);
            painter.paint(g, width, height);
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(width * height / 8);
        ImageWriter writer = ImageIO.getImageWritersByFormatName("png").next();
        // A memory cache, not ImageIO's default temp file: no disk traffic and no dependence on java.io.tmpdir.
        try (ImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            writer.write(image);
        } catch (IOException e) {
            throw new UncheckedIOException("encoding PNG in memory", e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private static byte[] svg(int width, int height, Caption caption, Painter painter) {
        VectorGraphics2D g = new VectorGraphics2D();
        prepare(g, width, height);
        painter.paint(g, width, height);
        g.dispose();
        Document document = new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, width, height));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            document.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing SVG in memory", e);
        }
        return finishSvg(out.toString(StandardCharsets.UTF_8), caption).getBytes(StandardCharsets.UTF_8);
    }

    private static void prepare(Graphics2D g, int width, int height) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        // Fractional metrics: text measured for layout has the same width in PNG and SVG.
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
    }

    /**
     * Repairs what VectorGraphics2D 0.13 writes and adds the caption. It writes a DOCTYPE that points at w3.org (an XML
     * parser would try to fetch it), leaves font-size out when it is 12 (its default; a browser then uses 16px), and
     * names a single font family with no generic fallback. The group around the drawing supplies the defaults.
     */
    static String finishSvg(String svg, Caption caption) {
        String s = DOCTYPE.matcher(svg).replaceFirst("");
        s = FONT_FAMILY.matcher(s).replaceAll(Matcher.quoteReplacement("font-family:") + "$1,sans-serif;");
        Matcher start = SVG_START.matcher(s);
        int close = s.lastIndexOf("</svg>");
        if (!start.find() || close < start.end()) {
            throw new IllegalStateException("VectorGraphics2D wrote no <svg> element");
        }
        return s.substring(0, start.end())
                + "\n  <title>" + Text.escape(Text.line(caption.title(), "chart")) + "</title>"
                + "\n  <desc>" + Text.escape(Text.clean(caption.description())) + "</desc>"
                + "\n  <g style=\"font-family:sans-serif;font-size:12px;\">"
                + s.substring(start.end(), close)
                + "</g>\n" + s.substring(close);
    }
}
