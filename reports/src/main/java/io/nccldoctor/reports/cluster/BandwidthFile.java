package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.csv.CsvReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bandwidth input: CSV (RFC 4180, {@link CsvReader}) with the header {@code host,label,busbw_gbps}, one measurement
 * per record, busbw in GB/s as nccl-tests prints it. Blank lines and lines starting with # are skipped; a label that
 * holds a comma is quoted ({@code "allreduce 1 GiB, 2 nodes"}), as any spreadsheet writes it (docs/cluster.md).
 */
final class BandwidthFile {

    static final String HEADER = "host,label,busbw_gbps";

    private BandwidthFile() {
    }

    /** Whether the first record is the header; false for anything that is not CSV at all (a JSON file, say). */
    static boolean looksLike(List<String> lines) {
        int first = 0;
        while (first < lines.size() && (lines.get(first).isBlank() || lines.get(first).strip().startsWith("#"))) {
            first++;
        }
        if (first == lines.size()) {
            return false;
        }
        try {
            return CsvReader.read(List.of(lines.get(first)), "", false).stream().findFirst().map(BandwidthFile::isHeader).orElse(false);
        } catch (InputException e) {
            return false;
        }
    }

    static List<Sample> parse(List<String> lines, String file) {
        List<Sample> out = new ArrayList<>();
        boolean header = false;
        for (CsvReader.Record r : CsvReader.read(lines, file, false)) {
            String at = file + ":" + r.line();
            List<String> f = r.fields();
            if (!header) {
                if (!isHeader(r)) {
                    throw new InputException(at + ": expected the header '" + HEADER + "' (docs/cluster.md), got '"
                            + String.join(",", f) + "'");
                }
                header = true;
                continue;
            }
            if (f.size() != 3) {
                throw new InputException(at + ": " + f.size() + " fields, expected 3 (" + HEADER + "; quote a field that holds a comma)");
            }
            String host = f.get(0);
            String label = f.get(1);
            if (host.isEmpty() || label.isEmpty()) {
                throw new InputException(at + ": empty " + (host.isEmpty() ? "host" : "label"));
            }
            out.add(new Sample(host, label, number(f.get(2).strip(), at), at));
        }
        if (!header) {
            throw new InputException(file + ": empty; a bandwidth file starts with the header '" + HEADER + "'");
        }
        return out;
    }

    private static boolean isHeader(CsvReader.Record r) {
        return String.join(",", r.fields()).replace(" ", "").toLowerCase(Locale.ROOT).equals(HEADER);
    }

    private static double number(String s, String at) {
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new InputException(at + ": busbw_gbps '" + s + "' is not a number (GB/s, with a decimal point)", e);
        }
        if (!Double.isFinite(v) || v < 0 || s.matches(".*[a-zA-Z].*")) {
            throw new InputException(at + ": busbw_gbps '" + s + "' is not a bandwidth (GB/s, zero or more)");
        }
        return v;
    }
}
