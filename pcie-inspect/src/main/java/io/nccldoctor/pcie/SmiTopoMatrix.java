package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.read.QuotedLines;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The matrix of {@code nvidia-smi topo -m}, as pasted into a ticket: the newer layout (GPU0… NIC0… columns and a
 * "NIC Legend" naming mlx5_N), the older one (mlx5_N as column names), tab- or space-separated, with or without the
 * terminal's underline escapes, with CPU and NUMA affinity columns.
 *
 * @param devices   row/column labels in order (GPU0, NIC0, or mlx5_0 in the old layout)
 * @param cells     label → label → value as printed (X, PIX, PXB, PHB, NODE, SYS, NV12 …)
 * @param nicLegend NIC0 → mlx5_0
 * @param gpuNumaId the "GPU NUMA ID" column of drivers since R535 (N/A unless the GPU memory is a NUMA node, as on
 *                  Grace Hopper)
 * @param skipped   input lines that were not understood, with their line numbers
 * @param matrix    "topo -m" (link types between devices), "topo -mp" (the same matrix for PCIe paths only: NVLink is not
 *                  shown, so a GPU pair's cell is its PCIe path and says nothing of NVLink between them; told from the
 *                  command line pasted above the matrix) or "topo -p2p" (the P2P status matrix of {@code nvidia-smi topo
 *                  -p2p r|w|n|a|p}: OK, NS …, which says whether peer-to-peer works, not how the devices are linked)
 */
public record SmiTopoMatrix(List<String> devices, Map<String, Map<String, String>> cells, Map<String, String> cpuAffinity,
                            Map<String, String> numaAffinity, Map<String, String> gpuNumaId, Map<String, String> nicLegend,
                            List<String> skipped, String matrix) {

    /** The snapshot section a pasted matrix is kept in, when no PCI tree was read ({@code report} of the text alone). */
    public static final String KEY = "nvidiaSmiTopo";
    public static final String LINKS = "topo -m";
    public static final String P2P = "topo -p2p";
    /**
     * `nvidia-smi topo -mp` / `--matrix_pci`: "Display the GPUDirect communication matrix for the system (PCI Only)", as
     * `nvidia-smi topo -h` words it (NVIDIA's nvidia-smi man page since driver 367, TOPOLOGY OPTIONS).
     */
    public static final String PCI = "topo -mp";
    /** The command line that printed the matrix, after any prompt: `nvidia-smi topo -mp` or `--matrix_pci` among its options. */
    private static final Pattern COMMAND = Pattern.compile("nvidia-smi\\s+topo\\b(.*)$");
    private static final Pattern PCI_OPTION = Pattern.compile("(?:^|\\s)(?:-mp|--matrix_pci)(?=\\s|$)");

    private static final String HEADERLESS = "no header line above the rows";
    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");
    /**
     * The mark a paste puts before every line: a Markdown quote ("> ") or a shell comment ("# ", a script that keeps the
     * matrix as comments under its `# srun … nvidia-smi topo -m`). nvidia-smi starts no line of the matrix with either.
     */
    private static final Pattern QUOTE = Pattern.compile("^\\s*(?:> ?|#(?: |$))");
    private static final Pattern SPLIT = Pattern.compile("\t+|\\s{2,}");
    /** GPUn, NICn, or an RDMA device name as the old layout prints it (mlx5_0, bnxt_re0, irdma1, rdmap16s27, cxi0). */
    private static final Pattern LABEL = Pattern.compile("(GPU\\d+|NIC\\d+|[a-z][a-z0-9_]*\\d+)");
    /** The columns after the matrix that this reader knows, as nvidia-smi names them. */
    /** One label among labels written without a separator: "GPU1" in "GPU1GPU2", "mlx5_0" in "GPU7mlx5_0". */
    private static final Pattern RUN_TOGETHER = Pattern.compile("GPU\\d+|NIC\\d+|[a-z][a-z0-9_]*?\\d+(?=GPU|NIC|[a-z]|$)");
    private static final List<String> TAIL = List.of("CPU Affinity", "NUMA Affinity", "GPU NUMA ID");
    private static final Pattern VALUE = Pattern.compile("X|PIX|PXB|PHB|NODE|SYS|SOC|NV\\d+|C2C");
    /** Unknown header columns listed one by one; the rest are counted. */
    private static final int UNREAD_SHOWN = 20;
    private static final Pattern LEGEND = Pattern.compile("^\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*$");
    /**
     * The P2P status codes of `topo -p2p`, as the legend nvidia-smi prints under that matrix names them; newer drivers
     * add "DR = Disabled by regkey" (corpus/nvidia-smi-topo/nvidia-smi-topo-p2p-2x-rtx5090-gns-dr-legend-club3090.txt).
     */
    private static final Pattern P2P_VALUE = Pattern.compile("OK|CNS|GNS|TNS|NS|DR|U");

    /** True for the P2P status matrix of `topo -p2p`, whose cells are no link types. */
    public boolean p2p() {
        return P2P.equals(matrix);
    }

    /** True for rows pasted without their header line: the columns were named from the rows (SmiBareRows). */
    public boolean headerless() {
        return skipped.stream().anyMatch(s -> s.contains(HEADERLESS));
    }

    /** True for `topo -mp`: PCIe paths only, NVLink not shown. */
    public boolean pciOnly() {
        return PCI.equals(matrix);
    }

    /** The name of a device label: NIC0 → mlx5_0 through the legend, anything else as it is. */
    public String name(String label) {
        return nicLegend.getOrDefault(label, label);
    }

    public static SmiTopoMatrix parse(List<String> raw, String source) {
        List<String> lines = QuotedLines.unquoted(raw.stream().map(l -> ANSI.matcher(l).replaceAll("")).toList(), QUOTE);
        int header = header(lines, source);
        boolean bare = SmiBareRows.isRow(lines.get(header));
        List<String> devices = new ArrayList<>();
        List<String> tail = new ArrayList<>();
        SmiBareRows.Columns named = bare ? SmiBareRows.columns(lines, header, source) : null;
        if (bare) {
            devices.addAll(named.labels());
        } else {
            headerColumns(lines.get(header), devices, tail);
        }
        Rows rows = new Rows(devices, tail, bare);
        List<String> unread = tail.stream().filter(t -> !TAIL.contains(t)).toList();
        unread.stream().limit(UNREAD_SHOWN).forEach(t -> rows.skipped.add((header + 1) + ": column '" + t + "' is not read"));
        if (unread.size() > UNREAD_SHOWN) {
            rows.skipped.add((header + 1) + ": " + (unread.size() - UNREAD_SHOWN) + " more columns are not read");
        }
        int notes = rows.skipped.size();
        for (int i = bare ? header : header + 1; i < lines.size(); i++) {
            rows.line(lines.get(i), i + 1);
        }
        if (bare) {
            // only GPU rows carry values after the matrix; NIC rows end at their last cell (nvidia-smi prints no affinity for a NIC)
            rows.skipped.add(notes, (header + 1) + ": " + HEADERLESS + ": the columns were named " + named.how() + "; "
                    + (rows.unnamedValues.isEmpty() ? "no row has values after the matrix"
                    : "the values after the matrix (CPU and NUMA affinity) of " + String.join(", ", rows.unnamedValues)
                    + " have no column names, so they are not read"));
        }
        if (rows.cells.isEmpty()) {
            throw new InputException(source + ": a topology header but no matrix rows below it (line " + (header + 1) + ")");
        }
        boolean p2p = rows.keepP2pStatus();
        return new SmiTopoMatrix(devices, rows.cells, rows.column("CPU Affinity"), rows.column("NUMA Affinity"),
                rows.column("GPU NUMA ID"), rows.legend, rows.skipped, p2p ? P2P : kind(lines, header, rows));
    }

    /** The header's device labels, then the names of the columns after the matrix. */
    private static void headerColumns(String line, List<String> devices, List<String> tail) {
        Set<String> seen = new HashSet<>();
        for (String token : SPLIT.split(line.strip())) {
            List<String> labels = tail.isEmpty() ? labels(token.strip()) : List.of();
            // a label printed twice ends the matrix: nvidia-smi names each device once (a pasted line repeated is not a bigger matrix)
            if (!labels.isEmpty() && labels.stream().allMatch(seen::add)) {
                devices.addAll(labels);
            } else {
                tail.add(token.strip());
            }
        }
    }

    /**
     * "topo -mp" when the last `nvidia-smi topo` command line above the matrix asks for it, else "topo -m". An NVLink
     * cell, which `-mp` never prints, is listed, and the matrix taken as `-m` (the command line belongs to another output).
     */
    private static String kind(List<String> lines, int header, Rows rows) {
        String options = null;
        for (int i = 0; i < header; i++) {
            Matcher m = COMMAND.matcher(lines.get(i));
            options = m.find() ? m.group(1) : options;
        }
        if (options == null || !PCI_OPTION.matcher(options).find()) {
            return LINKS;
        }
        List<String> nvlink = rows.cells.entrySet().stream().flatMap(r -> r.getValue().entrySet().stream()
                .filter(c -> c.getValue().startsWith("NV")).map(c -> r.getKey() + "/" + c.getKey() + " " + c.getValue())).toList();
        if (nvlink.isEmpty()) {
            return PCI;
        }
        rows.skipped.add((header + 1) + ": the command line above asks for `topo -mp` (PCIe paths only), but the matrix holds NVLink "
                + "cells (" + nvlink.get(0) + (nvlink.size() > 1 ? ", …" : "") + "), which only `topo -m` prints: read as `topo -m`");
        return LINKS;
    }

    /**
     * The device labels of one header cell: "GPU0"; "GPU0 GPU1" when a paste collapsed the padding to one space; or
     * "GPU0GPU1GPU2mlx5_0" when it lost the separators altogether (the rows keep theirs). Empty for any other cell.
     */
    private static List<String> labels(String token) {
        if (LABEL.matcher(token).matches()) {
            return List.of(token);
        }
        List<String> out = new ArrayList<>();
        for (String word : token.split("\\s+")) {
            Matcher m = RUN_TOGETHER.matcher(word);
            int at = 0;
            while (m.find() && m.start() == at) {
                out.add(m.group());
                at = m.end();
            }
            if (at != word.length()) {
                return List.of();
            }
        }
        return out;
    }

    /**
     * The header line; else, when the text has matrix rows but no header, the first row: GPU0's, or the first of a
     * fragment further down (NIC30 … NIC33 of a 42-NIC matrix).
     */
    private static int header(List<String> lines, String source) {
        int firstRow = -1;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.startsWith("GPU0") && (t.contains("CPU Affinity") || SPLIT.split(t).length > 1)) {
                if (!SmiBareRows.isRow(t)) {
                    return i;
                }
                firstRow = firstRow < 0 ? i : firstRow;
            }
        }
        if (firstRow >= 0) {
            return firstRow;
        }
        for (int i = 0; i < lines.size(); i++) {
            if (SmiBareRows.isRow(lines.get(i))) {
                return i;
            }
        }
        throw new InputException(source + ": no nvidia-smi topology header (a line starting with GPU0 and naming "
                + "CPU Affinity); paste the output of `nvidia-smi topo -m`");
    }

    /** The rows below the header: cells, the columns after the matrix by their header names, the NIC legend. */
    private static final class Rows {
        final List<String> devices;
        final List<String> tail;
        final Map<String, Map<String, String>> cells = new LinkedHashMap<>();
        final Map<String, Map<String, String>> columns = new LinkedHashMap<>();
        final Map<String, String> legend = new LinkedHashMap<>();
        final List<String> skipped = new ArrayList<>();
        /** P2P status cells as they were read ("line: row/column value"), until the matrix is known to be `topo -p2p`. */
        final List<String[]> p2pCells = new ArrayList<>();
        /** Rows without a header line: the values after the matrix have no column names (said once, not per row). */
        final boolean bare;
        /** The rows without a header line that hold values after the matrix, which have no column names. */
        final List<String> unnamedValues = new ArrayList<>();
        int linkCells;

        Rows(List<String> devices, List<String> tail, boolean bare) {
            this.devices = devices;
            this.tail = tail;
            this.bare = bare;
            tail.forEach(t -> columns.put(t, new LinkedHashMap<>()));
        }

        Map<String, String> column(String name) {
            return columns.getOrDefault(name, Map.of());
        }

        void line(String line, int number) {
            var legendLine = LEGEND.matcher(line);
            if (legendLine.matches()) {
                legend.put(legendLine.group(1), legendLine.group(2));
                return;
            }
            String[] tokens = line.strip().split("\\s+");
            if (tokens.length == 0 || !devices.contains(tokens[0])) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("Legend") && !t.contains("=") && !t.startsWith("NIC Legend")) {
                    skipped.add(number + ": " + t);
                }
                return;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < devices.size() && c + 1 < tokens.length; c++) {
                if (VALUE.matcher(tokens[c + 1]).matches()) {
                    row.put(devices.get(c), tokens[c + 1]);
                    linkCells += tokens[c + 1].equals("X") ? 0 : 1;
                } else if (P2P_VALUE.matcher(tokens[c + 1]).matches()) {
                    row.put(devices.get(c), tokens[c + 1]);
                    p2pCells.add(new String[] {Integer.toString(number), tokens[0], devices.get(c), tokens[c + 1]});
                } else {
                    skipped.add(number + ": unknown cell '" + tokens[c + 1] + "' for " + tokens[0] + "/" + devices.get(c));
                }
            }
            if (tokens.length < devices.size() + 1) {
                skipped.add(number + ": row " + tokens[0] + " has " + (tokens.length - 1) + " of " + devices.size() + " cells (cut?)");
            }
            cells.put(tokens[0], row);
            tailValues(tokens, number);
        }

        /**
         * A matrix of P2P status cells only is `topo -p2p`; in a matrix of link types a P2P status is an unknown cell,
         * taken out of its row and listed, never read as a link.
         */
        boolean keepP2pStatus() {
            if (linkCells == 0 && !p2pCells.isEmpty()) {
                return true;
            }
            for (String[] c : p2pCells) {
                cells.get(c[1]).remove(c[2]);
                skipped.add(c[0] + ": unknown cell '" + c[3] + "' for " + c[1] + "/" + c[2] + " (a P2P status in a matrix of link types)");
            }
            return false;
        }

        /** Affinity values hold no spaces, so they are assigned by position only when there is one per column. */
        private void tailValues(String[] tokens, int number) {
            int values = tokens.length - 1 - devices.size();
            if (values > 0 && bare) {
                unnamedValues.add(tokens[0]);
            }
            if (values <= 0 || bare) {
                return; // NIC rows have no affinity columns
            }
            if (values != tail.size()) {
                skipped.add(number + ": row " + tokens[0] + " has " + values + " values after the matrix for " + tail.size()
                        + " columns (" + String.join(", ", tail.subList(0, Math.min(tail.size(), UNREAD_SHOWN)))
                        + (tail.size() > UNREAD_SHOWN ? ", …" : "") + "): not assigned");
                return;
            }
            for (int c = 0; c < values; c++) {
                columns.get(tail.get(c)).put(tokens[0], tokens[devices.size() + 1 + c]);
            }
        }
    }
}
