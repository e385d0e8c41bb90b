package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.exec.CommandResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the read/write matrix against a peer that serves perftest: for each GPU and each HCA with an ACTIVE port,
 * `ib_write_bw` (port P) and `ib_read_bw` (port P + 1) as clients with `--use_cuda=GPU` (and `--use_cuda_dmabuf`
 * when asked), 1 MiB messages, Gbit/s. On the peer, per HCA: {@code while true; do ib_write_bw -d mlx5_0 -p P; done}
 * and the same for ib_read_bw on P + 1. Commands go through the host's runner, so a capture records them.
 *
 * @param bin        folder of the perftest binaries; empty for PATH
 * @param dmabuf     use --use_cuda_dmabuf (DMA-BUF) instead of the peer-memory client
 */
public record PerftestMatrixProbe(String peer, String bin, int port, boolean dmabuf, Duration timeout) implements Probe<PerftestMatrix> {

    public static final String KEY = "perftestMatrix";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "active: perftest per GPU and HCA against a peer, NIC reading GPU memory (ib_write_bw) and writing it (ib_read_bw)";
    }

    @Override
    public PerftestMatrix run(Host host) {
        RdmaDevices rdma = new RdmaProbe().run(host);
        List<String> hcas = rdma.devices().orElse(List.of()).stream().filter(PerftestMatrixProbe::active)
                .map(RdmaDevices.RdmaDevice::name).toList();
        if (hcas.isEmpty()) {
            return new PerftestMatrix(Fact.absent("skipped: no RDMA device with an ACTIVE port"));
        }
        GpuSurvey survey = new GpuProbe().run(host);
        if (!survey.gpus().isValue() || survey.gpus().get().isEmpty()) {
            return new PerftestMatrix(Fact.absent("skipped: no GPU (" + survey.gpus().fold(l -> "none visible", r -> r) + ")"));
        }
        List<PerftestMatrix.Cell> cells = new ArrayList<>();
        for (GpuSurvey.Gpu g : survey.gpus().get()) {
            for (String hca : hcas) {
                cells.add(cell(host, g, hca, PerftestMatrix.Direction.NIC_READS_GPU));
                cells.add(cell(host, g, hca, PerftestMatrix.Direction.NIC_WRITES_GPU));
            }
        }
        return new PerftestMatrix(Fact.of(cells));
    }

    private static boolean active(RdmaDevices.RdmaDevice d) {
        return d.ports().orElse(List.of()).stream().anyMatch(p -> p.state().orElse("").equals("ACTIVE"));
    }

    /** The client command line for one cell. */
    List<String> argv(int gpu, String hca, PerftestMatrix.Direction d) {
        boolean write = d == PerftestMatrix.Direction.NIC_READS_GPU;
        String tool = (bin.isEmpty() ? "" : bin + "/") + (write ? "ib_write_bw" : "ib_read_bw");
        List<String> a = new ArrayList<>(List.of(tool, "-d", hca, "-p", String.valueOf(write ? port : port + 1), "--use_cuda=" + gpu));
        if (dmabuf) {
            a.add("--use_cuda_dmabuf");
        }
        a.addAll(List.of("-s", "1048576", "-n", "1000", "-F", "--report_gbits", peer));
        return a;
    }

    private PerftestMatrix.Cell cell(Host host, GpuSurvey.Gpu g, String hca, PerftestMatrix.Direction d) {
        List<String> argv = argv(g.index(), hca, d);
        CommandResult r = host.commands().run(argv, timeout);
        String out = r instanceof CommandResult.Exited e ? e.stdout() + e.stderr()
                : r instanceof CommandResult.TimedOut t ? t.stdout() + t.stderr() : "";
        Fact<String> problem;
        if (r instanceof CommandResult.NotRun n) {
            problem = Fact.of(n.reason());
        } else if (r instanceof CommandResult.TimedOut) {
            problem = Fact.of("no result within " + timeout.toSeconds() + " s (is the peer serving on port " + argv.get(4) + "?)");
        } else {
            int code = ((CommandResult.Exited) r).exitCode();
            problem = code == 0 ? Fact.absent("ran") : Fact.of(argv.get(0) + " exited with " + code);
        }
        Fact<Double> gbps = Fact.absent(problem.orElse("no bandwidth line"));
        try {
            PerftestOutput p = PerftestOutput.parse(out.lines().toList(), String.join(" ", argv));
            if (!p.errors().isEmpty()) {
                problem = Fact.of(p.errors().get(0));
            }
            if (!p.rows().isEmpty() && !problem.isValue()) {
                PerftestOutput.Row row = p.rows().stream().filter(x -> x.bytes() == 1048576).findFirst().orElse(p.rows().get(p.rows().size() - 1));
                gbps = p.unit().startsWith("Gb") ? Fact.of(row.average())
                        : Fact.absent("reported in " + p.unit() + " although --report_gbits was given; not converted");
            }
        } catch (io.nccldoctor.core.InputException e) {
            if (!problem.isValue()) {
                problem = Fact.of("no perftest output");
            }
        }
        if (problem.isValue()) {
            gbps = Fact.absent(problem.get());
        }
        return new PerftestMatrix.Cell(g.index(), g.busId(), hca, d, argv, gbps, problem);
    }
}
