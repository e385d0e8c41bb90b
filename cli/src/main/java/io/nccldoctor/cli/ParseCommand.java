package io.nccldoctor.cli;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsJson;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.text.RdmaTextReader;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.parsed.NcclTestsText;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.parsed.PerftestText;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import io.nccldoctor.reports.parsed.RdmaText;
import io.nccldoctor.reports.rules.Registry;
import io.nccldoctor.reports.parsed.SmiTopoText;
import io.nccldoctor.collectives.parse.NcclLogSet;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "parse", mixinStandardHelpOptions = true,
        description = {"Reads a third-party tool's output and prints what it says, structured.",
            "",
            "Formats: nvidia-smi-topo (the matrix of `nvidia-smi topo -m`, old and new layouts); perftest (the output "
                + "of ib_write_bw, ib_read_bw, ib_send_bw and the latency tests, client or server side, MB/sec or Gb/sec, "
                + "size sweeps, --use_cuda runs, warnings and errors with their meaning); nccl-tests (every table layout "
                + "since 2.11, mpirun/srun prefixes, interleaved NCCL INFO lines, footers; or the -J JSON file); nccl-log (NCCL_DEBUG=INFO "
                + "output, streamed: versions, network, transports, GDR decisions decoded per version, warnings, IB "
                + "completion errors, watchdog timeouts); rdma (pasted RDMA state: ibv_devinfo with or without -v, ibstat, "
                + "ibstatus, show_gids, ibdev2netdev, rdma link and rdma dev, ls -l /sys/class/infiniband, sysfs files printed "
                + "with their paths, show_counters, mlnx_qos -i IFACE, ethtool -S IFACE; several one after another, with "
                + "prompts and command lines between them: each recognised by its shape, read into the facts the live RDMA "
                + "probe records and judged by the same rules; lines not understood are counted and listed)."},
        footer = {"", "FILE '-' reads standard input. nccl-log also reads several files, or a folder of them (the one file per "
                + "process that NCCL_DEBUG_FILE=dir/nccl.%%h.%%p.log writes), or a .gz file; several files get a line each and "
                + "what differs between them where the processes of one job should agree: the NCCL version, the network "
                + "chosen (one process on sockets slows the whole job), GPUDirect RDMA on the network channels. One file with "
                + "many processes (a job's combined output) is compared process by process (host:pid from NCCL's line prefix). "
                + "DIFFERS lines do not change the exit code.",
            "", "Exit codes: 0 when the text parsed and records no failure; 1 when it records one (nccl-tests: wrong "
                + "elements, 'Out of bounds values : N FAILED', or an average below NCCL_TESTS_MIN_BW; nccl-log: IB completion errors or watchdog timeouts; "
                + "perftest: errors; rdma: a finding at error level, such as a port that is not ACTIVE); 2 when it is not the "
                + "format named (rdma: none of its kinds was recognised; the message lists them).",
            "", "Examples:", "  nccl-doctor parse nvidia-smi-topo topo.txt --json", "  nccl-doctor parse perftest ib_write_bw.log",
            "  nccl-doctor parse nccl-tests all_reduce_perf.out", "  nccl-doctor parse nccl-log nccl.node01.4242.log --json",
            "  nccl-doctor parse nccl-log /shared/job-1234/nccl-logs/", "  nccl-doctor parse rdma ticket-paste.txt --json", "  kubectl logs trainer-0 | nccl-doctor parse nccl-log -"})
final class ParseCommand implements Callable<Integer> {

    enum Format { NVIDIA_SMI_TOPO, PERFTEST, NCCL_TESTS, NCCL_LOG, RDMA }

    @Parameters(index = "0", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "nvidia-smi-topo, perftest, nccl-tests, nccl-log or rdma")
    Format format;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "FILE", description = "The text to read ('-': standard input); "
            + "nccl-log: several files or folders.")
    List<Path> files;

    @Option(names = "--json", description = "Print the parsed content as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.NCCL_LOG) {
            boolean failed = ncclLog(out);
            out.flush();
            return failed ? 1 : 0;
        }
        if (files.size() > 1) {
            throw new InputException("parse " + format.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + " reads one FILE, "
                    + "not " + files.size() + "; give them one at a time (only nccl-log reads several)");
        }
        Path file = files.get(0);
        boolean failed = false;
        switch (format) {
            case NVIDIA_SMI_TOPO -> {
                SmiTopoMatrix m = SmiTopoMatrix.parse(lines(file), file.toString());
                out.print(json ? Json.write(m) : SmiTopoText.render(m, file.toString()));
            }
            case PERFTEST -> {
                PerftestOutput p = PerftestOutput.parse(lines(file), file.toString());
                out.print(json ? Json.write(p) : PerftestText.render(p, file.toString()));
                failed = !p.errors().isEmpty();
            }
            case NCCL_TESTS -> {
                String text = TopoSources.read(file, "parse");
                NcclTestsOutput r = NcclTestsJson.looksLikeJson(text) ? NcclTestsJson.parse(text, file.toString())
                        : NcclTestsOutput.parse(text.lines().toList(), file.toString());
                out.print(json ? Json.write(r) : NcclTestsText.render(r, file.toString()));
                failed = !r.failures().isEmpty();
            }
            case RDMA -> {
                RdmaJudgement j = RdmaJudgement.of(RdmaTextReader.parse(lines(file), file.toString()),
                        new RuleContext(Configs.rules(null, Registry.nodeRules()), NodeShape.none()));
                out.print(json ? Json.write(j) : RdmaText.render(j));
                failed = j.exitCode() != 0;
            }
            default -> throw new IllegalStateException(format.name());
        }
        out.flush();
        return failed ? 1 : 0;
    }

    /** One file (or standard input) as before; several files or a folder as a set. Returns whether a failure was read. */
    private boolean ncclLog(PrintWriter out) {
        Path first = files.get(0);
        if (files.size() == 1 && TopoSources.STDIN.equals(first.toString())) {
            NcclLog log;
            try {
                log = NcclLog.parse(System.in, "standard input");
            } catch (IOException e) {
                throw new InputException("parse nccl-log -: cannot read standard input (" + e.getMessage() + ")", e);
            }
            out.print(json ? Json.write(log) : NcclLogText.render(log, "standard input"));
            return failed(log);
        }
        if (files.size() == 1 && Files.isRegularFile(first)) {
            NcclLog log = NcclLog.parse(first);
            out.print(json ? Json.write(log) : NcclLogText.render(log, first.toString()));
            return failed(log);
        }
        NcclLogSet set = NcclLogSet.read(files);
        out.print(json ? Json.write(set) : NcclLogText.renderSet(set));
        return set.logs().values().stream().anyMatch(ParseCommand::failed);
    }

    private static boolean failed(NcclLog log) {
        return !log.ibErrors().isEmpty() || !log.watchdogTimeouts().isEmpty();
    }

    private static List<String> lines(Path file) {
        return TopoSources.read(file, "parse").lines().toList();
    }

    /** "nvidia-smi-topo" → NVIDIA_SMI_TOPO, with a message that lists the formats. */
    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            for (Format f : Format.values()) {
                if (f.name().replace('_', '-').equalsIgnoreCase(value)) {
                    return f;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown format '" + value + "'; known: nvidia-smi-topo, perftest, nccl-tests, nccl-log, rdma");
        }
    }
}
