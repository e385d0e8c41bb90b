package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.chart.Format;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** What the verbs that write reports share: never overwrite without --force, one chart by name, stdout or a file. */
final class Outputs {

    private Outputs() {
    }

    static void refuseOverwrite(Path output, boolean force) {
        if (output != null && Files.exists(output) && !force) {
            throw new InputException("-o " + output + ": exists; give another name, or --force to overwrite it");
        }
    }

    /** The chart {@code name} (the first when null) as PNG or SVG; an unknown name lists the known ones. */
    static byte[] chart(Map<String, ? extends Chart> charts, String name, String fmt, int width, int height, String none) {
        String n = name != null ? name : charts.keySet().stream().findFirst().orElseThrow(() -> new InputException(none));
        Chart c = charts.get(n);
        if (c == null) {
            throw new InputException("--chart " + n + ": " + (charts.isEmpty() ? none
                    : "not among the charts of these inputs: " + String.join(", ", charts.keySet())));
        }
        return c.render(fmt.equals("png") ? Format.PNG : Format.SVG, width, height);
    }

    /** Prints the bytes (never a PNG to a terminal) or writes them to the file and says so, with a summary. */
    static void emit(PrintWriter out, Path output, String fmt, byte[] bytes, String summary) {
        if (output == null) {
            if (fmt.equals("png")) {
                throw new InputException("--format png writes binary data: give -o FILE.png");
            }
            out.print(new String(bytes, StandardCharsets.UTF_8));
        } else {
            ReportCommand.write(output, bytes);
            out.println("wrote " + output + " (" + fmt + ")" + (summary.isEmpty() ? "" : ": " + summary));
        }
        out.flush();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
