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
 * Reads perftest's text output line by line (the printf calls of perftest_parameters.c ctx_print_test_info and
 * print_report_*, cuda_memory.c, perftest_resources.c): every line is read, known as one of perftest's informational
 * lines, or listed as not understood.
 */
final class PerftestReader {

    /** "RDMA_Write BW Test", "Send Bidirectional BW Test", "Atomic FETCH_AND_ADD Latency Test", "Send Multicast BW Test". */
    private static final Pattern TITLE = Pattern.compile("^\\s*((?:Send|Send_imm|RDMA_Write|RDMA_Write_imm|RDMA_Read|Atomic|Raw|RawEth)\\b.*\\bTest)\\s*$");
    private static final Pattern FIELD = Pattern.compile("(\\S[^:\\t]*?)\\s*:\\s*(\\S[^\\t]*?)(?=\\s{2,}|\\t|$)");
    private static final Pattern GPU = Pattern.compile("device name = \\[(.+)]");
    /** cuda_memory.c: "CUDA device %d: PCIe address is %02X:%02X", then "Picking device No. %d". */
    private static final Pattern GPU_LISTED = Pattern.compile("^CUDA device (\\d+): PCIe address is (\\S+)");
    private static final Pattern GPU_PICKED = Pattern.compile("^Picking device No\\. (\\d+)");
    /** --use_cuda_bus_id: "Finding PCIe BUS %s". */
    private static final Pattern GPU_BUS = Pattern.compile("^Finding PCIe BUS (\\S+)");
    /** What perftest prints when it registers GPU memory as a DMA-BUF (cuda_memory.c, perftest_resources.c). */
    private static final List<String> DMABUF = List.of("using DMA-BUF for GPU buffer", "Calling ibv_reg_dmabuf_mr(", "Calling mlx5dv_reg_dmabuf_mr(",
            "Calling ibv_reg_mr_ex with dmabuf(", "dmabuf export addr");
    private static final List<String> GPU_MEMORY = List.of("cuMemAlloc()", "allocated GPU buffer", "device name = [");
    private static final List<String> ERRORS = List.of("Couldn't", "Failed to", "Unable to", "failed to", "Error", "error:", "Fail to",
            "DMA-BUF is not supported", "OFED stack does not support DMA-BUF", "DMABUF requested but not supported", "Found Incompatibility",
            "No such device", "cuMemAlloc error", "cuInit(0) returned");
    private static final List<String> WARNINGS = List.of("WARNING", "Warning:", "Requested mtu is higher", "not PCIe relaxed ordering",
            "Conflicting CPU frequency", "Changing to active mtu", "inline size set to 0");
    /** perftest's informational lines: nothing in them for the result. */
    private static final List<String> KNOWN = List.of("*", "---", "local address:", "remote address:", "GID:", "initializing CUDA",
            "Listing all CUDA devices", "creating CUDA Ctx", "making it the current CUDA Ctx", "CUDA device integrated:", "destroying current CUDA Ctx",
            "deallocating", "Waiting for client rdma_cm QP to connect", "Please run the same command", "Picking GPU number", "Using data direct device",
            "stopping CUDA gpu touch", "Starting GPU touching", "Test with events", "MultiCast runs on UD", "#, usec", "#, cycles", "hipMalloc()",
            "allocated ");

    private final String source;
    private Fact<String> test = Fact.absent("no test title line");
    private final Map<String, String> header = new LinkedHashMap<>();
    private Fact<String> gpu = Fact.absent("host memory (no --use_cuda)");
    private final Map<String, String> listedGpus = new LinkedHashMap<>();
    private Fact<String> picked = Fact.absent("no 'Picking device No.' line");
    private Fact<String> busId = Fact.absent("no --use_cuda_bus_id");
    private boolean gpuMemory;
    private boolean dmabuf;
    private boolean waitingBanner;
    private PerftestTable table;
    private String unit;
    private final List<PerftestOutput.Row> rows = new ArrayList<>();
    private final List<PerftestOutput.LatencyRow> latencyRows = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
    private int samples;
    private int titles;
    private boolean recognised;

    PerftestReader(String source) {
        this.source = source;
    }

    PerftestOutput read(List<String> lines) {
        for (int n = 0; n < lines.size(); n++) {
            line(lines.get(n), n + 1);
        }
        if (!recognised) {
            throw new InputException(source + ": not perftest output (no test title such as 'RDMA_Write BW Test', no '#bytes #iterations' "
                    + "table, no perftest error); give the output of ib_write_bw, ib_read_bw, ib_send_bw or an ib_*_lat test");
        }
        if (samples > 0) {
            warnings.add(samples + " per-iteration latency samples (-U or -H) not read: the table row summarises them");
        }
        if (gpuMemory && !gpu.isValue()) {
            gpu = Fact.absent("GPU memory was allocated, but the '[pid = …] device name = […]' line is not in the text");
        }
        return new PerftestOutput(test, header, gpu, unit == null ? "none" : unit, rows, warnings, errors, role(), gpuAddress(),
                registration(), latencyRows, table == null ? List.of() : table.columns(), skipped);
    }

    private void line(String line, int number) {
        String s = line.strip();
        Matcher m;
        if (s.isEmpty()) {
            return;
        }
        if ((m = TITLE.matcher(line)).matches()) {
            titles++;
            if (titles == 2) {
                warnings.add("more than one perftest output in this text (a second '" + m.group(1) + "' title): the server's and the "
                        + "client's pasted together, or several runs; their header fields and rows are read as one");
            }
            test = test.isValue() ? test : Fact.of(m.group(1));
            table = null; // a new output: its header block comes before its table
            recognised = true;
        } else if (PerftestTable.isHeader(s)) {
            table = PerftestTable.of(s);
            recognised = true;
            if (table == null) {
                skipped.add(source + ":" + number + ": " + s + " (a table header with columns perftest does not print)");
            } else if (table.bandwidth()) {
                unit = table.unit();
            }
        } else if (table != null && Character.isDigit(s.charAt(0)) && !s.contains(",")) {
            row(s, number);
        } else if (WARNINGS.stream().anyMatch(s::contains)) {
            warnings.add(s);
        } else if (ERRORS.stream().anyMatch(s::startsWith)) {
            errors.add(PerftestOutput.meaning(s));
            recognised = true;
        } else if (!gpuLine(s) && !headerField(s) && !known(s)) {
            skipped.add(source + ":" + number + ": " + s);
        }
    }

    private void row(String s, int number) {
        Map<String, Double> cells = table.cells(s);
        if (cells == null) {
            skipped.add(source + ":" + number + ": " + s + " (" + table.misfit(s) + ")");
            return;
        }
        if (table.latency()) {
            PerftestOutput.LatencyRow r = table.latencyRow(cells);
            if (r != null) {
                latencyRows.add(r);
                return;
            }
        } else if (table.bandwidth()) {
            PerftestOutput.Row r = table.bandwidthRow(cells);
            if (r != null) {
                rows.add(r);
                return;
            }
        }
        skipped.add(source + ":" + number + ": " + s + " (a row of a table this reader does not read: " + String.join(" ", table.columns()) + ")");
    }

    /** The --use_cuda lines: the device list, the pick, the device name, the allocation and how it was registered. */
    private boolean gpuLine(String s) {
        Matcher m;
        if ((m = GPU_LISTED.matcher(s)).find()) {
            listedGpus.put(m.group(1), m.group(2));
        } else if ((m = GPU_PICKED.matcher(s)).find()) {
            picked = Fact.of(m.group(1));
        } else if ((m = GPU_BUS.matcher(s)).find()) {
            busId = Fact.of(m.group(1));
        } else if ((m = GPU.matcher(s)).find()) {
            gpu = Fact.of(m.group(1));
            gpuMemory = true;
        } else if (DMABUF.stream().anyMatch(s::contains)) {
            dmabuf = true;
        } else if (GPU_MEMORY.stream().anyMatch(s::contains)) {
            gpuMemory = true;
        } else {
            return false;
        }
        return true;
    }

    /** " Dual-port       : OFF\t\tDevice         : mlx5_0": one or two fields of the header block. */
    private boolean headerField(String s) {
        if (!s.contains(":") || !test.isValue() || table != null || KNOWN.stream().anyMatch(s::startsWith)) {
            return false;
        }
        Matcher f = FIELD.matcher(s); // perftest indents by one space; pastes also shift or strip it
        boolean any = false;
        while (f.find()) {
            header.put(f.group(1).strip(), f.group(2).strip());
            any = true;
        }
        return any;
    }

    private boolean known(String s) {
        if (s.matches("\\d+, \\S+")) { // "%d, %g": a latency sample of -U/-H
            samples++;
            return true;
        }
        if (s.contains("Waiting for client to connect")) {
            waitingBanner = true;
            return true;
        }
        return KNOWN.stream().anyMatch(s::startsWith) || s.matches("\\[pid = \\d+, dev = \\d+].*");
    }

    /**
     * The side the text was printed on. The server prints the waiting banner; ctx_print_test_info prints "TX depth" only
     * on the client or in a bidirectional test (perftest_parameters.c: machine == CLIENT || duplex, since v4.1).
     */
    private Fact<String> role() {
        if (titles > 1) {
            return Fact.absent("the text holds " + titles + " perftest outputs (server and client together?), no single side");
        }
        if (waitingBanner) {
            return Fact.of("server");
        }
        if (header.isEmpty()) {
            return Fact.absent("no header block and no waiting banner to tell the side");
        }
        boolean bidirectional = test.isValue() && test.get().contains("Bidirectional");
        if (header.containsKey("TX depth")) {
            return bidirectional ? Fact.absent("a bidirectional test prints TX depth on both sides, and no waiting banner was pasted")
                    : Fact.of("client");
        }
        return bidirectional ? Fact.absent("a bidirectional test without TX depth line") : Fact.of("server");
    }

    private Fact<String> gpuAddress() {
        if (busId.isValue()) {
            return busId;
        }
        if (picked.isValue() && listedGpus.containsKey(picked.get())) {
            return Fact.of(listedGpus.get(picked.get()));
        }
        if (listedGpus.size() == 1 && !picked.isValue()) {
            return Fact.of(listedGpus.values().iterator().next());
        }
        return listedGpus.isEmpty() ? Fact.absent(gpuMemory ? "the CUDA device list was not pasted" : "host memory (no --use_cuda)")
                : Fact.absent("several CUDA devices listed and no 'Picking device No.' line");
    }

    private Fact<String> registration() {
        if (dmabuf) {
            return Fact.of("dma-buf");
        }
        if (gpuMemory) {
            return Fact.of("peer memory");
        }
        return Fact.absent("host memory (no --use_cuda)");
    }
}
