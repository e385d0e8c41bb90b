package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.exec.CommandResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the read/write matrix: for each GPU and each HCA with an ACTIVE port, `ib_write_bw` (port P) and `ib_read_bw`
 * (port P + 1) as clients with `--use_cuda=GPU` (and `--use_cuda_dmabuf` when asked), 1 MiB messages, Gbit/s.
 *
 * <p>Against a peer, the peer serves, per HCA: {@code while true; do ib_write_bw -d mlx5_0 -p P; done} and the same for
 * ib_read_bw on P + 1. In loopback mode one port of this node has been moved into a network namespace (the field
 * report's single-node trick: without it the kernel shortcuts the traffic and it never reaches the switch); the probe
 * starts each server there itself ({@code ip netns exec NS ib_write_bw -d HCA …}, host memory) and points the clients
 * in the root namespace at that namespace's IPv4 address, so every byte leaves one port, crosses the switch and comes
 * back in the other. Commands go through the host's runner, so a capture records them.
 *
 * @param peer     the host serving perftest; empty in loopback mode
 * @param loopback the namespace and HCA that serve in loopback mode
 * @param bin      folder of the perftest binaries; empty for PATH
 * @param dmabuf   use --use_cuda_dmabuf (DMA-BUF) instead of the peer-memory client
 */
public record PerftestMatrixProbe(String peer, Optional<Loopback> loopback, String bin, int port, boolean dmabuf, Duration timeout)
        implements Probe<PerftestMatrix> {

    public static final String KEY = "perftestMatrix";

    /** The serving side of a loopback run: HCA {@code hca}, whose netdev lives in namespace {@code netns}. */
    public record Loopback(String netns, String hca, String ipTool) {

        /** Parses {@code NS/HCA}, as `--perftest-netns` takes it. */
        public static Optional<Loopback> parse(String spec, String ipTool) {
            int slash = spec.indexOf('/');
            if (slash <= 0 || slash == spec.length() - 1 || spec.indexOf('/', slash + 1) >= 0) {
                return Optional.empty();
            }
            return Optional.of(new Loopback(spec.substring(0, slash), spec.substring(slash + 1), ipTool));
        }
    }

    /** Against a peer that serves perftest. */
    public PerftestMatrixProbe(String peer, String bin, int port, boolean dmabuf, Duration timeout) {
        this(peer, Optional.empty(), bin, port, dmabuf, timeout);
    }

    /** Between this node's ports, the server side in a network namespace. */
    public static PerftestMatrixProbe loopback(Loopback l, String bin, int port, boolean dmabuf, Duration timeout) {
        return new PerftestMatrixProbe("", Optional.of(l), bin, port, dmabuf, timeout);
    }

    private static final Pattern INET = Pattern.compile("^\\d+:\\s+(\\S+)\\s+inet\\s+(\\d+\\.\\d+\\.\\d+\\.\\d+)/\\d+");
    private static final int SIZE = 1048576;
    private static final int ITERATIONS = 1000;

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "active: perftest per GPU and HCA against a peer or a port in a network namespace, NIC reading GPU memory "
                + "(ib_write_bw) and writing it (ib_read_bw)";
    }

    @Override
    public PerftestMatrix run(Host host) {
        RdmaDevices rdma = new RdmaProbe().run(host);
        String serving = loopback.map(Loopback::hca).orElse("");
        List<String> hcas = rdma.devices().orElse(List.of()).stream().filter(PerftestMatrixProbe::active)
                .map(RdmaDevices.RdmaDevice::name).filter(n -> !n.equals(serving)).toList();
        if (hcas.isEmpty()) {
            return new PerftestMatrix(Fact.absent(loopback.isPresent()
                    ? "skipped: no RDMA device with an ACTIVE port besides " + serving + ", which serves in namespace " + loopback.get().netns()
                    : "skipped: no RDMA device with an ACTIVE port"));
        }
        GpuSurvey survey = new GpuProbe().run(host);
        if (!survey.gpus().isValue() || survey.gpus().get().isEmpty()) {
            return new PerftestMatrix(Fact.absent("skipped: no GPU (" + survey.gpus().fold(l -> "none visible", r -> r) + ")"));
        }
        String target = peer;
        if (loopback.isPresent()) {
            Fact<String> address = namespaceAddress(host, loopback.get());
            if (!address.isValue()) {
                return new PerftestMatrix(Fact.absent("skipped: " + address.reason()));
            }
            target = address.get();
        }
        List<PerftestMatrix.Cell> cells = new ArrayList<>();
        for (GpuSurvey.Gpu g : survey.gpus().get()) {
            for (String hca : hcas) {
                cells.add(cell(host, target, g, hca, PerftestMatrix.Direction.NIC_READS_GPU));
                cells.add(cell(host, target, g, hca, PerftestMatrix.Direction.NIC_WRITES_GPU));
            }
        }
        return new PerftestMatrix(Fact.of(cells));
    }

    private static boolean active(RdmaDevices.RdmaDevice d) {
        return d.ports().orElse(List.of()).stream().anyMatch(p -> p.state().orElse("").equals("ACTIVE"));
    }

    /** The first global IPv4 address in the namespace, from {@code ip -n NS -4 -o addr show scope global}. */
    Fact<String> namespaceAddress(Host host, Loopback l) {
        List<String> argv = List.of(l.ipTool(), "-n", l.netns(), "-4", "-o", "addr", "show", "scope", "global");
        CommandResult r = host.commands().run(argv, Duration.ofSeconds(10));
        if (!(r instanceof CommandResult.Exited e) || e.exitCode() != 0) {
            String why = r instanceof CommandResult.NotRun n ? n.reason()
                    : r instanceof CommandResult.Exited e ? "exited with " + e.exitCode() + ": " + firstLine(e.stderr()) : "timed out";
            return Fact.absent("cannot read the address of namespace " + l.netns() + " (" + String.join(" ", argv) + ": " + why + ")");
        }
        for (String line : e.stdout().lines().toList()) {
            Matcher m = INET.matcher(line.strip());
            if (m.find() && !m.group(1).equals("lo")) {
                return Fact.of(m.group(2));
            }
        }
        return Fact.absent("namespace " + l.netns() + " has no global IPv4 address; move " + l.hca() + "'s netdev there and give it "
                + "an address in the same subnet as the other port (docs/gdr.md, loopback matrix)");
    }

    private static String firstLine(String s) {
        return s.lines().findFirst().orElse("").strip();
    }

    private String tool(PerftestMatrix.Direction d) {
        return (bin.isEmpty() ? "" : bin + "/") + (d == PerftestMatrix.Direction.NIC_READS_GPU ? "ib_write_bw" : "ib_read_bw");
    }

    private int port(PerftestMatrix.Direction d) {
        return d == PerftestMatrix.Direction.NIC_READS_GPU ? port : port + 1;
    }

    /** The client command line for one cell. */
    List<String> argv(int gpu, String hca, PerftestMatrix.Direction d, String target) {
        List<String> a = new ArrayList<>(List.of(tool(d), "-d", hca, "-p", String.valueOf(port(d)), "--use_cuda=" + gpu));
        if (dmabuf) {
            a.add("--use_cuda_dmabuf");
        }
        a.addAll(List.of("-s", String.valueOf(SIZE), "-n", String.valueOf(ITERATIONS), "-F", "--report_gbits", target));
        return a;
    }

    /** The loopback server's command line: the same test in host memory, inside the namespace. */
    List<String> serverArgv(Loopback l, PerftestMatrix.Direction d) {
        return List.of(l.ipTool(), "netns", "exec", l.netns(), tool(d), "-d", l.hca(), "-p", String.valueOf(port(d)),
                "-s", String.valueOf(SIZE), "-n", String.valueOf(ITERATIONS), "-F", "--report_gbits");
    }

    private PerftestMatrix.Cell cell(Host host, String target, GpuSurvey.Gpu g, String hca, PerftestMatrix.Direction d) {
        List<String> argv = argv(g.index(), hca, d, target);
        CompletableFuture<CommandResult> server = loopback
                .map(l -> CompletableFuture.supplyAsync(() -> host.commands().run(serverArgv(l, d), timeout.plusSeconds(5))))
                .orElse(null);
        CommandResult r = runClient(host, argv, server);
        String out = output(r);
        Fact<String> problem;
        if (r instanceof CommandResult.NotRun n) {
            problem = Fact.of(n.reason());
        } else if (r instanceof CommandResult.TimedOut) {
            problem = Fact.of("no result within " + timeout.toSeconds() + " s (is " + (loopback.isPresent() ? "the server in namespace "
                    + loopback.get().netns() : "the peer") + " serving on port " + port(d) + "?)");
        } else {
            int code = ((CommandResult.Exited) r).exitCode();
            problem = code == 0 ? Fact.absent("ran") : Fact.of(argv.get(0) + " exited with " + code);
        }
        CommandResult served = server == null ? null : server.join();
        Fact<Double> gbps = Fact.absent(problem.orElse("no bandwidth line"));
        try {
            PerftestOutput p = PerftestOutput.parse(out.lines().toList(), String.join(" ", argv));
            if (!p.errors().isEmpty()) {
                problem = Fact.of(p.errors().get(0));
            }
            if (!p.rows().isEmpty() && !problem.isValue()) {
                PerftestOutput.Row row = p.rows().stream().filter(x -> x.bytes() == SIZE).findFirst().orElse(p.rows().get(p.rows().size() - 1));
                gbps = p.unit().startsWith("Gb") ? Fact.of(row.average())
                        : Fact.absent("reported in " + p.unit() + " although --report_gbits was given; not converted");
            }
        } catch (io.nccldoctor.core.InputException e) {
            if (!problem.isValue()) {
                problem = Fact.of("no perftest output");
            }
        }
        if (problem.isValue() && served != null && !(served instanceof CommandResult.Exited e && e.exitCode() == 0)) {
            problem = Fact.of(problem.get() + "; the server " + describe(served));
        }
        if (problem.isValue()) {
            gbps = Fact.absent(problem.get());
        }
        return new PerftestMatrix.Cell(g.index(), g.busId(), hca, d, argv, gbps, problem);
    }

    /**
     * Runs the client; in loopback mode it may start before its server listens, so a refused connection is tried again
     * (up to 10 times, 300 ms apart) while the server is still running.
     */
    private CommandResult runClient(Host host, List<String> argv, CompletableFuture<CommandResult> server) {
        for (int attempt = 0; ; attempt++) {
            CommandResult r = host.commands().run(argv, timeout);
            boolean refused = r instanceof CommandResult.Exited e && e.exitCode() != 0
                    && (e.stdout() + e.stderr()).contains("Couldn't connect to");
            if (server == null || !refused || attempt == 9 || server.isDone()) {
                return r;
            }
            try {
                Thread.sleep(300);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return r;
            }
        }
    }

    private static String output(CommandResult r) {
        return r instanceof CommandResult.Exited e ? e.stdout() + e.stderr()
                : r instanceof CommandResult.TimedOut t ? t.stdout() + t.stderr() : "";
    }

    private static String describe(CommandResult s) {
        if (s instanceof CommandResult.NotRun n) {
            return "did not start: " + n.reason();
        }
        if (s instanceof CommandResult.TimedOut) {
            return "never got a connection";
        }
        CommandResult.Exited e = (CommandResult.Exited) s;
        String last = output(s).lines().filter(x -> !x.isBlank()).reduce((a, b) -> b).orElse("").strip();
        return "exited with " + e.exitCode() + (last.isEmpty() ? "" : ": " + last);
    }
}
