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
 * The file perftest writes with --out_json (--out_json_file=NAME, default perftest_out.json; perftest_parameters.c
 * write_test_info_to_file and write_*_report_to_file). Two shapes: since perftest 24.04 (commit f9e82f7, "Make output
 * JSON standard") {@code {"test_info": {…}, "results": {…}}} with quoted keys; from 4.5-0.11 until then the same lines
 * without quotes ({@code test_info: {}, {@code MsgSize: 65536,}) and with trailing commas, which no JSON parser accepts.
 * Both are read line by line, one "key: value" a line, as perftest writes them; the QoS form still writes an unquoted
 * {@code sl:}. The file is rewritten for each message size, so it holds the last size of an -a sweep only.
 */
final class PerftestJson {

    private static final Pattern ENTRY = Pattern.compile("^\"?([^\":{}]+?)\"?\\s*:\\s*(.*?)\\s*,?$");
    private static final Map<String, String> HEADER_NAMES = Map.ofEntries(Map.entry("Dual_port", "Dual-port"), Map.entry("Number_of_qps", "Number of qps"),
            Map.entry("Transport_type", "Transport type"), Map.entry("Connection_type", "Connection type"), Map.entry("Using_SRQ", "Using SRQ"),
            Map.entry("PCIe_relax_order", "PCIe relax order"), Map.entry("ibv_wr_API", "ibv_wr* API"), Map.entry("TX_depth", "TX depth"),
            Map.entry("RX_depth", "RX depth"), Map.entry("CQ_Moderation", "CQ Moderation"), Map.entry("Link_type", "Link type"),
            Map.entry("GID_index", "GID index"), Map.entry("Max_inline_data", "Max inline data"), Map.entry("Outstand_reads", "Outstand reads"),
            Map.entry("rdma_cm_QPs", "rdma_cm QPs"), Map.entry("Data_ex_method", "Data ex. method"));

    private PerftestJson() {
    }

    /** True when the first non-blank character is '{', which perftest's text output never starts with. */
    static boolean looksLikeJson(List<String> lines) {
        for (String line : lines) {
            String s = line.strip().replace("\uFEFF", "");
            if (!s.isEmpty()) {
                return s.startsWith("{");
            }
        }
        return false;
    }

    static PerftestOutput parse(List<String> lines, String source) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        String section = null;
        for (int n = 0; n < lines.size(); n++) {
            String s = lines.get(n).strip();
            if (s.isEmpty() || s.equals("{") || s.equals("}") || s.equals("},")) {
                section = s.startsWith("}") ? null : section;
                continue;
            }
            Matcher m = ENTRY.matcher(s);
            if (!m.matches()) {
                skipped.add(source + ":" + (n + 1) + ": " + s);
            } else if (m.group(2).equals("{")) {
                section = m.group(1).strip();
                sections.putIfAbsent(section, new LinkedHashMap<>());
            } else {
                sections.computeIfAbsent(section == null ? "" : section, k -> new LinkedHashMap<>()).put(m.group(1).strip(), unquote(m.group(2)));
            }
        }
        Map<String, String> info = sections.getOrDefault("test_info", Map.of());
        Map<String, String> results = sections.getOrDefault("results", Map.of());
        if (info.isEmpty() && results.isEmpty()) {
            throw new InputException(source + ": not a perftest --out_json file (no 'test_info' or 'results' section); give the file "
                    + "ib_write_bw --out_json wrote (perftest_out.json), unedited");
        }
        return build(info, results, skipped, source);
    }

    private static PerftestOutput build(Map<String, String> info, Map<String, String> results, List<String> skipped, String source) {
        Map<String, String> header = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        info.forEach((k, v) -> {
            if (k.startsWith("WARNING")) {
                warnings.add("WARNING: " + v);
            } else if (!k.equals("test")) {
                header.put(HEADER_NAMES.getOrDefault(k, k), v);
            }
        });
        Fact<String> test = info.containsKey("test") ? Fact.of(info.get("test")) : Fact.absent("no 'test' in test_info");
        List<PerftestOutput.Row> rows = new ArrayList<>();
        List<PerftestOutput.LatencyRow> latency = new ArrayList<>();
        List<String> columns = new ArrayList<>(results.keySet());
        Double size = number(results.get("MsgSize"));
        Double iterations = number(results.get("n_iterations"));
        Double peak = number(results.get("BW_peak"));
        Double average = number(results.get("BW_average"));
        if (size != null && iterations != null && peak != null && average != null) {
            Double rate = number(results.get("MsgRate"));
            Map<String, Double> extra = new LinkedHashMap<>();
            results.forEach((k, v) -> {
                if (!List.of("MsgSize", "n_iterations", "BW_peak", "BW_average", "MsgRate").contains(k) && number(v) != null) {
                    extra.put(k, number(v));
                }
            });
            rows.add(new PerftestOutput.Row(size.longValue(), iterations.longValue(), peak, average,
                    rate == null ? Fact.absent("no MsgRate") : Fact.of(rate), extra));
        } else if (size != null && iterations != null && (results.containsKey("t_avg") || results.containsKey("t_min"))) {
            latency.add(new PerftestOutput.LatencyRow(size.longValue(), iterations.longValue(), value(results, "t_min"), value(results, "t_max"),
                    value(results, "t_typical"), value(results, "t_avg"), value(results, "t_stdev"), value(results, "percentile_99"),
                    value(results, "percentile_99.9"), value(results, "tps_average"), cpu(results)));
        } else if (!results.isEmpty()) {
            warnings.add("the results hold no message size and rows (" + String.join(", ", results.keySet()) + "): a run with --output="
                    + "bandwidth, message_rate or latency writes only its one figure; it is kept in the header as results.*");
            results.forEach((k, v) -> header.put("results." + k, v));
        }
        boolean duplex = test.orElse("").contains("Bidirectional") || "RawEth".equals(header.get("Connection type")) && test.orElse("").contains("Latency");
        Fact<String> role = header.containsKey("TX depth") && !duplex ? Fact.of("client")
                : Fact.absent("the --out_json file does not record the side" + (header.containsKey("RX depth") ? " (RX depth: a send server?)" : ""));
        Fact<String> gpu = info.containsKey("cuda_device") ? Fact.of("CUDA device " + info.get("cuda_device"))
                : Fact.absent("no cuda_device in test_info (host memory, or a perftest that does not record it)");
        return new PerftestOutput(test, header, gpu, "MiB/sec or Gb/sec (the --out_json file does not record whether --report_gbits was given)",
                rows, warnings, List.of(), role, Fact.absent("the --out_json file does not record the GPU's PCI address"),
                Fact.absent("the --out_json file does not record how GPU memory was registered"), latency, columns, skipped,
                rows.size() + latency.size() > 0 ? (rows.size() + latency.size()) + " result rows" : "no result: the --out_json file holds no result row",
                Map.of());
    }

    private static Map<String, Double> cpu(Map<String, String> results) {
        Double cpu = number(results.get("CPU_util"));
        return cpu == null ? Map.of() : Map.of("CPU_util", cpu);
    }

    private static Fact<Double> value(Map<String, String> results, String key) {
        Double v = number(results.get(key));
        return v == null ? Fact.absent("no '" + key + "' in results") : Fact.of(v);
    }

    /** %lf and %.2f values; "nan" and "inf" (a run that measured nothing) are no number. */
    private static Double number(String v) {
        if (v == null || !v.matches("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?")) {
            return null;
        }
        return Double.parseDouble(v);
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
