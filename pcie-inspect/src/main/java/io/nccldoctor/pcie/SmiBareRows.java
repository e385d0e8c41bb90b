package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns of nvidia-smi's matrix pasted without its header line, told from the rows alone. nvidia-smi prints one row
 * per device in the order of its columns, each with X where its row meets its own column, so a row names the column its
 * X stands in. The columns are read when every one of them is named so, or else when nvidia-smi's own order names
 * them: it prints the GPUs first, GPU0 … GPUn-1 in columns 1 … n, then the NICs, NIC0 … NICm-1 (every matrix of the
 * corpus, nvidia-smi-topo/README.md), so a row NICk whose X stands in column c says there are c-1-k GPUs, and every
 * NIC row in the text must say the same. Otherwise a column no row names (a device whose row is not in the text: a NIC,
 * or a GPU cut off below) makes the matrix unreadable, and the refusal says which and why the order does not help.
 */
final class SmiBareRows {

    /**
     * The device labels in column order, and how they were named ("by where each row's X stands", or by nvidia-smi's
     * order and the rows that fix it).
     */
    record Columns(List<String> labels, String how) {
    }

    /** The GPU count that puts every named column in nvidia-smi's order, or -1 and why no count does. */
    private record Order(int gpus, String problem) {
    }

    private static final Pattern NUMBERED = Pattern.compile("(GPU|NIC)(\\d+)");

    private static final Pattern LABEL = Pattern.compile("GPU\\d+|NIC\\d+|[a-z][a-z0-9_]*\\d+");
    /** A matrix cell: a link type of `topo -m`, or a P2P status of `topo -p2p`. */
    private static final Pattern CELL = Pattern.compile("X|PIX|PXB|PHB|NODE|SYS|SOC|NV\\d+|C2C|OK|CNS|GNS|TNS|NS|DR|U");

    private SmiBareRows() {
    }

    /** True for a matrix row ("GPU0  X  NV18 …"), which a header line ("GPU0  GPU1 …  CPU Affinity") never is. */
    static boolean isRow(String line) {
        String[] tokens = line.strip().split("\\s+");
        return tokens.length > 1 && LABEL.matcher(tokens[0]).matches() && CELL.matcher(tokens[1]).matches();
    }

    /** The device labels in column order, from the rows from line {@code first} on; refused when a column has no name. */
    static Columns columns(List<String> lines, int first, String source) {
        Map<Integer, String> named = new TreeMap<>();
        int width = 0;
        for (int i = first; i < lines.size(); i++) {
            String[] tokens = lines.get(i).strip().split("\\s+");
            if (tokens.length < 2 || !LABEL.matcher(tokens[0]).matches()) {
                continue;
            }
            int cells = 0;
            int self = -1;
            while (cells + 1 < tokens.length && CELL.matcher(tokens[cells + 1]).matches()) {
                self = self < 0 && tokens[cells + 1].equals("X") ? cells : self;
                cells++;
            }
            width = Math.max(width, cells);
            if (self >= 0 && !named.containsValue(tokens[0])) {
                String before = named.putIfAbsent(self, tokens[0]);
                if (before != null) {
                    throw new InputException(source + ":" + (i + 1) + ": matrix rows without their header line, and rows " + before
                            + " and " + tokens[0] + " both stand X in column " + (self + 1) + ": the columns cannot be told; paste the "
                            + "header line (GPU0 GPU1 … CPU Affinity) with the rows");
                }
            }
        }
        List<String> missing = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            if (!named.containsKey(c)) {
                missing.add(Integer.toString(c + 1));
            }
        }
        if (missing.isEmpty()) {
            return new Columns(List.copyOf(named.values()), "by where each row's X stands");
        }
        Order order = order(named);
        if (order.gpus() < 0) {
            throw new InputException(source + ":" + (first + 1) + ": matrix rows without their header line: " + named.size() + " of the "
                    + width + " columns are named by the row whose X stands in them (" + String.join(", ", named.values())
                    + "), but no row in the text names column" + (missing.size() > 1 ? "s " : " ") + ranges(missing)
                    + " (devices whose rows are not in the text, NICs or GPUs), and nvidia-smi's order (GPUs, then NICs) does not name "
                    + "them either: " + order.problem() + "; so the columns cannot be told; paste the header line (GPU0 GPU1 … CPU "
                    + "Affinity) with the rows");
        }
        List<String> labels = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            labels.add(c < order.gpus() ? "GPU" + c : "NIC" + (c - order.gpus()));
        }
        Map.Entry<Integer, String> nic = named.entrySet().stream().filter(e -> e.getValue().startsWith("NIC")).findFirst().orElseThrow();
        return new Columns(labels, "by nvidia-smi's order, GPUs then NICs: " + nic.getValue() + "'s X stands in column " + (nic.getKey() + 1)
                + ", so columns 1-" + order.gpus() + " are GPU0-GPU" + (order.gpus() - 1) + " and " + (order.gpus() + 1) + "-" + width
                + " are NIC0-NIC" + (width - order.gpus() - 1) + " (" + named.size() + " of the " + width
                + " columns are named by their own row's X: " + String.join(", ", named.values()) + ")");
    }

    /**
     * How many GPU columns come first, from the rows named GPUk or NICk: GPUk's X must stand in column k+1, and every
     * NICk's X in column gpus+k+1 with one gpus for all. A label of the old layout (mlx5_0 as a column name) follows
     * no numbering, and without a NIC row nothing says where the GPUs end.
     */
    private static Order order(Map<Integer, String> named) {
        int gpus = -1;
        String fixedBy = null;
        for (Map.Entry<Integer, String> e : named.entrySet()) {
            Matcher m = NUMBERED.matcher(e.getValue());
            if (!m.matches()) {
                return new Order(-1, "row " + e.getValue() + " is named by its device, which no order numbers (the old layout)");
            }
            int k = Integer.parseInt(m.group(2));
            if (m.group(1).equals("GPU")) {
                if (k != e.getKey()) {
                    return new Order(-1, e.getValue() + "'s X stands in column " + (e.getKey() + 1) + ", not " + (k + 1));
                }
                continue;
            }
            int g = e.getKey() - k;
            if (g < 0 || gpus >= 0 && g != gpus) {
                return new Order(-1, e.getValue() + "'s X in column " + (e.getKey() + 1) + " puts NIC0 in column " + (g + 1)
                        + (gpus >= 0 ? ", " + fixedBy + "'s puts it in column " + (gpus + 1) : ""));
            }
            gpus = g;
            fixedBy = e.getValue();
        }
        if (gpus < 0) {
            return new Order(-1, "no NIC row's X in the text says where the GPU columns end");
        }
        for (Map.Entry<Integer, String> e : named.entrySet()) {
            if (e.getValue().startsWith("GPU") && e.getKey() >= gpus) {
                return new Order(-1, e.getValue() + "'s X in column " + (e.getKey() + 1) + " stands among the NIC columns " + fixedBy
                        + "'s gives");
            }
        }
        return new Order(gpus, null);
    }

    /** "8-20" for 8, 9, …, 20; "3, 5-6" for gaps. */
    private static String ranges(List<String> columns) {
        List<String> out = new ArrayList<>();
        int start = Integer.parseInt(columns.get(0));
        int end = start;
        for (int i = 1; i <= columns.size(); i++) {
            int c = i < columns.size() ? Integer.parseInt(columns.get(i)) : -1;
            if (c == end + 1) {
                end = c;
                continue;
            }
            out.add(start == end ? Integer.toString(start) : start + "-" + end);
            start = c;
            end = c;
        }
        return String.join(", ", out);
    }
}
