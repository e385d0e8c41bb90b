package io.nccldoctor.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.inputs.InputKind;
import io.nccldoctor.reports.inputs.InputReader;
import io.nccldoctor.reports.inputs.InputText;
import io.nccldoctor.reports.inputs.ParsedInput;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "parse", mixinStandardHelpOptions = true,
        description = {"Reads a third-party tool's output and prints what it says, structured.",
            "",
            "Without a KIND the kind is told from the text (its first 256 KiB) by asking each kind's parser; stderr says "
                + "which was chosen and why. Text of none of the kinds is refused (exit 2) with the kinds tried. "
                + "docs/inputs.md says what is read from each kind and what happens to what is not understood.",
            "",
            "Kinds: nvidia-smi-topo (the matrix of `nvidia-smi topo -m`, old and new layouts; `topo -p2p` is read as the P2P "
                + "status matrix it is); perftest (the output of ib_write_bw, ib_read_bw, ib_send_bw and the latency tests, client "
                + "or server side, MB/sec or Gb/sec, size sweeps, --use_cuda runs, warnings and errors with their meaning, or the "
                + "--out_json file); nccl-tests (nccl-tests or rccl-tests, every table layout since 2.11, mpirun/srun prefixes and log "
                + "collectors' timestamps, interleaved NCCL INFO lines, footers; or the -J JSON file); nccl-log (NCCL_DEBUG=INFO output, streamed: versions, network, transports, GDR "
                + "decisions decoded per version, warnings, IB completion errors, watchdog timeouts); rdma (pasted RDMA state: "
                + "ibv_devinfo with or without -v, ibv_devices, ibstat, ibstatus, show_gids, ibdev2netdev, rdma link and rdma dev, ls -l "
                + "/sys/class/infiniband, sysfs files printed with their paths, show_counters, mlnx_qos -i IFACE, ethtool -S IFACE, "
                + "ethtool -i IFACE, ethtool IFACE, mlxfwmanager, ibportstate, mst status -v (rdma res rows known, not read); "
                + "several one after another, with prompts and command lines between them: each recognised by its shape, read into "
                + "the facts the live RDMA probe records and judged by the same rules; lines not understood are counted and listed); "
                + "lspci-tree (`lspci -tv`, `-tvnn`, plain `-t`, fragments); lspci-verbose (`lspci -vvv` blocks, a plain listing, "
                + "`lspci -PP`, grep'd excerpts without the device header); nccl-topo-xml (NCCL's or RCCL's topology file, whole, "
                + "cut off or a snippet, also fenced or after a prompt). The topology kinds list every PCI function with its kind "
                + "and link, and every line or element not read; a path the text does not show (a plain listing has no tree) stays "
                + "unknown and is not judged."},
        footer = {"", "FILE '-' reads standard input. nccl-log also reads several files, or a folder of them (the one file per "
                + "process that NCCL_DEBUG_FILE=dir/nccl.%%h.%%p.log writes), or a .gz file; several files get a line each and "
                + "what differs between them where the processes of one job should agree: the NCCL version, the network "
                + "chosen (one process on sockets slows the whole job), GPUDirect RDMA on the network channels. One file with "
                + "many processes (a job's combined output) is compared process by process (host:pid from NCCL's line prefix). "
                + "DIFFERS lines do not change the exit code. Without a KIND, several files are read one after another (--json: "
                + "an array), or as one set of NCCL logs when every one is a log.",
            "", "Exit codes: 0 when the text parsed and records no failure; 1 when it records one (nccl-tests: wrong "
                + "elements, 'Out of bounds values : N FAILED', or an average below NCCL_TESTS_MIN_BW; nccl-log: IB completion errors or watchdog timeouts; "
                + "perftest: errors; rdma: a finding at error level, such as a port that is not ACTIVE); 2 when it is not the "
                + "kind named, or of no kind (the message lists the kinds tried).",
            "", "Examples:", "  nccl-doctor parse all_reduce_perf.out", "  nccl-doctor parse nvidia-smi-topo topo.txt --json",
            "  nccl-doctor parse perftest ib_write_bw.log", "  nccl-doctor parse nccl-log nccl.node01.4242.log --json",
            "  nccl-doctor parse nccl-log /shared/job-1234/nccl-logs/", "  nccl-doctor parse rdma ticket-paste.txt --json",
            "  nccl-doctor parse lspci-verbose lspci-vvv.txt", "  kubectl logs trainer-0 | nccl-doctor parse -"})
final class ParseCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "[KIND] FILE", description = "An optional KIND (nvidia-smi-topo, perftest, nccl-tests, "
            + "nccl-log, rdma, lspci-tree, lspci-verbose, nccl-topo-xml) to read every FILE as that kind; then the text to read "
            + "('-': standard input); nccl-log: several files or folders.")
    List<String> words;

    @Option(names = "--json", description = "Print the parsed content as JSON, with \"schemaVersion\" and \"kind\".")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Optional<InputKind> kind = InputKind.of(words.get(0));
        List<Path> files = new ArrayList<>(); // loops, not streams: each lambda is linked at its first use, before the JIT
        for (String word : words.subList(kind.isPresent() ? 1 : 0, words.size())) {
            files.add(Path.of(word));
        }
        if (files.isEmpty()) {
            throw new InputException("parse " + words.get(0) + ": give a FILE to read ('-' for standard input)");
        }
        if (kind.isEmpty() && !exists(files.get(0)) && files.size() > 1) {
            throw new InputException("parse: '" + words.get(0) + "' is neither a file nor a kind (known: " + InputKind.keys() + ")");
        }
        InputReader reader = new InputReader(() -> new RuleContext(Configs.rules(null, Registry.nodeRules()), NodeShape.none()));
        List<ParsedInput> parsed = kind.isPresent() ? List.of(named(reader, kind.get(), files)) : reader.readAll(files);
        PrintWriter err = spec.commandLine().getErr();
        boolean failed = false;
        for (ParsedInput p : parsed) {
            if (!p.evidence().isEmpty()) {
                err.println("parse: " + p.source() + " read as " + p.kind().key() + " (" + p.evidence() + ")");
            }
            failed |= p.failed();
        }
        err.flush();
        PrintWriter out = spec.commandLine().getOut();
        if (json && parsed.size() > 1) {
            ArrayNode all = Json.mapper().createArrayNode();
            for (ParsedInput p : parsed) {
                all.add(p.json());
            }
            out.print(Json.write(all));
        } else {
            for (ParsedInput p : parsed) {
                out.print(json ? Json.write(p.json()) : p.text());
            }
        }
        out.flush();
        return failed ? 1 : 0;
    }

    /** Every FILE as the kind named: nccl-log reads several files or a folder as one set, the other kinds one file. */
    private static ParsedInput named(InputReader reader, InputKind kind, List<Path> files) {
        if (kind == InputKind.NCCL_LOG && (files.size() > 1 || Files.isDirectory(files.get(0)))) {
            return InputReader.logs(files);
        }
        if (files.size() > 1) {
            throw new InputException("parse " + kind.key() + " reads one FILE, not " + files.size()
                    + "; give them one at a time (only nccl-log reads several)");
        }
        return reader.read(files.get(0), kind);
    }

    private static boolean exists(Path p) {
        return InputText.STDIN.equals(p.toString()) || Files.exists(p);
    }
}
