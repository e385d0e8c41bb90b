package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of a perftest bandwidth or latency test (ib_write_bw, ib_read_bw, ib_send_bw, *_lat), client or
 * server side: the header block (device, link type, MTU, GID index, QPs), the GPU that --use_cuda picked, the result
 * rows as printed (MB/sec or, with --report_gbits, Gb/sec), and the warnings and errors with what they mean.
 *
 * @param header key → value of the header block ("Device" → mlx5_0, "Mtu" → 4096[B], "Link type" → IB)
 * @param unit   the bandwidth unit of the columns, as printed: "MB/sec" or "Gb/sec"
 */
public record PerftestOutput(Fact<String> test, Map<String, String> header, Fact<String> gpu, String unit, List<Row> rows,
                             List<String> warnings, List<String> errors) {

    /** One result row: the message size, iterations, peak and average bandwidth in {@link #unit()}, message rate. */
    public record Row(long bytes, long iterations, double peak, double average, Fact<Double> msgRateMpps) {
    }

    private static final Pattern TITLE = Pattern.compile("^\\s*(\\S+ (?:BW|Latency) Test)\\s*$");
    private static final Pattern FIELD = Pattern.compile("(\\S[^:\\t]*?)\\s*:\\s*(\\S[^\\t]*?)(?=\\s{2,}|\\t|$)");
    private static final Pattern COLUMNS = Pattern.compile("^\\s*#bytes\\s+#iterations\\s+BW peak\\[(\\S+)]");
    private static final Pattern GPU = Pattern.compile("device name = \\[(.+)]");
    private static final Pattern MR_ERROR = Pattern.compile("Couldn't allocate MR with error=(\\d+)");
    private static final List<String> ERRORS = List.of("Couldn't", "Failed to", "Unable to", "failed to", "Error", "error:");
    private static final List<String> WARNINGS = List.of("WARNING", "Requested mtu is higher", "not PCIe relaxed ordering",
            "Conflicting CPU frequency", "Changing to active mtu");

    public static PerftestOutput parse(List<String> lines, String source) {
        Fact<String> test = Fact.absent("no test title line");
        Map<String, String> header = new LinkedHashMap<>();
        Fact<String> gpu = Fact.absent("host memory (no --use_cuda)");
        String unit = null;
        List<Row> rows = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        boolean recognised = false;
        for (String line : lines) {
            Matcher t = TITLE.matcher(line);
            if (t.matches()) {
                test = Fact.of(t.group(1));
                recognised = true;
                continue;
            }
            Matcher c = COLUMNS.matcher(line);
            if (c.find()) {
                unit = c.group(1);
                recognised = true;
                continue;
            }
            Matcher g = GPU.matcher(line);
            if (g.find()) {
                gpu = Fact.of(g.group(1));
            }
            if (unit != null) {
                Row r = row(line);
                if (r != null) {
                    rows.add(r);
                    continue;
                }
            }
            if (line.startsWith(" ") && line.contains(":") && !line.contains("address:") && !line.strip().startsWith("GID:") && test.isValue() && unit == null) {
                Matcher f = FIELD.matcher(line);
                while (f.find()) {
                    header.put(f.group(1).strip(), f.group(2).strip());
                }
                continue;
            }
            String s = line.strip();
            if (WARNINGS.stream().anyMatch(s::contains)) {
                warnings.add(s);
            } else if (ERRORS.stream().anyMatch(s::startsWith)) {
                errors.add(meaning(s));
                recognised = true;
            }
        }
        if (!recognised) {
            throw new InputException(source + ": not perftest output (no test title such as 'RDMA_Write BW Test', no "
                    + "'#bytes #iterations' table, no perftest error); give the output of ib_write_bw, ib_read_bw or ib_send_bw");
        }
        return new PerftestOutput(test, header, gpu, unit == null ? "none" : unit, rows, warnings, errors);
    }

    private static Row row(String line) {
        String[] t = line.strip().split("\\s+");
        if (t.length < 4) {
            return null;
        }
        try {
            return new Row(Long.parseLong(t[0]), Long.parseLong(t[1]), Double.parseDouble(t[2]), Double.parseDouble(t[3]),
                    t.length > 4 ? Fact.of(Double.parseDouble(t[4])) : Fact.absent("no MsgRate column"));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** perftest's errno numbers say why GPU memory could not be registered (reference/peers-and-platform.md B5). */
    static String meaning(String line) {
        Matcher m = MR_ERROR.matcher(line);
        if (m.find()) {
            return switch (m.group(1)) {
                case "14" -> line + " (EFAULT: the NIC cannot register this GPU memory: no peer-memory client, or a GPU without GPUDirect RDMA)";
                case "93", "95" -> line + " (EPROTONOSUPPORT/EOPNOTSUPP: DMA-BUF registration not supported by kernel, driver or NIC)";
                case "12" -> line + " (ENOMEM: locked-memory limit; raise ulimit -l)";
                default -> line;
            };
        }
        return line;
    }
}
