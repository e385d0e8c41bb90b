package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Predicts NCCL's GPUDirect RDMA decision for every GPU–NIC pair (ncclTopoCheckGdr, src/graph/paths.cc;
 * reference/nccl-internals.md §4): the transport must support GDR at all (a peer-memory client, or DMA-BUF on
 * kernel, rdma-core and GPU), the GPU must, and the pair's path must be within NCCL_NET_GDR_LEVEL (default PXB; P2C from
 * 2.29 while NCCL_NET_GDR_C2C is on, {@link GdrLevel}).
 * NCCL_NET_GDR_READ then decides whether the NIC reads GPU memory: by default on for sm 80 and newer since 2.19.
 */
public final class GdrPredictor {

    private GdrPredictor() {
    }

    /**
     * The host-wide answer: can the RDMA stack register GPU memory at all, and by which mechanism.
     *
     * @param dmabuf  kernel, kernel config and rdma-core allow DMA-BUF registration (the GPU must allow it too)
     * @param peermem a peer-memory client is loaded (the GPU must support nv-p2p: not GeForce)
     */
    public record Transport(Fact<String> mechanism, boolean dmabuf, boolean peermem, List<String> chain) {
    }

    public static Transport transport(GdrHost host) {
        List<String> chain = new ArrayList<>();
        boolean peermem = host.peermem().isValue();
        chain.add(peermem ? "peer-memory client present (" + host.peermem().get() + ")" : "no peer-memory client (nvidia_peermem not loaded)");
        Fact<Boolean> kernel = host.kernel().map(k -> kernelAtLeast(k, 5, 12));
        chain.add("kernel " + host.kernel().describe() + kernel.map(ok -> ok ? " (DMA-BUF needs 5.12: ok)" : " (DMA-BUF needs 5.12: too old)").orElse(""));
        Fact<Boolean> config = host.dmaSharedBuffer().map(v -> !v.equals("not set"));
        host.dmaSharedBuffer().map(v -> chain.add("CONFIG_DMA_SHARED_BUFFER=" + v));
        chain.add("rdma-core " + host.rdmaCore().describe() + host.dmabufMr().map(b -> b ? ", exports ibv_reg_dmabuf_mr" : ", no ibv_reg_dmabuf_mr (needs rdma-core 34)").orElse(""));
        boolean dmabuf = kernel.orElse(false) && config.orElse(true) && host.dmabufMr().orElse(false);
        if (dmabuf || peermem) {
            String m = dmabuf && peermem ? "DMA-BUF or the peer-memory client" : dmabuf ? "DMA-BUF" : "the peer-memory client";
            return new Transport(Fact.of(m), dmabuf, peermem, chain);
        }
        boolean unknown = !host.kernel().isValue() || !host.dmabufMr().isValue() && host.ibverbs().found();
        return new Transport(unknown ? Fact.absent("cannot tell: " + String.join("; ", chain))
                : Fact.absent("neither a peer-memory client nor DMA-BUF: NCCL cannot register GPU memory with the NIC"),
                false, false, chain);
    }

    private static final Set<String> CONSUMER = Set.of("GEFORCE", "GEFORCE_RTX", "TITAN", "TITAN_RTX");

    /**
     * How this GPU's memory can be registered: DMA-BUF when the host allows it and the GPU reports
     * DMA_BUF_SUPPORTED; else the peer-memory client when loaded and the GPU supports nv-p2p (attribute 116, and
     * not a GeForce: NVIDIA documents GPUDirect RDMA for data-centre and professional GPUs only).
     */
    static Fact<String> gpuMechanism(Transport t, Optional<GpuSurvey.Gpu> gpu) {
        if (gpu.isEmpty()) {
            return Fact.of(t.mechanism().get() + " (GPU not surveyed: its own support unknown)");
        }
        GpuSurvey.Gpu g = gpu.get();
        if (t.dmabuf() && g.dmabufSupported().orElse(false)) {
            return Fact.of("DMA-BUF");
        }
        boolean consumer = g.brand().map(CONSUMER::contains).orElse(false);
        if (t.peermem() && g.gdrSupported().orElse(false) && !consumer) {
            return Fact.of("the peer-memory client");
        }
        List<String> why = new ArrayList<>();
        if (t.dmabuf()) {
            why.add("the GPU reports DMA_BUF_SUPPORTED " + g.dmabufSupported().describe());
        }
        if (t.peermem()) {
            why.add(consumer ? "a " + g.brand().get() + " GPU does not support GPUDirect RDMA through nv-p2p"
                    : "the GPU reports GPU_DIRECT_RDMA_SUPPORTED " + g.gdrSupported().describe());
        }
        return Fact.absent(String.join(", and ", why));
    }

    public static List<GdrDecision> decide(Topology t, GpuSurvey gpus, Transport transport, Map<String, String> env,
                                           Fact<PlatformIdentity> platform) {
        String v = t.ncclVersion();
        GdrLevel level = GdrLevel.parse(env.get("NCCL_NET_GDR_LEVEL"), v, env.get("NCCL_NET_GDR_C2C"));
        int pxb = NcclPathTypes.number("PXB", v);
        boolean intelClient = platform.map(p -> p.platformClass() == PlatformIdentity.PlatformClass.INTEL_CLIENT).orElse(false);
        long gpuCount = t.endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU).count();
        List<GdrDecision> out = new ArrayList<>();
        for (Topology.Endpoint g : t.endpoints()) {
            if (g.kind() != DeviceKind.GPU) {
                continue;
            }
            Optional<GpuSurvey.Gpu> info = gpus.gpus().orElse(List.of()).stream().filter(x -> x.busId().equals(g.address())).findFirst();
            for (Topology.Endpoint n : t.endpoints()) {
                if (n.kind() != DeviceKind.NIC) {
                    continue;
                }
                Topology.Pair p = t.pair(g.label(), n.label());
                out.add(decide(g, n, p, info, transport, level, pxb, v, env.get("NCCL_NET_GDR_READ"), intelClient, gpuCount));
            }
        }
        return out;
    }

    private static GdrDecision decide(Topology.Endpoint g, Topology.Endpoint n, Topology.Pair p, Optional<GpuSurvey.Gpu> info,
                                      Transport transport, GdrLevel level, int pxb, String v, String readEnv,
                                      boolean intelClient, long gpuCount) {
        List<String> chain = new ArrayList<>();
        Fact<Boolean> enabled;
        if (!transport.mechanism().isValue()) {
            chain.add("GDR unavailable on this host: " + transport.mechanism().reason());
            enabled = transport.mechanism().isAbsent() && transport.mechanism().reason().startsWith("cannot tell")
                    ? Fact.absent(transport.mechanism().reason()) : Fact.of(false);
        } else if (!gpuMechanism(transport, info).isValue()) {
            chain.add(g.label() + " cannot be registered: " + gpuMechanism(transport, info).reason());
            enabled = Fact.of(false);
        } else if (p.ncclNumber() > level.number()) {
            chain.add(p.ncclPath() + " (" + p.ncclNumber() + ") > " + level.name() + " (" + level.number() + ") → NCCL " + v
                    + " disables GDR (" + level.source() + ")");
            if (level.ignored() != null) {
                chain.add("NCCL_NET_GDR_LEVEL=" + level.raw() + " is ignored: " + level.ignored());
            }
            chain.add("NCCL_NET_GDR_LEVEL=" + p.ncclPath() + " would enable it"
                    + (intelClient && p.ncclNumber() > pxb ? ", but this is an Intel client root complex: NIC reads from GPU memory"
                    + " will fail, so also keep NCCL_NET_GDR_READ=0" : ""));
            enabled = Fact.of(false);
        } else {
            chain.add(p.ncclPath() + " (" + p.ncclNumber() + ") <= " + level.name() + " (" + level.number() + ") → NCCL " + v
                    + " enables GDR via " + gpuMechanism(transport, info).get() + " (" + level.source() + ")");
            enabled = Fact.of(true);
        }
        Fact<Boolean> read = enabled.flatMap(on -> on ? read(readEnv, v, info, gpuCount, chain) : Fact.of(false));
        if (read.orElse(false) && intelClient && p.ncclNumber() > pxb) {
            chain.add("warning: GDR reads across root ports of an Intel client CPU fail silently; set NCCL_NET_GDR_READ=0");
        }
        return new GdrDecision(g.label(), g.address(), n.label(), n.name(), p.ncclPath(), p.ncclNumber(), level, enabled, read, chain);
    }

    /** NCCL_NET_GDR_READ: 0 off, >0 on, unset: on for sm ≥ 80 since 2.19, else only with an NVLink peer or a single GPU. */
    private static Fact<Boolean> read(String env, String v, Optional<GpuSurvey.Gpu> info, long gpuCount, List<String> chain) {
        if (env != null && !env.isBlank() && Character.isDigit(env.strip().charAt(0))) {
            boolean on = GdrLevel.strtol(env.strip()) > 0;
            chain.add("NCCL_NET_GDR_READ=" + env + " → reads " + (on ? "on" : "off"));
            return Fact.of(on);
        }
        Fact<Integer> sm = info.map(GpuSurvey.Gpu::sm).orElse(Fact.absent("GPU not surveyed"));
        if (NcclPathTypes.compareVersions(v, "2.19.0") >= 0 && sm.isValue() && sm.get() >= 80) {
            chain.add("sm " + sm.get() + " >= 80 → GDR reads on by default (NCCL >= 2.19)");
            return Fact.of(true);
        }
        if (gpuCount == 1) {
            chain.add("a single GPU → GDR reads on by default");
            return Fact.of(true);
        }
        chain.add("GDR reads on only with an NVLink peer (sm " + sm.describe() + ", NVLink not visible from PCIe)");
        return Fact.absent("depends on NVLink, which PCIe does not show");
    }

    static boolean kernelAtLeast(String release, int major, int minor) {
        String[] p = release.split("[.-]");
        try {
            int ma = Integer.parseInt(p[0]);
            int mi = p.length > 1 ? Integer.parseInt(p[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
