package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of a perftest bandwidth or latency test (ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw and the *_lat
 * tests), client or server side, or the file --out_json writes: the header block (device, link type, MTU, GID index,
 * QPs), the side it ran on, the GPU that --use_cuda picked with its PCI address and how its memory was registered
 * (DMA-BUF or peer memory), the result rows as printed (MiB/sec, "MB/sec" before perftest 24.07, or Gb/sec with
 * --report_gbits; latencies in usec), every warning, and the errors with what they mean.
 *
 * @param header                key → value of the header block ("Device" → mlx5_0, "Mtu" → 4096[B], "Link type" → IB)
 * @param unit                  the bandwidth unit of the columns, as printed: "MiB/sec", "MB/sec" or "Gb/sec"
 * @param warnings              every warning line, in order (the WARNING lines of the header, the MTU change, the CPU
 *                              frequency notes between rows)
 * @param role                  "client" or "server", as the pasted command line, the waiting banner or the TX depth
 *                              line tell (PerftestSide), or why none of them does
 * @param gpuPciAddress         the bus:device perftest printed for the GPU it picked ("E1:00"), or the bus id given
 *                              with --use_cuda_bus_id
 * @param gpu                   the GPU whose memory the test used, as CUDA, MUSA, MLU or ROCm name it, or why none is
 *                              named (host memory, Habana or Neuron memory, the NIC's own memory, the text ends first)
 * @param gpuMemoryRegistration "dma-buf" (--use_cuda_dmabuf, --use_rocm_dmabuf …: ibv_reg_dmabuf_mr on an exported
 *                              buffer) or "peer memory" (ibv_reg_mr on the GPU address, which needs the GPU driver's
 *                              peer-memory client, nvidia-peermem for CUDA)
 * @param latencyRows           the rows of a latency test, in usec
 * @param columns               the column names of the result table as printed
 * @param notUnderstood         lines that are none of perftest's, and rows that do not match their table's columns
 * @param outcome               "12 result rows", or "no result: " and why (the parser stopped, the server waited for a
 *                              client, the text ends early)
 * @param commandLine           what the pasted command line asks, by perftest's long option names ("program" →
 *                              ib_write_bw, "ib-dev" → mlx5_1, "gid-index" → 7, "use_cuda" → 1, "use_cuda_dmabuf" → on,
 *                              "server address"); empty when no command line was pasted (PerftestCommandLine)
 */
public record PerftestOutput(Fact<String> test, Map<String, String> header, Fact<String> gpu, String unit, List<Row> rows,
                             List<String> warnings, List<String> errors, Fact<String> role, Fact<String> gpuPciAddress,
                             Fact<String> gpuMemoryRegistration, List<LatencyRow> latencyRows, List<String> columns,
                             List<String> notUnderstood, String outcome, Map<String, String> commandLine) {

    /**
     * One bandwidth row: the message size, iterations, peak and average bandwidth in {@link #unit()}, message rate.
     *
     * @param extra the other columns perftest can add, by their printed name: "#sl" (raw_ethernet QoS), the per-port
     *              figures of --report-per-port, "CPU_Util[%]" (--cpu_util)
     */
    public record Row(long bytes, long iterations, double peak, double average, Fact<Double> msgRateMpps, Map<String, Double> extra) {

        public Row {
            extra = extra == null ? Map.of() : extra;
        }

        public Row(long bytes, long iterations, double peak, double average, Fact<Double> msgRateMpps) {
            this(bytes, iterations, peak, average, msgRateMpps, Map.of());
        }
    }

    /**
     * One latency row (perftest_parameters.h RESULT_FMT_LAT since 2016: t_min t_max t_typical t_avg t_stdev, 99% and
     * 99.9% percentile; before, the first three only; RESULT_FMT_LAT_DUR with -D: t_avg and tps average). Half the
     * round trip for send and write, the whole for read and atomic (perftest's rtt_factor). A column the table lacks
     * is absent.
     */
    public record LatencyRow(long bytes, long iterations, Fact<Double> minUs, Fact<Double> maxUs, Fact<Double> typicalUs,
                             Fact<Double> avgUs, Fact<Double> stdevUs, Fact<Double> p99Us, Fact<Double> p999Us,
                             Fact<Double> transactionsPerSecond, Map<String, Double> extra) {
    }

    private static final Pattern MR_ERROR = Pattern.compile("Couldn't allocate MR with error=(\\d+)");
    /** perftest_parameters.c:3703-3709 (and :3757, :3776, :3795, :3817 for MUSA, ROCm, Neuron, MLU). */
    private static final Pattern DMABUF_ORDER = Pattern.compile("^(CUDA|MUSA|ROCm|Neuron|MLU) DMA-BUF cannot be used without");

    /** Reads perftest's text output, or the --out_json file when the text is one. */
    public static PerftestOutput parse(List<String> lines, String source) {
        return PerftestJson.looksLikeJson(lines) ? PerftestJson.parse(lines, source) : new PerftestReader(source).read(lines);
    }

    /** perftest's errno numbers say why GPU memory could not be registered (reference/peers-and-platform.md B5). */
    static String meaning(String line) {
        Matcher order = DMABUF_ORDER.matcher(line);
        if (order.find()) {
            String option = "--use_" + order.group(1).toLowerCase(Locale.ROOT);
            return line + " (perftest checks this as it reads the options in order: " + option + " must come before " + option
                    + "_dmabuf on the command line)";
        }
        Matcher m = MR_ERROR.matcher(line);
        if (m.find()) {
            return switch (m.group(1)) {
                case "14" -> line + " (EFAULT: the NIC cannot register this GPU memory: no peer-memory client, or a GPU without GPUDirect RDMA)";
                case "93", "95" -> line + " (EPROTONOSUPPORT/EOPNOTSUPP: DMA-BUF registration not supported by kernel, driver or NIC)";
                case "12" -> line + " (ENOMEM: locked-memory limit; raise ulimit -l)";
                default -> line;
            };
        }
        return line;
    }
}
