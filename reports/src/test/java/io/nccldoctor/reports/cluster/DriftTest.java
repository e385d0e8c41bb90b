package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The drift table on small clusters with one planted difference each, stated from the field report's stories. */
class DriftTest {

    static final ClusterSample.Plan PLAN = new ClusterSample.Plan(9, List.of(), List.of(), List.of(), List.of("none", "none"), 7L);

    static List<Snapshot> healthy(int n) {
        List<Snapshot> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add(ClusterSample.node(i, PLAN));
        }
        return out;
    }

    static ClusterReport judge(List<Snapshot> nodes) {
        return Cluster.judge(ClusterData.of(nodes, List.of()), ClusterOptions.defaults(), "2026-11-30T12:00:00Z");
    }

    static Optional<Row> row(ClusterReport r, String attribute, String subject) {
        return r.drift().stream().filter(x -> x.attribute().equals(attribute) && x.subject().equals(subject)).findFirst();
    }

    @Test
    void aUniformClusterHasNoDriftAndOneLinePerAgreedAttribute() {
        ClusterReport r = judge(healthy(9));
        assertThat(r.drifting()).as("idle GPUs at 2.5 GT/s, GUIDs, IPs and times differ but are not drift").isEmpty();
        assertThat(r.findings()).isEmpty();
        assertThat(r.verdict()).isEqualTo("PASS");
        assertThat(row(r, "GPU PCIe links", "").orElseThrow().majority().get()).isEqualTo("8 × Gen5 x16");
        assertThat(row(r, "RDMA NIC PCIe links", "").orElseThrow().majority().get()).isEqualTo("10 × Gen5 x16");
        assertThat(row(r, "NIC firmware", "mlx5_9").orElseThrow().values()).singleElement()
                .satisfies(g -> assertThat(g.nodes()).hasSize(9));
        assertThat(Lines.merge(r.agreeing())).filteredOn(l -> l.attribute().equals("NIC firmware")).singleElement()
                .satisfies(l -> assertThat(l.label()).isEqualTo("NIC firmware mlx5_0 … mlx5_9 (10)"));
        assertThat(r.unknownEverywhere()).extracting(Row::attribute)
                .as("preflight takes no GPU survey: those attributes are unknown on every node, and only noted")
                .containsExactly("GPUDirect RDMA (GPU attribute 116)", "DMA-BUF (GPU attribute 124)");
    }

    @Test
    void anOlderDriverIsTheOddNodeWithItsValue() {
        List<Snapshot> nodes = healthy(9);
        nodes.set(4, ClusterSample.with(nodes.get(4), NvidiaDriverProbe.KEY,
                new NvidiaDriver(Fact.of("570.172.08"), Fact.of("open"), Fact.of("NVRM version: …"))));
        ClusterReport r = judge(nodes);
        Row driver = row(r, "NVIDIA driver", "").orElseThrow();
        assertThat(driver.status()).isEqualTo(Row.Status.DRIFTS);
        assertThat(driver.majority().get()).isEqualTo("580.95.05 open");
        assertThat(driver.odd()).singleElement().isEqualTo(new Row.Group("570.172.08 open", List.of("gpu-node-0005")));
        Finding f = r.findings().get(0);
        assertThat(f.code()).isEqualTo("CLUSTER_DRIFT");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.title()).isEqualTo("NVIDIA driver differs on 1 of 9 nodes: gpu-node-0005");
        assertThat(f.evidence()).containsExactly("NVIDIA driver: majority 580.95.05 open on 8 nodes; 570.172.08 open on gpu-node-0005");
    }

    @Test
    void aMissingPeerMemoryClientIsAValueNotAnUnknown() {
        List<Snapshot> nodes = healthy(9);
        GdrHost g = nodes.get(2).section(GdrHostProbe.KEY, GdrHost.class);
        nodes.set(2, ClusterSample.with(nodes.get(2), GdrHostProbe.KEY, new GdrHost(g.kernel(), g.dmaSharedBuffer(), g.iommuCmdline(),
                g.iommuGroups(), Fact.absent("no peer-memory client: none of …"), g.ibverbs(), g.rdmaCore(), g.dmabufMr())));
        Row peermem = row(judge(nodes), "nvidia_peermem", "").orElseThrow();
        assertThat(peermem.majority().get()).isEqualTo("nvidia_peermem 580.95.05");
        assertThat(peermem.oddNodes()).containsExactly("gpu-node-0003");
        assertThat(peermem.odd().get(0).value()).isEqualTo("not loaded");
    }

    @Test
    void aNarrowGpuLinkNamesTheDeviceButAnIdleGpuDoesNot() {
        List<Snapshot> nodes = healthy(9);
        PciInventory pci = nodes.get(6).section(PciInventoryProbe.KEY, PciInventory.class);
        List<PciDevice> devices = new ArrayList<>();
        for (PciDevice d : pci.devices().get()) {
            boolean narrow = d.address().equals("0000:19:00.0");
            devices.add(!narrow ? d : new PciDevice(d.address(), d.vendorId(), d.deviceId(), d.classCode(), d.kind(), d.names(), d.driver(),
                    d.numaNode(), d.sysfsPath(), new PciLink(Fact.of(2.5), Fact.of(8), Fact.of(32.0), Fact.of(16)), d.config(), d.aer(),
                    d.localCpus(), d.subsystem()));
        }
        nodes.set(6, ClusterSample.with(nodes.get(6), PciInventoryProbe.KEY, new PciInventory(Fact.of(devices), pci.namesSource())));
        Row links = row(judge(nodes), "GPU PCIe links", "").orElseThrow();
        assertThat(links.majority().get()).isEqualTo("8 × Gen5 x16");
        assertThat(links.odd()).singleElement().isEqualTo(new Row.Group("7 × Gen5 x16, 1 × Gen5 x8 (0000:19:00.0)", List.of("gpu-node-0007")));
    }

    @Test
    void mtuReadAfterARebootIsFlaggedPerPort() {
        List<Snapshot> nodes = healthy(9);
        ClusterSample.Plan mtu = new ClusterSample.Plan(9, List.of(), List.of(ClusterSample.host(2)), List.of(), List.of("x", "y"), 7L);
        nodes.set(1, ClusterSample.node(2, mtu));
        ClusterReport r = judge(nodes);
        assertThat(r.drifting()).extracting(Row::label).hasSize(10).allMatch(l -> l.startsWith("Netdev MTU mlx5_"));
        assertThat(Lines.merge(r.drifting())).singleElement().satisfies(l -> {
            assertThat(l.label()).isEqualTo("Netdev MTU mlx5_0/1 … mlx5_9/1 (10)");
            assertThat(l.row().odd()).containsExactly(new Row.Group("1500", List.of("gpu-node-0002")));
        });
        assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.title())
                .isEqualTo("Netdev MTU differs on 10 RDMA ports on 1 of 9 nodes: gpu-node-0002"));
    }

    @Test
    void renamedRdmaDevicesDriftInTheirNamesAndLeaveTheRestUnknown() {
        List<Snapshot> nodes = healthy(9);
        RdmaDevices rdma = nodes.get(3).section(RdmaProbe.KEY, RdmaDevices.class);
        List<RdmaDevices.RdmaDevice> renamed = rdma.devices().get().stream().map(d -> new RdmaDevices.RdmaDevice(
                "rocep" + d.pciAddress().get().substring(5, 7) + "s0f" + d.pciAddress().get().charAt(11), d.pciAddress(), d.fwVersion(),
                d.nodeGuid(), d.ports())).toList();
        nodes.set(3, ClusterSample.with(nodes.get(3), RdmaProbe.KEY, new RdmaDevices(Fact.of(renamed))));
        ClusterReport r = judge(nodes);
        assertThat(r.drifting()).extracting(Row::label).containsExactly("RDMA devices");
        assertThat(row(r, "RDMA devices", "").orElseThrow().oddNodes()).containsExactly("gpu-node-0004");
        Row fw = row(r, "NIC firmware", "mlx5_0").orElseThrow();
        assertThat(fw.status()).isEqualTo(Row.Status.AGREES);
        assertThat(fw.unknown()).containsExactly(new Row.Unknown("no RDMA device mlx5_0 on this node", List.of("gpu-node-0004")));
        assertThat(r.drift()).noneMatch(x -> x.subject().startsWith("rocep"));
        assertThat(r.notes()).anyMatch(n -> n.equals("NIC firmware rocep1as0f0: no row, present on 1 of 9 nodes (gpu-node-0004)"));
        assertThat(r.findings()).extracting(Finding::code).containsExactly("CLUSTER_DRIFT", "CLUSTER_FACTS_UNKNOWN",
                "CLUSTER_FACTS_UNKNOWN", "CLUSTER_FACTS_UNKNOWN", "CLUSTER_FACTS_UNKNOWN", "CLUSTER_FACTS_UNKNOWN");
    }

    @Test
    void aSectionTheSnapshotLacksIsUnknownNeverOdd() {
        List<Snapshot> nodes = healthy(9);
        nodes.set(8, ClusterSample.with(nodes.get(8), RdmaProbe.KEY, null));
        ClusterReport r = judge(nodes);
        assertThat(r.drifting()).isEmpty();
        Row names = row(r, "RDMA devices", "").orElseThrow();
        assertThat(names.status()).isEqualTo(Row.Status.AGREES);
        assertThat(names.unknown()).containsExactly(new Row.Unknown("the snapshot has no rdma section (preflight, gdr and topo take it)",
                List.of("gpu-node-0009")));
        assertThat(r.findings()).allMatch(f -> f.severity() == Severity.INFO && f.code().equals("CLUSTER_FACTS_UNKNOWN"));
    }

    @Test
    void twoNodesThatDisagreeHaveNoMajorityAndBothAreOdd() {
        List<Snapshot> nodes = healthy(2);
        nodes.set(1, ClusterSample.with(nodes.get(1), NvidiaDriverProbe.KEY,
                new NvidiaDriver(Fact.of("570.172.08"), Fact.of("open"), Fact.of("NVRM version: …"))));
        ClusterReport r = judge(nodes);
        Row driver = row(r, "NVIDIA driver", "").orElseThrow();
        assertThat(driver.majority().isValue()).isFalse();
        assertThat(driver.majority().reason()).isEqualTo("no majority: 2 values on 1 node each");
        assertThat(driver.oddNodes()).containsExactly("gpu-node-0002", "gpu-node-0001"); // 570 sorts before 580
        assertThat(r.findings().get(0).title()).isEqualTo("NVIDIA driver differs with no majority value: gpu-node-0001, gpu-node-0002");
    }

    @Test
    void siteOverridesRaiseDriftToAnErrorOrSwitchItOff() {
        List<Snapshot> nodes = healthy(9);
        nodes.set(0, ClusterSample.with(nodes.get(0), NvidiaDriverProbe.KEY,
                new NvidiaDriver(Fact.of("570.172.08"), Fact.of("open"), Fact.of("NVRM version: …"))));
        ClusterData data = ClusterData.of(nodes, List.of());
        ClusterReport strict = Cluster.judge(data, new ClusterOptions(3, Map.of("CLUSTER_DRIFT", Severity.ERROR), List.of()), "t");
        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.verdict()).isEqualTo("FAIL");
        ClusterReport off = Cluster.judge(data, new ClusterOptions(3, Map.of(), List.of("CLUSTER_DRIFT")), "t");
        assertThat(off.findings()).isEmpty();
        assertThat(off.drifting()).as("the table still shows the drift").hasSize(1);
        assertThat(off.notes()).contains("CLUSTER_DRIFT: disabled in configs/rules.yaml");
    }

    @Test
    void naturalOrderPutsNode2BeforeNode10() {
        List<String> hosts = new ArrayList<>(List.of("node10", "node2", "node1", "node02", "a"));
        hosts.sort(NaturalOrder.INSTANCE);
        assertThat(hosts).containsExactly("a", "node1", "node02", "node2", "node10");
    }
}
