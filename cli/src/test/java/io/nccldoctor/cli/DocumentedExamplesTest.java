package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Json;
import io.nccldoctor.core.output.Marker;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Every example the user is shown, run as written: the fenced {@code sh} blocks of README.md and docs/*.md, and the
 * "Examples:" lines of every verb's --help, extracted mechanically (a test per block, its lines in order, in a folder of
 * its own). What only exists on a real node (nccl-tests binaries, Slurm, a perftest peer, the node_exporter folder) is
 * replaced through the one table below, each with its reason; names that stand for the user's own files are made from
 * the repository's fixtures and example data (PLACEHOLDERS). Each example must exit as its text says (0 or 1 unless the
 * table says otherwise), print no stack trace, print something, and keep its promises: -o FILE writes FILE with the
 * marker, --json prints JSON, capture DIR writes a capture.
 */
class DocumentedExamplesTest {

    static final Path REPO = Path.of("..");
    static final Path EXAMPLE = REPO.resolve("configs/examples/field-report-cluster");
    static final Path CAPTURES = REPO.resolve("pcie-inspect/src/test/resources/fixtures/captures");
    static final Path COLLECTIVES = REPO.resolve("collectives/src/test/resources/fixtures/public");
    static final Path RDMA = REPO.resolve("gdr-probe/src/test/resources/fixtures/public");

    /** A change to an example before it runs here, and why: what it names exists only on a real node. */
    record Substitution(Pattern pattern, String replacement, String reason) {
    }

    /** The one table of substitutions; TMP and BUILD stand for the block's folder and its fake nccl-tests build. */
    static final List<Substitution> SUBSTITUTIONS = List.of(
            sub("^\\./nccl-doctor ", "nccl-doctor ", "the launcher builds the jar and runs it; here the same Cli runs in-process"),
            sub("^srun -N\\d+ --ntasks-per-node=\\d+ ", "", "no Slurm here: one process stands for the job's ranks"),
            sub("^([A-Z_]+=\\S+) nccl-doctor (.*)$", "nccl-doctor $2 --env $1",
                    "the in-process run cannot change its own environment; --env is the same what-if on a verb that reads a host"),
            sub(" -- (ib_write_bw|mpirun|\\./train\\.sh)[^>]*?( >|$)", " -- true$2",
                    "perftest, MPI and the training job are the user's workload, not installed here"),
            sub("--interval \\d+", "--interval 0.2", "ten seconds of waiting have no place in a unit test"),
            sub("(~/nccl-tests/build|/opt/nccl-tests/build)", "BUILD",
                    "no nccl-tests build here: scripts named all_reduce_perf and alltoall_perf print published outputs"),
            sub("file:/shared/ncclid", "file:TMP/ncclid", "a file system every rank sees"),
            sub("/var/lib/node_exporter/textfile", "TMP/textfile", "node_exporter's textfile folder exists on the nodes"),
            sub("/mnt/node17", CAPTURES.resolve("arrowlake-ws/root").toString(),
                    "a mounted node's file system: a capture's root/ holds the same tree"),
            sub("/shared/job-1234/nccl-logs/", "TMP/nccl-logs", "a job's folder of per-process NCCL logs: two published logs"),
            sub("…", EXAMPLE.toString(), "docs/metrics.md's ellipsis stands for the inputs: the example bundle"));

    /** Lines of the sh blocks that are not this tool, and why they are not run here. */
    static final Map<String, String> NOT_RUN = Map.of(
            "mvn ", "builds and tests the project: this test runs inside that build",
            "tar ", "packs a capture for sending; the capture itself is checked by the line before",
            "node_exporter ", "Prometheus' exporter, not this tool",
            "[ $? -le 1 ] && mv ", "the rename step of docs/metrics.md's recipe: MetricsRecipeTest runs it with the line before");

    /** Examples not run here at all, and why: what they need exists only on a real cluster or after a real sweep. */
    static final Map<String, String> SKIPPED = Map.of(
            "cluster --pairwise 'gpu[01-08]' --results pairs/", "launches srun jobs on the nodes gpu01 … gpu08",
            "tune tune.jsonl -o nccl_tuner.conf --verify-plan verify.yaml", "needs a sweep of configs/sweeps/tune.yaml with NCCL's "
                    + "TUNING lines, which only NCCL writes: TuneEndToEndTest runs this flow against the stand-in NCCL",
            "sweep verify.yaml --results verify.jsonl", "verify.yaml is the plan the skipped tune line above writes");

    /** Examples whose documented exit code here is not 0 or 1, and why. */
    static final Map<String, Set<Integer>> EXIT = Map.of(
            "sweep ab-nccl --results ab.jsonl --resume", Set.of(2),
            "sweep ab-nccl -o ab.jsonl --resume", Set.of(2));
    static final String EXIT_REASON = "ab-nccl names /opt/nccl-2.28.3 and /opt/nccl-2.30.7, which this machine lacks: a real run "
            + "refuses the plan (exit 2, bad plan), its --dry-run warns";

    /** Names in the examples that stand for the user's own files, and what stands in for them here. */
    static final Map<String, String> PLACEHOLDERS = new LinkedHashMap<>();

    static {
        PLACEHOLDERS.put("all_reduce.txt", "the example bundle's allreduce.txt (a user's nccl-tests output)");
        PLACEHOLDERS.put("all_gather.txt", "the example bundle's allgather.txt");
        PLACEHOLDERS.put("all_reduce_perf.out", "a published all_reduce_perf output (nccl-tests#319)");
        PLACEHOLDERS.put("run.json", "the example bundle's alltoall-harness.json, a `run --json` of the field report's harness");
        PLACEHOLDERS.put("node17-capture", "the Arrow Lake capture fixture");
        PLACEHOLDERS.put("node1-capture", "the DGX-class capture fixture");
        PLACEHOLDERS.put("capture-node17/", "the Arrow Lake capture fixture");
        PLACEHOLDERS.put("snapshots/", "preflight --json of the other three capture fixtures (DGX-class, EPYC, Threadripper)");
        PLACEHOLDERS.put("node*.json", "preflight --json of the other three capture fixtures, as node1.json … node3.json");
        PLACEHOLDERS.put("bandwidth.csv", "the three fixtures' hosts with bandwidths made up for this test");
        PLACEHOLDERS.put("ab.jsonl", "the example bundle's A/B sweep result");
        PLACEHOLDERS.put("proto.jsonl", "the example bundle's A/B sweep result (this machine cannot run the sweep)");
        PLACEHOLDERS.put("runs-2.28/", "the example bundle's allreduce and allgather outputs");
        PLACEHOLDERS.put("runs-2.30.7/", "the example bundle's LL128 allreduce and allgather outputs");
        PLACEHOLDERS.put("r1.txt r2.txt r3.txt s1.txt s2.txt s3.txt", "the example bundle's three broadcast runs, for each arm");
        PLACEHOLDERS.put("suspect.csv", "the example bundle's suspect-alltoall.csv");
        PLACEHOLDERS.put("alltoall_perf.txt", "the example bundle's alltoall-nccl-tests.txt");
        PLACEHOLDERS.put("nccl-tests/", "a folder holding the example bundle's alltoall-nccl-tests.txt");
        PLACEHOLDERS.put("bundle/", "the example bundle");
        PLACEHOLDERS.put("topo.txt", "a published nvidia-smi topo -m (corpus)");
        PLACEHOLDERS.put("ib_write_bw.log", "a published ib_write_bw output");
        PLACEHOLDERS.put("nccl.node01.4242.log", "a published NCCL INFO log");
        PLACEHOLDERS.put("ticket-paste.txt", "a published ibv_devinfo paste");
        PLACEHOLDERS.put("lspci-vvv.txt", "a published lspci -vvv (BlueField-2)");
        PLACEHOLDERS.put("pairs/", "published pairwise all_reduce_perf outputs of four GH200 nodes (the planted-slow fixture)");
        PLACEHOLDERS.put("tune.jsonl", "the b arm of the example bundle's A/B sweep: one NCCL library, no TUNING lines, nothing judged");
    }

    private static final Pattern OUTPUT_NAME = Pattern.compile("[\\w.+-]+\\.(html|md|json|jsonl|xml|prom|svg|png|txt|csv|log|out|tgz|tmp)");

    @TempDir
    Path tmp;

    private static Substitution sub(String regex, String replacement, String reason) {
        return new Substitution(Pattern.compile(regex), replacement, reason);
    }

    /** One block of examples: where it comes from, and its command lines in order. */
    record Block(String source, List<String> lines) {
    }

    static List<Block> markdownBlocks() throws IOException {
        List<Path> files = new ArrayList<>(List.of(REPO.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPO.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).strip().equals("```sh")) {
                    int start = i + 1;
                    List<String> block = new ArrayList<>();
                    for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                        if (!lines.get(i).isBlank()) {
                            block.add(lines.get(i));
                        }
                    }
                    blocks.add(new Block(REPO.relativize(f) + ":" + start, joinContinuations(block)));
                }
            }
        }
        return blocks;
    }

    static List<Block> helpBlocks() {
        CommandLine root = Cli.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        List<Block> blocks = new ArrayList<>();
        root.getSubcommands().values().stream().distinct().forEach(c -> {
            UsageMessageSpec u = c.getCommandSpec().usageMessage();
            List<String> footer = List.of(u.footer());
            int at = footer.indexOf("Examples:") >= 0 ? footer.indexOf("Examples:") : footer.indexOf("Example:");
            if (at < 0) {
                return;
            }
            List<String> lines = new ArrayList<>();
            for (int i = at + 1; i < footer.size() && !footer.get(i).isBlank(); i++) {
                lines.add(footer.get(i));
            }
            blocks.add(new Block(c.getCommandName() + " --help", joinContinuations(lines)));
        });
        return blocks;
    }

    /** "a \" then "   b" is one line "a b"; an indented line that starts no command continues the comment above: dropped. */
    static List<String> joinContinuations(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            while (l.endsWith("\\") && i + 1 < lines.size()) {
                l = l.substring(0, l.length() - 1).strip() + " " + lines.get(++i).strip();
            }
            if (isCommand(l) || NOT_RUN.keySet().stream().anyMatch(l::startsWith) || l.matches("[A-Z]+=\\S+")) {
                out.add(l);
            }
        }
        return out;
    }

    static boolean isCommand(String l) {
        return l.matches("^(\\./)?nccl-doctor( .*)?$") || l.startsWith("srun ") || l.startsWith("kubectl ")
                || l.matches("^([A-Z_]+=\\S+ )+nccl-doctor .*");
    }

    /** The command of a line: without its comment ("# …", or two or more spaces then words, outside quotes). */
    static String command(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"' || c == '\'') {
                quoted = !quoted;
            } else if (!quoted && i > 0 && line.charAt(i - 1) == ' ' && (c == '#' || c == ' ')) {
                return line.substring(0, i).strip();
            }
        }
        return line.strip();
    }

    @Test
    void theExamplesAreFoundAndEachVerbShowsSome() throws Exception {
        List<Block> md = markdownBlocks();
        List<Block> help = helpBlocks();
        assertThat(md.stream().mapToInt(b -> b.lines().size()).sum()).as("README.md and docs/*.md").isGreaterThan(30);
        assertThat(help.stream().map(Block::source)).as("every verb's --help has examples").contains("preflight --help",
                "topo --help", "gdr --help", "align --help", "run --help", "report --help", "sweep --help", "compare --help",
                "rulezero --help", "counters --help", "cluster --help", "capture --help", "explain --help");
    }

    @TestFactory
    Stream<DynamicNode> everyExampleRunsAsItsTextSays() throws Exception {
        List<Block> all = new ArrayList<>(markdownBlocks());
        all.addAll(helpBlocks());
        return all.stream().map(b -> DynamicContainer.dynamicContainer(b.source(), Stream.of(DynamicTest.dynamicTest(
                b.lines().size() + " lines", () -> runBlock(b)))));
    }

    private void runBlock(Block b) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(b.source().replaceAll("[^A-Za-z0-9.-]", "_")));
        Map<String, String> vars = new LinkedHashMap<>();
        int ran = 0;
        for (String line : b.lines()) {
            String cmd = command(line);
            Matcher var = Pattern.compile("^([A-Z]+)=(\\S+)$").matcher(cmd);
            if (var.matches()) {
                vars.put(var.group(1), var.group(2));
                continue;
            }
            if (NOT_RUN.keySet().stream().anyMatch(cmd::startsWith)) {
                continue;
            }
            for (Map.Entry<String, String> v : vars.entrySet()) {
                cmd = cmd.replace("$" + v.getKey(), v.getValue());
            }
            if (SKIPPED.keySet().stream().anyMatch(cmd::contains)) {
                continue;
            }
            for (String part : cmd.split(" && ")) { // as the shell runs it: the next only after exit 0
                if (NOT_RUN.keySet().stream().anyMatch(part::startsWith)) {
                    continue;
                }
                ran++;
                if (runExample(b.source(), line, part, dir) != 0) {
                    break;
                }
            }
        }
        if (b.lines().stream().map(DocumentedExamplesTest::command).anyMatch(c -> c.contains("nccl-doctor "))) {
            assertThat(ran).as("%s: an example of this tool was run", b.source()).isPositive();
        } else { // a block of build commands only (docs/testing.md): each of its lines is in NOT_RUN with its reason
            assertThat(b.lines().stream().map(DocumentedExamplesTest::command).filter(c -> !c.isEmpty() && !c.startsWith("#")))
                    .as("%s: a block without this tool holds only commands listed as not run", b.source())
                    .allMatch(c -> NOT_RUN.keySet().stream().anyMatch(c::startsWith));
        }
    }

    /** Runs one command of an example line; returns its exit code. */
    private int runExample(String source, String line, String original, Path dir) throws Exception {
        String cmd = original;
        for (Substitution s : SUBSTITUTIONS) {
            cmd = s.pattern().matcher(cmd).replaceAll(s.replacement());
        }
        cmd = cmd.replace("BUILD", build(dir).toString()).replace("TMP", dir.toString());
        Files.createDirectories(dir.resolve("textfile"));
        logs(dir);
        InputStream stdin = null;
        if (cmd.startsWith("kubectl logs trainer-0 | ")) { // a pod's log on stdin: a published NCCL log
            stdin = Files.newInputStream(COLLECTIVES.resolve("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt"));
            cmd = cmd.substring("kubectl logs trainer-0 | ".length());
        }
        Path redirect = null;
        int gt = cmd.indexOf(" > ");
        if (gt >= 0) {
            redirect = dir.resolve(cmd.substring(gt + 3).strip());
            cmd = cmd.substring(0, gt);
        }
        List<String> words = words(cmd);
        assertThat(words.get(0)).as("%s: %s", source, line).isEqualTo("nccl-doctor");
        String verb = words.get(1);
        List<String> args = new ArrayList<>(List.of(verb));
        for (int i = 2; i < words.size(); i++) {
            String previous = words.get(i - 1);
            args.addAll(paths(words.get(i), dir, verb, previous));
        }
        CliTest.Run r = run(args, stdin);
        String what = source + ": " + line + "\n  ran: " + args + "\n  exit " + r.code() + "\n  err: " + r.err() + "\n  out: "
                + r.out().lines().limit(5).toList();
        Set<Integer> codes = EXIT.getOrDefault(original.replaceFirst("^(\\./)?nccl-doctor ", ""), Set.of(0, 1));
        assertThat(r.code()).as(what + (codes.contains(2) ? "\n  (" + EXIT_REASON + ")" : "")).isIn(codes);
        assertThat(r.out() + r.err()).as(what).doesNotContain("\tat ").doesNotContain("internal error");
        if (redirect != null) {
            Files.writeString(redirect, r.out());
        }
        if (r.code() <= 1) {
            promises(what, verb, args, r, redirect);
        }
        return r.code();
    }

    /** What the example's text promises beyond its exit code. */
    private static void promises(String what, String verb, List<String> args, CliTest.Run r, Path redirect) throws IOException {
        int o = args.indexOf("-o");
        boolean fileOut = o >= 0 && !verb.equals("capture") && !verb.equals("sweep");
        if (fileOut) {
            Path f = Path.of(args.get(o + 1));
            assertThat(f).as(what).exists();
            assertThat(Marker.in(f)).as(what + ": the marker").isTrue();
        } else if (!verb.equals("capture")) {
            assertThat(r.out()).as(what + ": prints something").isNotBlank();
        }
        if (args.contains("--json") && !fileOut) {
            assertThat(Json.mapper().readTree(r.out()).isContainerNode()).as(what + ": JSON").isTrue();
        }
        if (verb.equals("capture")) {
            Path d = Path.of(args.get(o >= 0 ? o + 1 : 1));
            assertThat(d.resolve("manifest.json")).as(what).exists();
        }
        if (redirect != null) {
            assertThat(redirect).as(what).isNotEmptyFile();
        }
    }

    private static CliTest.Run run(List<String> args, InputStream stdin) {
        InputStream saved = System.in;
        try {
            if (stdin != null) {
                System.setIn(stdin);
            }
            return CliTest.run(args.toArray(String[]::new));
        } finally {
            System.setIn(saved);
        }
    }

    /** Shell words: blanks split, double quotes group. */
    static List<String> words(String cmd) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : cmd.toCharArray()) {
            if ((c == '"' || c == '\'') && (quote == 0 || quote == c)) {
                quote = quote == 0 ? c : 0;
                any = true;
            } else if (c == ' ' && quote == 0) {
                if (any) {
                    out.add(cur.toString());
                }
                cur.setLength(0);
                any = false;
            } else {
                cur.append(c);
                any = true;
            }
        }
        if (any) {
            out.add(cur.toString());
        }
        return out;
    }

    /** One word as the in-process run needs it: placeholders made, repository paths from the module folder, outputs in the block's folder. */
    private List<String> paths(String word, Path dir, String verb, String previous) throws IOException {
        if (word.contains("*")) { // a glob: the placeholder's files
            placeholder(word, dir);
            List<String> matched = new ArrayList<>();
            try (Stream<Path> in = Files.list(dir)) {
                String re = word.replace(".", "\\.").replace("*", ".*");
                in.filter(p -> p.getFileName().toString().matches(re)).sorted().forEach(p -> matched.add(p.toString()));
            }
            return matched;
        }
        String name = word.contains("#") ? word.substring(0, word.indexOf('#')) : word;
        String arm = word.substring(name.length());
        String bare = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        boolean captureTarget = verb.equals("capture") && !word.startsWith("-") && !previous.equals("--from");
        if (captureTarget) {
            return List.of(dir.resolve(bare).toString());
        }
        if (placeholderFor(name) != null) {
            return List.of(placeholder(placeholderFor(name).contains(" ") ? name : placeholderFor(name), dir) + arm);
        }
        if (!name.startsWith("/") && !name.startsWith("-") && name.contains("/") && Files.exists(REPO.resolve(name))) {
            return List.of(REPO.resolve(name) + arm);
        }
        if (OUTPUT_NAME.matcher(name).matches()) {
            return List.of(dir.resolve(name) + arm);
        }
        return List.of(word);
    }

    static String placeholderFor(String name) {
        for (String key : PLACEHOLDERS.keySet()) {
            if (List.of(key.split(" ")).contains(name)) {
                return key;
            }
        }
        return null;
    }

    /** Makes the placeholder in the block's folder unless an earlier example made it (a capture, an output). */
    private Path placeholder(String key, Path dir) throws IOException {
        String name = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
        Path p = dir.resolve(name.replace("*", "1"));
        if (Files.exists(p)) {
            return dir.resolve(name);
        }
        switch (name) {
            case "all_reduce.txt" -> Files.copy(EXAMPLE.resolve("allreduce.txt"), p);
            case "all_gather.txt" -> Files.copy(EXAMPLE.resolve("allgather.txt"), p);
            case "all_reduce_perf.out" -> Files.copy(COLLECTIVES.resolve("nccl-tests-h100-2node-ib-issue319.txt"), p);
            case "run.json" -> Files.copy(EXAMPLE.resolve("alltoall-harness.json"), p);
            case "node17-capture", "capture-node17" -> copyTree(CAPTURES.resolve("arrowlake-ws"), p);
            case "node1-capture" -> copyTree(CAPTURES.resolve("dgx-class"), p);
            case "snapshots" -> snapshots(Files.createDirectories(p));
            case "node*.json" -> snapshots(dir);
            case "bandwidth.csv" -> Files.writeString(p, "host,label,busbw_gbps\n" + hostNames(dir).stream()
                    .map(h -> h + ",allreduce 1GiB,4" + (h.length() % 9) + "0.5\n").reduce("", String::concat));
            case "ab.jsonl", "proto.jsonl" -> Files.copy(EXAMPLE.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl"), p);
            case "runs-2.28" -> {
                Files.createDirectories(p);
                Files.copy(EXAMPLE.resolve("allreduce.txt"), p.resolve("allreduce.txt"));
                Files.copy(EXAMPLE.resolve("allgather.txt"), p.resolve("allgather.txt"));
            }
            case "runs-2.30.7" -> {
                Files.createDirectories(p);
                Files.copy(EXAMPLE.resolve("allreduce-ll128.txt"), p.resolve("allreduce.txt"));
                Files.copy(EXAMPLE.resolve("allgather-ll128.txt"), p.resolve("allgather.txt"));
            }
            case "r1.txt", "s1.txt" -> Files.copy(EXAMPLE.resolve("broadcast-run1.txt"), p);
            case "r2.txt", "s2.txt" -> Files.copy(EXAMPLE.resolve("broadcast-run2.txt"), p);
            case "r3.txt", "s3.txt" -> Files.copy(EXAMPLE.resolve("broadcast-run3.txt"), p);
            case "suspect.csv" -> Files.copy(EXAMPLE.resolve("suspect-alltoall.csv"), p);
            case "alltoall_perf.txt" -> Files.copy(EXAMPLE.resolve("alltoall-nccl-tests.txt"), p);
            case "nccl-tests" -> Files.copy(EXAMPLE.resolve("alltoall-nccl-tests.txt"),
                    Files.createDirectories(p).resolve("alltoall-nccl-tests.txt"));
            case "bundle" -> copyTree(EXAMPLE, p);
            case "topo.txt" -> Files.copy(REPO.resolve("corpus/nvidia-smi-topo/nvidia-smi-topo-2x-rtx5090-tabs-phb.txt"), p);
            case "ib_write_bw.log" -> Files.copy(RDMA.resolve("perftest-write-bw-cuda-a100-sweep-client.txt"), p);
            case "nccl.node01.4242.log" -> Files.copy(COLLECTIVES.resolve("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt"), p);
            case "ticket-paste.txt" -> Files.copy(RDMA.resolve("ibv-devinfo-cx7-roce.txt"), p);
            case "lspci-vvv.txt" -> Files.copy(REPO.resolve("pcie-inspect/src/test/resources/fixtures/public/"
                    + "lspci-verbose-bluefield2-cx6dx-aarch64.txt"), p);
            case "pairs" -> copyTree(REPO.resolve("reports/src/test/resources/fixtures/pairwise/planted-slow"), p);
            case "tune.jsonl" -> Files.write(p, Files.readAllLines(EXAMPLE.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl")).stream()
                    .filter(l -> l.contains("\"arm\":\"b\"") || l.contains("\"arm\" : \"b\"")).toList());
            default -> throw new AssertionError("no placeholder for " + name);
        }
        return dir.resolve(name);
    }

    private static List<String> hosts() {
        return List.of("dgx-class", "epyc-2s", "threadripper-pro-ws");
    }

    /** The host names the snapshots of this block hold (a bandwidth file names hosts, not files). */
    private List<String> hostNames(Path dir) throws IOException {
        Path snaps = dir.resolve("snapshots");
        if (!Files.isDirectory(snaps)) {
            snapshots(Files.createDirectories(snaps));
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> in = Files.list(snaps)) {
            for (Path f : in.sorted().toList()) {
                names.add(Json.mapper().readTree(f.toFile()).at("/snapshot/hostName").asText());
            }
        }
        return names;
    }

    /** preflight --json of each capture fixture: the snapshots a user collects from the nodes. */
    private static void snapshots(Path into) throws IOException {
        int n = 1;
        for (String c : hosts()) {
            CliTest.Run r = CliTest.run("preflight", "--from", CAPTURES.resolve(c).toString(), "--json");
            assertThat(r.code()).as(r.err()).isIn(0, 1);
            Files.writeString(into.resolve("node" + n++ + ".json"), r.out());
        }
    }

    /** A folder of fake nccl-tests binaries: scripts that print published outputs of that binary. */
    private static Path build(Path dir) throws IOException {
        Path bin = dir.resolve("nccl-tests-build");
        if (Files.isDirectory(bin)) {
            return bin;
        }
        Files.createDirectories(bin);
        Map<String, String> outputs = Map.of("all_reduce_perf", "nccl-tests-h100-2node-ib-issue319.txt",
                "alltoall_perf", "nccl-tests-a100-alltoall-old-na.txt");
        for (Map.Entry<String, String> e : outputs.entrySet()) {
            Path script = bin.resolve(e.getKey());
            Files.writeString(script, "#!/bin/sh\ncat '" + COLLECTIVES.resolve(e.getValue()).toAbsolutePath() + "'\n");
            assertThat(script.toFile().setExecutable(true)).isTrue();
        }
        return bin;
    }

    private static void logs(Path dir) throws IOException {
        Path logs = dir.resolve("nccl-logs");
        if (!Files.isDirectory(logs)) {
            Files.createDirectories(logs);
            Files.copy(COLLECTIVES.resolve("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt"), logs.resolve("nccl.node01.4242.log"));
            Files.copy(COLLECTIVES.resolve("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt"), logs.resolve("nccl.node02.4343.log"));
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isSymbolicLink(f)) {
                    Files.createSymbolicLink(target, Files.readSymbolicLink(f));
                } else {
                    Files.copy(f, target);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
