package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The bandwidth input: CSV with the header {@code host,label,busbw_gbps}, one measurement per line, busbw in GB/s as
 * nccl-tests prints it. Blank lines and lines starting with # are skipped; fields are not quoted, so neither a host nor
 * a label may hold a comma (docs/cluster.md).
 */
final class BandwidthFile {

    static final String HEADER = "host,label,busbw_gbps";

    private BandwidthFile() {
    }

    /** Whether the first line that is neither blank nor a comment is the header. */
    static boolean looksLike(List<String> lines) {
        return lines.stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).findFirst()
                .map(BandwidthFile::isHeader).orElse(false);
    }

    static List<Sample> parse(List<String> lines, String file) {
        List<Sample> out = new ArrayList<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String at = file + ":" + (i + 1);
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!header) {
                if (!isHeader(line)) {
                    throw new InputException(at + ": expected the header '" + HEADER + "' (docs/cluster.md), got '" + line + "'");
                }
                header = true;
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != 3) {
                throw new InputException(at + ": " + f.length + " fields, expected 3 (" + HEADER + "; no commas inside a field)");
            }
            String host = f[0].strip();
            String label = f[1].strip();
            if (host.isEmpty() || label.isEmpty()) {
                throw new InputException(at + ": empty " + (host.isEmpty() ? "host" : "label"));
            }
            out.add(new Sample(host, label, number(f[2].strip(), at), at));
        }
        if (!header) {
            throw new InputException(file + ": empty; a bandwidth file starts with the header '" + HEADER + "'");
        }
        return out;
    }

    private static boolean isHeader(String line) {
        return line.replace(" ", "").toLowerCase(Locale.ROOT).equals(HEADER);
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
