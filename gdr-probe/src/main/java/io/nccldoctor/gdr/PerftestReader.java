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
    private static final Pattern GPU = Pattern.compile("device name = \\[(.+)]");
    /** cuda_memory.c:94 "[pid = %d, dev = %d] device name = [%s]" with the text ending inside the name. */
    private static final Pattern GPU_CUT = Pattern.compile("device name = \\[([^\\]]+)$");
    /** cuda_memory.c:85, musa_memory.c:71, mlu_memory.c:86: "CUDA device %d: PCIe address is %02X:%02X", then "Picking device No. %d". */
    private static final Pattern GPU_LISTED = Pattern.compile("^(?:CUDA|MUSA|MLU) device (\\d+): PCIe address is (\\S+)");
    private static final Pattern GPU_PICKED = Pattern.compile("^Picking device No\\. (\\d+)");
    /** --use_cuda_bus_id: "Finding PCIe BUS %s". */
    private static final Pattern GPU_BUS = Pattern.compile("^(?:Finding PCIe BUS|Got PCIe address of:) (\\S+)");
    /** rocm_memory.c:64: "Using ROCm Device with ID: %d, Name: %s, PCI Bus ID: 0x%x, GCN Arch: %s". */
    private static final Pattern ROCM = Pattern.compile("^Using ROCm Device with ID: (\\d+), Name: (.+?), PCI Bus ID: 0x([0-9a-fA-F]+)");
    /**
     * hl_memory.c:134 (Habana Gaudi): the buffer is always exported as a DMA-BUF (hlthunk_device_mapped_memory_export_dmabuf_fd,
     * :127); neuron_memory.c:33-37 (AWS Neuron) prints its cores, then nothing about the buffer.
     */
    private static final String HABANA = "bytes of accelerator buffer at";
    private static final String NEURON = "NEURON_RT_VISIBLE_CORES is";
    /** What perftest prints when it registers GPU memory as a DMA-BUF (cuda_memory.c, perftest_resources.c). */
    private static final List<String> DMABUF = List.of("using DMA-BUF for ", "Calling ibv_reg_dmabuf_mr(", "Calling mlx5dv_reg_dmabuf_mr(",
            "Calling ibv_reg_mr_ex with dmabuf(", "dmabuf export addr");
    private static final List<String> GPU_MEMORY = List.of("cuMemAlloc()", "allocated GPU buffer", "device name = [", "bytes of GPU buffer",
            "bytes of MLU buffer", "allocated MUSA buffer", "hipMalloc()", "cnMalloc() of a");
    private static final List<String> ERRORS = List.of("Couldn't", "Failed to", "Unable to", "failed to", "Error", "error:", "Fail to",
            "DMA-BUF is not supported", "OFED stack does not support DMA-BUF", "DMABUF requested but not supported", "Found Incompatibility",
            "No such device", "cuMemAlloc error", "cuInit(0) returned",
            "Invalid Command line", "Requested ROCm device");
    private static final List<String> WARNINGS = List.of("WARNING", "Warning:", "Requested mtu is higher", "not PCIe relaxed ordering",
            "Conflicting CPU frequency", "Changing to active mtu", "inline size set to 0",
            "Min msg size for RawEth");
    /** perftest's informational lines: nothing in them for the result. */
    private static final List<String> KNOWN = List.of("---", "local address:", "remote address:", "GID:", "initializing CUDA",
            "Listing all CUDA devices", "creating CUDA Ctx", "making it the current CUDA Ctx", "CUDA device integrated:", "destroying current CUDA Ctx",
            "deallocating", "Waiting for client rdma_cm QP to connect", "Please run the same command", "Picking GPU number", "Using data direct device",
            "stopping CUDA gpu touch", "Starting GPU touching", "Test with events", "MultiCast runs on UD", "#, usec", "#, cycles",
            "allocated ", "initializing MLU", "initializing MUSA", "Listing all MLU devices", "Listing all MUSA devices", "creating MLU Ctx",
            "creating MUSA Ctx", "making it the current MLU Ctx", "making it the current MUSA Ctx", "destroying current MLU Ctx",
            "destroying current MUSA Ctx", "MUSA device integrated:", "|---");
    /** write_bw.c:120 and the other ib_* mains: "* Waiting for client to connect... *", alone on its line. */
    private static final Pattern BANNER = Pattern.compile("\\*?\\s*Waiting for client to connect\\.\\.\\.\\s*\\*?");
    /**
     * ctx_qp_create after ibv_create_qp (perftest_resources.c:3331-3334 at 00b55b6), with the TX depth and inline size on
     * the next line. From commit a066e91 (2018-03-07, V4.2-0.7) to 155d1e4 (2019-07-15, V4.4-0.7) it said "SQ" and was
     * printed whenever errno was ENOMEM after the call, also when the QP was created ("Fixed false error reporting on QP
     * creation"); since then it says "QP" and is printed only when the QP was not created.
     */
    private static final String SQ_TOO_BIG = "Requested SQ size might be too big";
    private static final String QP_TOO_BIG = "Requested QP size might be too big";
    private static final Pattern TX_DEPTH_NOTE = Pattern.compile("^Current TX depth is (\\d+) and\\s+inline size is (\\d+)\\s*\\.?$");
    /**
     * ctx_set_max_inline (perftest_resources.c) when ib_dev_name() knows no such HCA (rxe, pib, qib, hns...): perftest
     * sends without inline data from then on, inline size 0. On stderr, so other stderr text can follow on its line.
     */
    private static final String NO_INLINE = "Device not recognized to implement inline feature";
    /** Every *_bw.c and *_lat.c main after parser() failed (write_bw.c:72): the line above it says why. */
    private static final String PARSER_EXIT = "Parser function exited with Error";

    private static final String HOST = "host (no GPU memory line: perftest prints one for --use_cuda, --use_rocm and its other accelerators)";

    private final String source;
    private Fact<String> test = Fact.absent("no test title line");
    private final Map<String, String> header = new LinkedHashMap<>();
    private Fact<String> gpu = Fact.absent(HOST);
    private String accelerator;
    private String addressNote;
    private final Map<String, String> listedGpus = new LinkedHashMap<>();
    private Fact<String> picked = Fact.absent("no 'Picking device No.' line");
    private Fact<String> busId = Fact.absent("no --use_cuda_bus_id");
    private boolean gpuMemory;
    private boolean dmabuf;
    private boolean waitingBanner;
    private boolean interrupted;
    private boolean parserExit;
    private final List<PerftestCommandLine> commands = new ArrayList<>();
    private String lastSkipped;
    private PerftestTable table;
    private String unit;
    private final List<PerftestOutput.Row> rows = new ArrayList<>();
    private final List<PerftestOutput.LatencyRow> latencyRows = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
    private final PerftestCompletion completion = new PerftestCompletion();
    private final PerftestRawEthernet raw = new PerftestRawEthernet();
    private int samples;
    private int titles;
    /** Result tables begun ('#bytes' header lines), to tell several runs' tables pasted under one title. */
    private int tables;
    /** Rows whose cells a paste set in Markdown bold ("**5544.28**", perftest#65): read without the marks, and said. */
    private int boldRows;
    private boolean recognised;
    /** Lines in perftest's own wording (its warnings, its GPU lines). */
    private int ownLines;
    private boolean allocated;
    private String lastLine;
    /** The device name of a line the text ends inside: "[pid = 13194, dev = 1] device name = [NVIDIA H100". */
    private String cutName;

    PerftestReader(String source) {
        this.source = source;
    }

    PerftestOutput read(List<String> lines) {
        List<String> text = PerftestQuote.unquoted(lines);
        for (int n = 0; n < text.size(); n++) {
            line(text.get(n), n + 1);
        }
        // a run cut before its header block (perftest#280): the command line and what perftest printed after it, when
        // perftest's own lines outnumber the lines that are none of its (a README quoting a command is no output)
        recognised |= !commands.isEmpty() && ownLines > skipped.size();
        if (!recognised) {
            throw new InputException(source + ": not perftest output (no test title such as 'RDMA_Write BW Test', no '#bytes #iterations' "
                    + "table, no perftest error, no waiting banner"
                    + (commands.isEmpty() ? "" : ", only the command line " + commands.get(0).program())
                    + "); give the output of ib_write_bw, ib_read_bw, ib_send_bw or an ib_*_lat test");
        }
        peakNotMeasured();
        if (boldRows > 0) {
            warnings.add(boldRows + " result rows with cells set in Markdown bold ('**'): read without the marks, the figures as printed");
        }
        if (samples > 0) {
            warnings.add(samples + " per-iteration latency samples (-U or -H) not read: the table row summarises them");
        }
        gpu = memory();
        Fact<String> side = PerftestSide.of(titles, waitingBanner, header, test, commands);
        return new PerftestOutput(test, header, gpu, unit == null ? "none" : unit, rows, warnings, errors, side, gpuAddress(), registration(),
                latencyRows, table == null ? List.of() : table.columns(), skipped, outcome(), commandLine());
    }

    private void line(String line, int number) {
        String s = line.strip();
        if (s.isEmpty()) {
            return;
        }
        int before = skipped.size();
        lastLine = s;
        classify(line, s, number);
        lastSkipped = skipped.size() > before ? s : null;
    }

    private void classify(String line, String s, int number) {
        Matcher m;
        PerftestCommandLine command;
        if (s.equals("^C")) {
            interrupted = true; // the terminal's echo of Ctrl-C: the run was stopped by hand here
        } else if ((command = PerftestCommandLine.of(s)) != null) {
            commands.add(command);
        } else if ((m = TITLE.matcher(line)).matches()) {
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
            if (++tables == 2 && titles < 2) {
                warnings.add("more than one result table in this text (a second '#bytes' header, line " + number + ") under "
                        + (titles == 0 ? "no test title" : "one test title") + ": several runs pasted together; their rows are read as one list");
            }
            if (table == null) {
                skipped.add(source + ":" + number + ": " + s + " (a table header with columns perftest does not print)");
            } else if (table.bandwidth()) {
                unit = table.unit();
            }
        } else if (table != null && Character.isDigit(s.charAt(0)) && !s.contains(",")) {
            row(s, number);
        } else if (s.startsWith(PARSER_EXIT)) {
            parserExit();
        } else if (s.startsWith(SQ_TOO_BIG) || s.startsWith(QP_TOO_BIG) || TX_DEPTH_NOTE.matcher(s).matches()) {
            queueSize(s, number);
        } else if (completion.line(s, errors)) {
            recognised = true;
        } else if (s.startsWith(NO_INLINE)) {
            warnings.add(s + " (perftest does not know this HCA, so it sends without inline data: inline size 0, ctx_set_max_inline)");
            ownLines++;
        } else if (WARNINGS.stream().anyMatch(s::contains)) {
            warnings.add(s);
            ownLines++;
        } else if (ERRORS.stream().anyMatch(s::startsWith)) {
            errors.add(PerftestOutput.meaning(s));
            recognised = true;
        } else if (gpuLine(s)) {
            ownLines++;
        } else if (raw.line(s, header)) {
            ownLines++;
        } else if (!headerField(s) && !known(s)) {
            skipped.add(source + ":" + number + ": " + s);
        }
    }

    /**
     * The QP-size message and its TX depth line. The old "SQ" wording also came when the QP was created (see
     * {@link #SQ_TOO_BIG}), so it is a warning; the "QP" wording means ibv_create_qp failed with ENOMEM, an error.
     */
    private void queueSize(String s, int number) {
        Matcher depth = TX_DEPTH_NOTE.matcher(s);
        if (depth.matches()) {
            String figures = "; TX depth " + depth.group(1) + ", inline size " + depth.group(2);
            List<String> to = !errors.isEmpty() && errors.get(errors.size() - 1).startsWith(QP_TOO_BIG) ? errors
                    : !warnings.isEmpty() && warnings.get(warnings.size() - 1).startsWith(SQ_TOO_BIG) ? warnings : null;
            if (to == null) {
                skipped.add(source + ":" + number + ": " + s + " (the TX depth line without the queue-size message above it)");
            } else {
                to.set(to.size() - 1, to.get(to.size() - 1) + figures);
            }
            return;
        }
        recognised = true;
        if (s.startsWith(QP_TOO_BIG)) {
            errors.add(s + " (ibv_create_qp failed with ENOMEM: the queue pair was not created, perftest_resources.c:3331)");
        } else {
            warnings.add(s + " (perftest from 2018-03 to 2019-07, a066e91 to 155d1e4, printed this whenever errno was ENOMEM after "
                    + "creating the QP, also when the QP was created: the run went on if a header block follows)");
        }
    }

    /**
     * A BW peak of 0.00 beside a positive average is no measurement: with -D (duration) or -N (--noPeak) perftest sets
     * noPeak and prints the peak it never took as 0 (perftest_parameters.c parser: "WARNING: BW peak won't be measured
     * in this run" for -D). Said once, unless that warning is already in the text.
     */
    private void peakNotMeasured() {
        long zero = rows.stream().filter(r -> r.peak() == 0 && r.average() > 0).count();
        if (zero > 0 && warnings.stream().noneMatch(w -> w.contains("BW peak won't be measured"))) {
            warnings.add("BW peak 0.00 in " + zero + (zero == 1 ? " row" : " rows") + " with a positive average: perftest did not measure "
                    + "the peak (-D duration or -N --noPeak), so that column is no figure");
        }
    }

    /** The parser's reason is the line just above, which no other reading took: it moves from not understood to the error. */
    private void parserExit() {
        recognised = true;
        parserExit = true;
        String why = lastSkipped == null ? "its reason is not in the text" : lastSkipped;
        if (lastSkipped != null) {
            skipped.remove(skipped.size() - 1);
        }
        errors.add(PerftestOutput.meaning(why + ": perftest's parser rejected the command line ('" + PARSER_EXIT + "'), nothing ran"));
    }

    private void row(String line, int number) {
        String s = line.replace("**", "");
        Map<String, Double> cells = table.cells(s);
        if (cells == null) {
            skipped.add(source + ":" + number + ": " + line + " (" + table.misfit(s) + ")");
            return;
        }
        boolean read = false;
        if (table.latency()) {
            PerftestOutput.LatencyRow r = table.latencyRow(cells);
            read = r != null && latencyRows.add(r);
        } else if (table.bandwidth()) {
            PerftestOutput.Row r = table.bandwidthRow(cells);
            read = r != null && rows.add(r);
        }
        if (!read) {
            skipped.add(source + ":" + number + ": " + line + " (a row of a table this reader does not read: " + String.join(" ", table.columns()) + ")");
        } else if (!s.equals(line)) {
            boldRows++;
        }
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
        } else if ((m = GPU_CUT.matcher(s)).find()) {
            cutName = m.group(1);
        } else if ((m = ROCM.matcher(s)).find()) {
            gpu = Fact.of(m.group(2));
            gpuMemory = true;
            addressNote = "ROCm prints the GPU's PCI bus number only (0x" + m.group(3) + "), not its device number (rocm_memory.c:64)";
        } else if (s.contains(HABANA)) {
            accelerator = "Habana Gaudi memory; perftest names no device for it (hl_memory.c:134)";
            gpuMemory = true;
            dmabuf = true;
        } else if (s.contains("for device memory") || s.contains("bytes of device memory") || s.startsWith("Exported DM as dmabuf")) {
            accelerator = "the NIC's own device memory (--use_ib_dm_dmabuf, dm_memory.c:56-122), no GPU's";
        } else if (s.startsWith(NEURON)) {
            accelerator = "AWS Neuron memory; perftest names no device for it (neuron_memory.c:33-37)";
            gpuMemory = true;
        } else if (DMABUF.stream().anyMatch(s::contains)) {
            dmabuf = true;
        } else if (GPU_MEMORY.stream().anyMatch(s::contains)) {
            gpuMemory = true;
            allocated |= !s.contains("device name = [");
        } else {
            return false;
        }
        return true;
    }

    /** " Dual-port       : OFF\t\tDevice         : mlx5_0": one or two fields of the header block (PerftestHeader). */
    private boolean headerField(String s) {
        if (!s.contains(":") || !test.isValue() || table != null || KNOWN.stream().anyMatch(s::startsWith)) {
            return false;
        }
        Map<String, String> fields = PerftestHeader.fields(s); // perftest indents by one space; pastes also shift or strip it
        if (fields == null) {
            return false;
        }
        header.putAll(fields);
        return true;
    }

    private boolean known(String s) {
        if (s.matches("\\d+, \\S+")) { // "%d, %g": a latency sample of -U/-H
            samples++;
            return true;
        }
        if (BANNER.matcher(s).matches()) {
            waitingBanner = true;
            recognised = true; // write_bw.c:121 and every other ib_* main: only perftest's server prints it
            return true;
        }
        // the banner's frame is asterisks alone; a paster's "*** Server Side ***" is no line of perftest's
        return KNOWN.stream().anyMatch(s::startsWith) || s.matches("\\*+") || s.matches("\\[pid = \\d+, dev = \\d+].*");
    }

    /** The GPU whose memory the test used, or why none is named. */
    private Fact<String> memory() {
        for (String kind : List.of("ROCm", "MUSA")) { // ctx_print_test_info: " Use ROCm memory : ON" (perftest_parameters.c:4661-4664)
            if ("ON".equals(header.get("Use " + kind + " memory")) && accelerator == null && !gpuMemory) {
                accelerator = kind + " memory (the header's 'Use " + kind + " memory : ON'); the line naming the device is not in the text";
                gpuMemory = true;
            }
        }
        if (gpu.isValue()) {
            return gpu;
        }
        if (cutName != null) {
            return Fact.absent("the text ends inside perftest's device name line ('device name = [" + cutName
                    + "', cuda_memory.c:94 at 00b55b6): '" + cutName + "' is the name or only its start");
        }
        if (accelerator != null) {
            return Fact.absent(accelerator);
        }
        if (gpuMemory) {
            return Fact.absent("GPU memory was allocated, but the '[pid = …] device name = […]' line is not in the text");
        }
        if (dmabuf) {
            return Fact.absent("registered as a DMA-BUF, but no line says whose memory (a GPU's, or the NIC's with --use_ib_dm_dmabuf)");
        }
        if (parserExit) {
            return Fact.absent("none allocated: perftest stopped at its parser error");
        }
        if (header.isEmpty() && !test.isValue()) {
            return Fact.absent(waitingBanner ? "not yet allocated: the server allocates it after a client connects (write_bw.c:126 "
                    + "establish_connection, then ctx_init at :173)"
                    : "not known: the text holds no header block, nor the lines above it where perftest names GPU memory");
        }
        return gpu;
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
        if (addressNote != null) {
            return Fact.absent(addressNote);
        }
        return listedGpus.isEmpty() ? Fact.absent(gpuMemory ? "the device list (CUDA, MUSA, MLU) was not pasted" : gpu.reason())
                : Fact.absent("several devices listed and no 'Picking device No.' line");
    }

    private Fact<String> registration() {
        if (dmabuf) {
            return Fact.of("dma-buf");
        }
        // ctx_init opens the GPU (perftest_resources.c:2799, the CUDA device lines), then create_single_mr allocates the
        // buffer (:2344, 'using DMA-BUF' for one), all before ctx_print_test_info's header block (write_bw.c:173-194 at 00b55b6)
        boolean allocationInText = allocated || test.isValue() || !header.isEmpty() || table != null;
        if ((gpuMemory || cutName != null || !listedGpus.isEmpty()) && !allocationInText) {
            boolean asked = commands.stream().anyMatch(c -> c.options().keySet().stream().anyMatch(o -> o.endsWith("_dmabuf")));
            return Fact.absent("not in the text: it ends before perftest allocates the GPU buffer, where it says 'using DMA-BUF' when it "
                    + "registers one (cuda_memory.c:257 at 00b55b6)" + (asked ? "; the command line asks for a DMA-BUF" : ""));
        }
        if (gpuMemory) {
            return Fact.of("peer memory");
        }
        return Fact.absent(gpu.isValue() ? "not known" : gpu.reason());
    }

    /** What the first pasted command line asks, by perftest's option names, with the program first. */
    private Map<String, String> commandLine() {
        if (commands.isEmpty()) {
            return Map.of();
        }
        PerftestCommandLine first = commands.get(0);
        Map<String, String> out = new LinkedHashMap<>();
        out.put("program", first.program());
        out.putAll(first.options());
        if (first.options().isEmpty() && !first.side().isValue()) {
            out.put("options", "not read: " + first.side().reason());
        }
        if (commands.size() > 1) {
            out.put("command lines", commands.size() + " in the text; these are the first's");
        }
        return out;
    }

    /** Whether the text holds a result, and why not: the parser stopped, the server waited, the text ends early. */
    private String outcome() {
        int n = rows.size() + latencyRows.size();
        if (n > 0) {
            return n + " result row" + (n == 1 ? "" : "s");
        }
        if (parserExit) {
            return "no result: perftest stopped at its parser error, before it opened the device";
        }
        String stop = interrupted ? "; the run was interrupted (^C)" : "";
        if (waitingBanner && header.isEmpty()) {
            return "no result: the server waited for a client that did not connect before the text ends" + stop;
        }
        if (!errors.isEmpty()) {
            return "no result: perftest printed an error" + stop;
        }
        if (!test.isValue() && header.isEmpty() && table == null) {
            String last = lastLine.length() > 80 ? lastLine.substring(0, 80) + "…" : lastLine;
            return "no result: the text ends before perftest's header block and result table (its last line: '" + last + "'): the run "
                    + "it shows does not reach its measurement" + stop;
        }
        return "no result: the text ends before perftest's result table" + stop;
    }
}
