package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an NCCL_DEBUG=INFO log says, read as a stream (a multi-gigabyte log never sits in memory): NCCL versions,
 * the network chosen (NET/IB devices, NET/Socket, NET/OFI, plugins), channel connections by transport
 * (NET/IB/…/GDRDMA, P2P/IPC, P2P/CUMEM, SHM …), GPUDirect RDMA decisions with their distances (raw: they are decoded
 * with the version, reference/nccl-internals.md §3), communicators, algorithm/protocol choices, WARN lines with IB
 * completion status and vendor error, and PyTorch watchdog timeouts. Keeps counts and the first few examples.
 */
public record NcclLog(long lines, long ncclLines, Set<String> versions, List<String> networks, Map<String, Long> transports,
                      List<GdrLine> gdr, Map<Integer, Long> communicatorSizes, Map<String, Long> algorithms,
                      long warnings, List<String> firstWarnings, List<IbError> ibErrors, List<String> watchdogTimeouts) {

    /** "GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)": enabled, the GPU and HCA as printed, raw numbers. */
    public record GdrLine(boolean enabled, String gpu, String hca, int distance, int threshold, String line) {
    }

    /** "NET/IB : Got completion from peer 10.0.0.2<45678> with status=12 opcode=0 len=0 vendor err 129 (Recv)". */
    public record IbError(int status, int vendorErr, String line) {
    }

    static final int KEEP = 10;
    private static final Pattern VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)");
    private static final Pattern NET = Pattern.compile("NCCL INFO (NET/\\S+ : Using .*|Using network \\S+.*|NET/Plugin.*)$");
    private static final Pattern VIA = Pattern.compile(" via (\\S+)");
    private static final Pattern GDR = Pattern.compile("GPU Direct RDMA (Disabled|Enabled) for GPU (\\S+) / HCA (\\S+) \\(distance (\\d+) [<>]=? (\\d+)\\)");
    private static final Pattern COMM = Pattern.compile("nranks (\\d+) .*Init COMPLETE");
    private static final Pattern ALGO = Pattern.compile("(?:[Aa]lgorithm|[Aa]lgo) (\\w+)[ ,]+(?:[Pp]rotocol|proto) (\\w+)");
    private static final Pattern IB_ERR = Pattern.compile("status=(\\d+).*vendor err (\\d+)");

    public static NcclLog parse(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(in, file.toString());
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    public static NcclLog parse(BufferedReader in, String source) throws IOException {
        Builder b = new Builder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            b.accept(line);
        }
        if (b.ncclLines == 0 && b.watchdog.isEmpty()) {
            throw new InputException(source + ": not an NCCL debug log (no 'NCCL INFO' or 'NCCL WARN' line, no watchdog "
                    + "timeout); run with NCCL_DEBUG=INFO (NCCL_DEBUG_FILE=path.%h.%p writes one file per process)");
        }
        return b.build();
    }

    private static final class Builder {
        long lines;
        long ncclLines;
        final Set<String> versions = new LinkedHashSet<>();
        final List<String> networks = new ArrayList<>();
        final Map<String, Long> transports = new TreeMap<>();
        final List<GdrLine> gdr = new ArrayList<>();
        final Set<String> gdrSeen = new LinkedHashSet<>();
        final Map<Integer, Long> comms = new TreeMap<>();
        final Map<String, Long> algorithms = new LinkedHashMap<>();
        long warnings;
        final List<String> firstWarnings = new ArrayList<>();
        final List<IbError> ibErrors = new ArrayList<>();
        final List<String> watchdog = new ArrayList<>();

        void accept(String line) {
            lines++;
            if (line.contains("Watchdog caught collective operation timeout")) {
                if (watchdog.size() < KEEP) {
                    watchdog.add(line.strip());
                }
                return;
            }
            int at = line.indexOf("NCCL ");
            if (at < 0) {
                return;
            }
            boolean warn = line.startsWith("NCCL WARN", at);
            if (!warn && !line.startsWith("NCCL INFO", at)) {
                return;
            }
            ncclLines++;
            if (warn) {
                warnings++;
                if (firstWarnings.size() < KEEP) {
                    firstWarnings.add(line.strip());
                }
                if (line.contains("vendor err") && ibErrors.size() < KEEP) {
                    Matcher m = IB_ERR.matcher(line);
                    if (m.find()) {
                        ibErrors.add(new IbError(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), line.strip()));
                    }
                }
                return;
            }
            if (line.indexOf(" via ", at) > 0) {
                Matcher m = VIA.matcher(line);
                if (m.find()) {
                    transports.merge(m.group(1), 1L, Long::sum);
                }
            } else if (line.indexOf("NCCL version", at) > 0) {
                Matcher m = VERSION.matcher(line);
                if (m.find()) {
                    versions.add(m.group(1));
                }
            } else if (line.indexOf("GPU Direct RDMA", at) > 0) {
                Matcher m = GDR.matcher(line);
                if (m.find() && gdrSeen.add(m.group(1) + m.group(2) + "/" + m.group(3)) && gdr.size() < 64) {
                    gdr.add(new GdrLine(m.group(1).equals("Enabled"), m.group(2), m.group(3), Integer.parseInt(m.group(4)),
                            Integer.parseInt(m.group(5)), line.strip()));
                }
            } else if (line.indexOf("Init COMPLETE", at) > 0) {
                Matcher m = COMM.matcher(line);
                if (m.find()) {
                    comms.merge(Integer.parseInt(m.group(1)), 1L, Long::sum);
                }
            } else if (line.indexOf("NET/", at) > 0 || line.indexOf("Using network", at) > 0) {
                Matcher m = NET.matcher(line);
                if (m.find() && networks.size() < KEEP && !networks.contains(m.group(1).strip())) {
                    networks.add(m.group(1).strip());
                }
            } else if (line.indexOf("lgo", at) > 0) {
                Matcher m = ALGO.matcher(line);
                if (m.find()) {
                    algorithms.merge(m.group(1) + "/" + m.group(2), 1L, Long::sum);
                }
            }
        }

        NcclLog build() {
            return new NcclLog(lines, ncclLines, versions, networks, transports, gdr, comms, algorithms, warnings, firstWarnings,
                    ibErrors, watchdog);
        }
    }
}
