package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The columns of nvidia-smi's matrix pasted without its header line, told from the rows alone. nvidia-smi prints one row
 * per device in the order of its columns, each with X where its row meets its own column, so a row names the column its
 * X stands in. The columns are read only when every one of them is named so; a column no row names (a device whose
 * row is not in the text: a NIC, or a GPU cut off below) makes the matrix unreadable, and the refusal says which.
 */
final class SmiBareRows {

    private static final Pattern LABEL = Pattern.compile("GPU\\d+|NIC\\d+|[a-z][a-z0-9_]*\\d+");
    /** A matrix cell: a link type of `topo -m`, or a P2P status of `topo -p2p`. */
    private static final Pattern CELL = Pattern.compile("X|PIX|PXB|PHB|NODE|SYS|SOC|NV\\d+|C2C|OK|CNS|GNS|TNS|NS|U");

    private SmiBareRows() {
    }

    /** True for a matrix row ("GPU0  X  NV18 …"), which a header line ("GPU0  GPU1 …  CPU Affinity") never is. */
    static boolean isRow(String line) {
        String[] tokens = line.strip().split("\\s+");
        return tokens.length > 1 && LABEL.matcher(tokens[0]).matches() && CELL.matcher(tokens[1]).matches();
    }

    /** The device labels in column order, from the rows from line {@code first} on; refused when a column has no name. */
    static List<String> columns(List<String> lines, int first, String source) {
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
        if (!missing.isEmpty()) {
            throw new InputException(source + ":" + (first + 1) + ": matrix rows without their header line: " + named.size() + " of the "
                    + width + " columns are named by the row whose X stands in them (" + String.join(", ", named.values())
                    + "), but no row in the text names column" + (missing.size() > 1 ? "s " : " ") + ranges(missing)
                    + " (devices whose rows are not in the text, NICs or GPUs), so the columns cannot be told; paste the header "
                    + "line (GPU0 GPU1 … CPU Affinity) with the rows");
        }
        return List.copyOf(named.values());
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
