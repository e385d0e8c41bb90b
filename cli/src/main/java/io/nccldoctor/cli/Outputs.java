package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.Marker;
import io.nccldoctor.core.output.OutputFile;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.chart.Format;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Where every verb's result goes: stdout (the terminal text, or a document with --json or --format), or -o FILE under
 * the one rule of {@link OutputFile} (a document carries the {@link Marker} wherever it goes; the terminal text gets it
 * only in a file). The one owner of this concern in the command line.
 */
final class Outputs {

    private Outputs() {
    }

    /** Refuses -o FILE before any work when the rule would refuse it at the end. */
    static void check(OutputOptions o) {
        if (o.output != null) {
            OutputFile.check(o.output, o.force, "-o");
        }
    }

    /** The format of this run: --json, else --format, else -o's extension, else the terminal text. */
    static OutputFormat format(OutputOptions o, boolean json, Set<OutputFormat> allowed, String verb) {
        if (json && (o.output != null || o.format != null)) {
            throw new InputException("--json prints the JSON on stdout; -o FILE.json writes it to a file: give one");
        }
        return json ? OutputFormat.JSON : OutputFormat.of(o.format, o.output, allowed, verb);
    }

    /**
     * Prints the result or writes it: {@code doc} in format {@code fmt} (the terminal text for TEXT), {@code summary}
     * (the verdict line) said after "wrote FILE".
     */
    static void emit(PrintWriter out, OutputOptions o, OutputFormat fmt, byte[] doc, String verb, String summary) {
        if (o.output == null) {
            if (fmt == OutputFormat.PNG) {
                throw new InputException("--format png writes binary data: give -o FILE.png");
            }
            out.print(fmt == OutputFormat.TEXT ? Terminal.show(new String(doc, StandardCharsets.UTF_8))
                    : new String(Marker.add(fmt.style, doc, verb), StandardCharsets.UTF_8));
        } else {
            write(o.output, o.force, fmt, doc, verb);
            out.println(Wrap.lines("wrote " + o.output + " (" + fmt.extension + ")" + (summary.isEmpty() ? "" : ": " + summary), Wrap.TICKET));
        }
        out.flush();
    }

    /** Writes {@code doc} to {@code file} under the output rule: marked, and the terminal text wrapped as on the terminal. */
    static void write(Path file, boolean force, OutputFormat fmt, byte[] doc, String verb) {
        byte[] body = fmt == OutputFormat.TEXT ? utf8(Wrap.lines(new String(doc, StandardCharsets.UTF_8), Wrap.TICKET)) : doc;
        OutputFile.write(file, Marker.add(fmt.style, body, verb + " -o"), force, "-o");
    }

    /** The chart {@code name} (the first when null) as PNG or SVG; an unknown name lists the known ones. */
    static byte[] chart(Map<String, ? extends Chart> charts, String name, OutputFormat fmt, int width, int height, String none) {
        String n = name != null ? name : charts.keySet().stream().findFirst().orElseThrow(() -> new InputException(none));
        Chart c = charts.get(n);
        if (c == null) {
            throw new InputException("--chart " + n + ": " + (charts.isEmpty() ? none
                    : "not among the charts of these inputs: " + String.join(", ", charts.keySet())));
        }
        return c.render(fmt == OutputFormat.PNG ? Format.PNG : Format.SVG, width, height);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
