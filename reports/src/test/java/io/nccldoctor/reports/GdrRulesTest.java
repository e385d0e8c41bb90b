package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.rules.Registry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The GDR and RDMA rules on the fixtures, and on hand-made snapshots for what no fixture shows. */
class GdrRulesTest {

    static Snapshot snapshot(String fixture) {
        return Snapshots.take(Capture.open(TopologyRulesTest.CAPTURES.resolve(fixture)).host(), List.of(new PlatformProbe(),
                new PciInventoryProbe(), new NvidiaDriverProbe(), new LibrariesProbe(), new RdmaProbe(), new GdrHostProbe(),
                new GpuProbe()), List.of("test"), "test", Clock.systemUTC());
    }

    static List<String> codes(Snapshot s) {
        return Evaluation.of(s, Registry.gdrRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.of("2.27.5")))
                .findings().stream().map(f -> f.code() + ":" + f.subject()).toList();
    }

    @Test
    void eachFixtureHasTheFindingsItsReadmeStates() {
        assertThat(codes(snapshot("dgx-class"))).isEmpty();
        assertThat(codes(snapshot("arrowlake-ws"))).containsExactly("NCCL_GDR_LEVEL_IGNORED:NCCL_NET_GDR_LEVEL", "IOMMU_TRANSLATION:node",
                "ROCE_MTU_TOO_SMALL:mlx5_1 port 1", "ARP_FLUX:10.0.0.0/24");
        assertThat(codes(snapshot("threadripper-pro-ws"))).containsExactly("GEFORCE_NO_GPUDIRECT:0000:21:00.0",
                "GEFORCE_NO_GPUDIRECT:0000:41:00.0");
        assertThat(codes(snapshot("epyc-2s"))).containsExactly("GDR_UNAVAILABLE:node", "RDMA_PORT_NOT_ACTIVE:mlx5_0 port 1");
    }

    @Test
    void aRocePortWithoutV2GidAndMixedFirmware() {
        Snapshot base = snapshot("arrowlake-ws");
        RdmaDevices rdma = base.section(RdmaProbe.KEY, RdmaDevices.class);
        List<RdmaDevices.RdmaDevice> devices = new ArrayList<>();
        for (RdmaDevices.RdmaDevice d : rdma.devices().get()) {
            List<RdmaDevices.RdmaPort> ports = d.ports().get().stream().map(p -> new RdmaDevices.RdmaPort(p.number(), p.state(),
                    p.physState(), p.rateGbps(), p.rate(), p.linkLayer(), Fact.of(p.gids().get().stream()
                    .filter(g -> !g.type().orElse("").equals("RoCE v2")).toList()), p.netdevs())).toList();
            String fw = d.name().equals("mlx5_0") ? "16.35.4030" : "16.32.1010";
            devices.add(new RdmaDevices.RdmaDevice(d.name(), d.pciAddress(), Fact.of(fw), d.nodeGuid(), Fact.of(ports)));
        }
        Map<String, Object> sections = new java.util.LinkedHashMap<>(base.sections());
        sections.put(RdmaProbe.KEY, new RdmaDevices(Fact.of(devices)));
        Snapshot s = new Snapshot(base.schemaVersion(), base.toolVersion(), base.hostName(), base.createdAt(), base.source(),
                base.argv(), Map.of(), sections);
        assertThat(codes(s)).contains("ROCE_NO_V2_GID:mlx5_0 port 1", "ROCE_NO_V2_GID:mlx5_1 port 1", "HCA_FIRMWARE_MIXED:15b3:1017");
    }

    @Test
    void subnetsAreComputedFromCidr() {
        assertThat(io.nccldoctor.reports.rules.ArpFluxAccess.subnet("10.0.0.5/24")).isEqualTo("10.0.0.0/24");
        assertThat(io.nccldoctor.reports.rules.ArpFluxAccess.subnet("192.168.17.200/20")).isEqualTo("192.168.16.0/20");
    }
}
