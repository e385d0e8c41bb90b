package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.pcie.Topology;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-pair decisions and reason chains the fixture READMEs state (pcie-inspect/…/fixtures/captures). */
class GdrFixturesTest {

    static final Path CAPTURES = Path.of("../pcie-inspect/src/test/resources/fixtures/captures");

    record Node(Host host, Topology topology, GdrHost gdr, GpuSurvey gpus, Fact<PlatformIdentity> platform, RdmaDevices rdma) {
    }

    static Node node(String fixture, String version) {
        Host host = Capture.open(CAPTURES.resolve(fixture)).host();
        List<PciDevice> devices = new PciInventoryProbe().run(host).devices().get();
        RdmaDevices rdma = new RdmaProbe().run(host);
        Map<String, String> names = new LinkedHashMap<>();
        rdma.devices().get().forEach(d -> names.put(d.pciAddress().get(), d.name()));
        return new Node(host, Topology.of(devices, names, version, "test"), new GdrHostProbe().run(host), new GpuProbe().run(host),
                PlatformIdentity.of(new PlatformProbe().run(host).cpu()), rdma);
    }

    static List<GdrDecision> decide(Node n, Map<String, String> env) {
        return GdrPredictor.decide(n.topology(), n.gpus(), GdrPredictor.transport(n.gdr()), env, n.platform());
    }

    static GdrDecision pair(List<GdrDecision> ds, String gpu, String nic) {
        return ds.stream().filter(d -> d.gpu().equals(gpu) && d.nicName().equals(nic)).findFirst().orElseThrow();
    }

    @Test
    void healthyH100ServerUsesDmabufBelowItsSwitches() {
        Node n = node("dgx-class", "2.27.5");
        assertThat(n.gdr().rdmaCore().get()).isEqualTo("50");
        assertThat(n.gdr().dmabufMr().get()).isTrue();
        assertThat(n.gdr().peermem().isAbsent()).isTrue();
        assertThat(n.gpus().gpus().get()).hasSize(8).allMatch(g -> g.brand().get().equals("TESLA") && g.sm().get() == 90);
        List<GdrDecision> ds = decide(n, n.host().env());
        assertThat(ds).hasSize(64);
        GdrDecision near = pair(ds, "GPU0", "mlx5_0");
        assertThat(near.enabled().get()).isTrue();
        assertThat(near.read().get()).isTrue();
        assertThat(near.chain()).containsExactly("PIX (4) <= PXB (5) → NCCL 2.27.5 enables GDR via DMA-BUF (NCCL's default (PXB))",
                "sm 90 >= 80 → GDR reads on by default (NCCL >= 2.19)");
        assertThat(pair(ds, "GPU0", "mlx5_2").enabled().get()).isFalse();
        assertThat(ds.stream().filter(d -> d.enabled().get())).hasSize(16);
        assertThat(n.rdma().devices().get().get(0).ports().get().get(0).rate().get()).isEqualTo("400 Gb/sec (4X NDR)");
    }

    @Test
    void arrowLakeWithALowerCaseGdrLevel() {
        Node n = node("arrowlake-ws", "2.27.5");
        List<GdrDecision> ds = decide(n, n.host().env());
        assertThat(n.host().env()).containsEntry("NCCL_NET_GDR_LEVEL", "phb");
        GdrDecision d = pair(ds, "GPU0", "mlx5_0");
        assertThat(d.enabled().get()).isFalse();
        assertThat(d.chain()).containsExactly(
                "PHB (8) > PXB (5) → NCCL 2.27.5 disables GDR (NCCL's default (PXB): NCCL_NET_GDR_LEVEL=phb is silently ignored)",
                "NCCL_NET_GDR_LEVEL=phb is ignored: names are compared case-sensitively: 'phb' is not 'PHB'",
                "NCCL_NET_GDR_LEVEL=PHB would enable it, but this is an Intel client root complex: NIC reads from GPU memory will fail,"
                        + " so also keep NCCL_NET_GDR_READ=0");
        GdrDecision fixed = pair(decide(n, Map.of("NCCL_NET_GDR_LEVEL", "PHB")), "GPU0", "mlx5_0");
        assertThat(fixed.enabled().get()).isTrue();
        assertThat(fixed.read().get()).isTrue();
        assertThat(fixed.chain()).last().asString().startsWith("warning: GDR reads across root ports of an Intel client CPU fail silently");
        GdrDecision noReads = pair(decide(n, Map.of("NCCL_NET_GDR_LEVEL", "3", "NCCL_NET_GDR_READ", "0")), "GPU0", "mlx5_0");
        assertThat(noReads.enabled().get()).as("legacy 3 = PHB").isTrue();
        assertThat(noReads.read().get()).isFalse();
        RdmaDevices.Netdev slow = n.rdma().devices().get().get(1).ports().get().get(0).netdevs().get().get(0);
        assertThat(slow.mtu().get()).isEqualTo(1500);
        assertThat(slow.ipv4().get()).containsExactly("10.0.0.6/24");
    }

    @Test
    void geforceCardsCannotBeRegisteredEvenWithPeermem() {
        Node n = node("threadripper-pro-ws", "2.27.5");
        assertThat(n.gdr().peermem().get()).startsWith("/sys/module/nvidia_peermem/version");
        List<GdrDecision> ds = decide(n, n.host().env());
        assertThat(ds).allMatch(d -> !d.enabled().get());
        assertThat(pair(ds, "GPU1", "mlx5_0").chain()).containsExactly("GPU1 cannot be registered: the GPU reports "
                + "DMA_BUF_SUPPORTED false, and a GEFORCE GPU does not support GPUDirect RDMA through nv-p2p");
        assertThat(n.gpus().p2p().get().get(0).read().get()).isEqualTo("GPU_NOT_SUPPORTED");
    }

    @Test
    void oldKernelOldRdmaCoreAndNoPeermem() {
        Node n = node("epyc-2s", "2.27.5");
        GdrPredictor.Transport t = GdrPredictor.transport(n.gdr());
        assertThat(t.mechanism().isAbsent()).isTrue();
        assertThat(t.chain()).contains("kernel 5.4.0-216-generic (DMA-BUF needs 5.12: too old)",
                "rdma-core 28, no ibv_reg_dmabuf_mr (needs rdma-core 34)");
        assertThat(decide(n, n.host().env())).allMatch(d -> !d.enabled().get()
                && d.chain().get(0).startsWith("GDR unavailable on this host: neither a peer-memory client nor DMA-BUF"));
        assertThat(n.rdma().devices().get().get(0).ports().get().get(0).state().get()).isEqualTo("INIT");
    }

    @Test
    void kernelVersions() {
        assertThat(GdrPredictor.kernelAtLeast("5.12.0-1", 5, 12)).isTrue();
        assertThat(GdrPredictor.kernelAtLeast("5.4.0-216-generic", 5, 12)).isFalse();
        assertThat(GdrPredictor.kernelAtLeast("6.1.0", 5, 12)).isTrue();
    }
}
