package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The matrix of {@code nvidia-smi topo -m}, as pasted into a ticket: the newer layout (GPU0… NIC0… columns and a
 * "NIC Legend" naming mlx5_N), the older one (mlx5_N as column names), tab- or space-separated, with or without the
 * terminal's underline escapes, with CPU and NUMA affinity columns.
 *
 * @param devices   row/column labels in order (GPU0, NIC0, or mlx5_0 in the old layout)
 * @param cells     label → label → value as printed (X, PIX, PXB, PHB, NODE, SYS, NV12 …)
 * @param nicLegend NIC0 → mlx5_0
 * @param skipped   input lines that were not understood, with their line numbers
 */
public record SmiTopoMatrix(List<String> devices, Map<String, Map<String, String>> cells, Map<String, String> cpuAffinity,
                            Map<String, String> numaAffinity, Map<String, String> nicLegend, List<String> skipped) {

    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");
    private static final Pattern SPLIT = Pattern.compile("\t+|\\s{2,}");
    private static final Pattern LABEL = Pattern.compile("(GPU\\d+|NIC\\d+|mlx\\d+_\\d+|[a-z]+[a-z0-9_]*_\\d+)");
    private static final Pattern VALUE = Pattern.compile("X|PIX|PXB|PHB|NODE|SYS|SOC|NV\\d+|C2C");
    private static final Pattern LEGEND = Pattern.compile("^\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*$");

    /** The name of a device label: NIC0 → mlx5_0 through the legend, anything else as it is. */
    public String name(String label) {
        return nicLegend.getOrDefault(label, label);
    }

    public static SmiTopoMatrix parse(List<String> raw, String source) {
        List<String> lines = raw.stream().map(l -> ANSI.matcher(l).replaceAll("")).toList();
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; i++) {
            String t = lines.get(i).strip();
            if (t.startsWith("GPU0") && (t.contains("CPU Affinity") || SPLIT.split(t).length > 1)) {
                header = i;
            }
        }
        if (header < 0) {
            throw new InputException(source + ": no nvidia-smi topology header (a line starting with GPU0 and naming "
                    + "CPU Affinity); paste the output of `nvidia-smi topo -m`");
        }
        List<String> devices = new ArrayList<>();
        for (String token : SPLIT.split(lines.get(header).strip())) {
            if (LABEL.matcher(token.strip()).matches()) {
                devices.add(token.strip());
            } else {
                break;
            }
        }
        Map<String, Map<String, String>> cells = new LinkedHashMap<>();
        Map<String, String> cpu = new LinkedHashMap<>();
        Map<String, String> numa = new LinkedHashMap<>();
        Map<String, String> legend = new LinkedHashMap<>();
        List<String> skipped = new ArrayList<>();
        for (int i = header + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            var legendLine = LEGEND.matcher(line);
            if (legendLine.matches()) {
                legend.put(legendLine.group(1), legendLine.group(2));
                continue;
            }
            String[] tokens = line.strip().split("\\s+");
            if (tokens.length == 0 || !devices.contains(tokens[0])) {
                if (!line.isBlank() && !line.strip().startsWith("Legend") && !line.contains("=") && !line.strip().startsWith("NIC Legend")) {
                    skipped.add((i + 1) + ": " + line.strip());
                }
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < devices.size() && c + 1 < tokens.length; c++) {
                if (VALUE.matcher(tokens[c + 1]).matches()) {
                    row.put(devices.get(c), tokens[c + 1]);
                } else {
                    skipped.add((i + 1) + ": unknown cell '" + tokens[c + 1] + "' for " + tokens[0] + "/" + devices.get(c));
                }
            }
            cells.put(tokens[0], row);
            if (tokens.length > devices.size() + 1) {
                cpu.put(tokens[0], tokens[devices.size() + 1]);
            }
            if (tokens.length > devices.size() + 2) {
                numa.put(tokens[0], tokens[devices.size() + 2]);
            }
        }
        if (cells.isEmpty()) {
            throw new InputException(source + ": a topology header but no matrix rows below it (line " + (header + 1) + ")");
        }
        return new SmiTopoMatrix(devices, cells, cpu, numa, legend, skipped);
    }
}
