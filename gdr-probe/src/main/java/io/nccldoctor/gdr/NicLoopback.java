package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.exec.CommandResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A GPU loopback per NIC with perftest: {@code ib_write_bw --use_cuda=GPU -d HCA} as server and client on this host,
 * the way Azure's check_ib_bw_gdr does it (Azure/azurehpc-health-checks customTests/azure_ib_write_bw_gdr.nhc: 8 MiB
 * messages, -F, --report_gbits, both sides in the GPU's memory). The HCA loops the traffic back, so it crosses the
 * GPU–NIC PCIe path in both directions (the NIC reads the sender's buffer and writes the receiver's) without a peer.
 * One HCA at a time, each server on its own TCP port; commands go through the host's runner.
 */
public final class NicLoopback {

    /** Azure's message size (MESSAGE_SIZE=8388608 in azure_ib_write_bw_gdr.nhc). */
    static final int SIZE = 8388608;
    static final int ITERATIONS = 1000;

    /** One HCA port and the GPU (CUDA index) whose memory it loops back. */
    public record Pair(String hca, int port, int gpu, String gpuBusId) {
    }

    /**
     * @param gbps     the average bandwidth of the 8 MiB row, or why there is none
     * @param notRun   the loopback could not start at all (perftest not installed), rather than failed
     */
    public record Result(Pair pair, List<String> argv, Fact<Double> gbps, boolean notRun) {
    }

    private NicLoopback() {
    }

    static List<String> argv(String bin, Pair p, int tcpPort, boolean client) {
        List<String> a = new ArrayList<>(List.of((bin.isEmpty() ? "" : bin + "/") + "ib_write_bw", "-d", p.hca(), "-i",
                String.valueOf(p.port()), "-p", String.valueOf(tcpPort), "--use_cuda=" + p.gpu(), "-s", String.valueOf(SIZE), "-n",
                String.valueOf(ITERATIONS), "-F", "--report_gbits"));
        if (client) {
            a.add("localhost");
        }
        return a;
    }

    /** Runs each pair in turn; stops at the first that cannot start (the others could not either). */
    public static List<Result> run(Host host, List<Pair> pairs, String bin, int basePort, Duration timeout) {
        List<Result> out = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            Result r = one(host, pairs.get(i), bin, basePort + i, timeout);
            out.add(r);
            if (r.notRun()) {
                break;
            }
        }
        return out;
    }

    private static Result one(Host host, Pair p, String bin, int tcpPort, Duration timeout) {
        List<String> client = argv(bin, p, tcpPort, true);
        CompletableFuture<CommandResult> server = CompletableFuture.supplyAsync(
                () -> host.commands().run(argv(bin, p, tcpPort, false), timeout.plusSeconds(5)));
        CommandResult r = runClient(host, client, server, timeout);
        CommandResult served = server.join();
        if (r instanceof CommandResult.NotRun n) {
            return new Result(p, client, Fact.absent(n.reason()), true);
        }
        if (r instanceof CommandResult.TimedOut) {
            return new Result(p, client, Fact.error("no result within " + timeout.toSeconds() + " s; the server " + describe(served)), false);
        }
        CommandResult.Exited e = (CommandResult.Exited) r;
        Fact<Double> gbps = bandwidth(e.stdout() + e.stderr(), String.join(" ", client));
        if (e.exitCode() != 0 && !gbps.isError()) {
            gbps = Fact.error(client.get(0) + " exited with " + e.exitCode() + ": " + lastLine(e.stdout() + e.stderr())
                    + "; the server " + describe(served));
        }
        return new Result(p, client, gbps, false);
    }

    /** The client may start before its server listens: a refused connection is tried again, up to 10 times 300 ms apart. */
    private static CommandResult runClient(Host host, List<String> argv, CompletableFuture<CommandResult> server, Duration timeout) {
        for (int attempt = 0; ; attempt++) {
            CommandResult r = host.commands().run(argv, timeout);
            boolean refused = r instanceof CommandResult.Exited e && e.exitCode() != 0 && (e.stdout() + e.stderr()).contains("Couldn't connect to");
            if (!refused || attempt == 9 || server.isDone()) {
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

    /** The average Gb/s of the 8 MiB row, or perftest's first error. */
    static Fact<Double> bandwidth(String output, String source) {
        try {
            PerftestOutput out = PerftestOutput.parse(output.lines().toList(), source);
            if (!out.errors().isEmpty()) {
                return Fact.error(out.errors().get(0));
            }
            return out.rows().stream().filter(row -> row.bytes() == SIZE).findFirst()
                    .map(row -> out.unit().startsWith("Gb") ? Fact.of(row.average())
                            : Fact.<Double>error("reported in " + out.unit() + " although --report_gbits was given"))
                    .orElseGet(() -> Fact.error("no " + SIZE + "-byte row in the output"));
        } catch (InputException e) {
            return Fact.error("no perftest output (" + lastLine(output) + ")");
        }
    }

    private static String describe(CommandResult s) {
        if (s instanceof CommandResult.NotRun n) {
            return "did not start: " + n.reason();
        }
        if (s instanceof CommandResult.TimedOut) {
            return "never got a connection";
        }
        CommandResult.Exited e = (CommandResult.Exited) s;
        return "exited with " + e.exitCode();
    }

    private static String lastLine(String s) {
        return s.lines().filter(x -> !x.isBlank()).reduce((a, b) -> b).orElse("no output").strip();
    }
}
