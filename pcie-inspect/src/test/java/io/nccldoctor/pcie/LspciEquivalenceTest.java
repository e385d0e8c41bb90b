package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.capture.Capture;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lspci route and the sysfs route agree: each sysfs fixture is written out as `lspci -D -vvvnn` would print it
 * (headers with class and ids, Bus: lines of bridges, LnkCap/LnkSta, DevCap/DevCtl, ACSCtl, NUMA node, driver),
 * read back, and every pair's path types and every endpoint's link must come out the same.
 */
class LspciEquivalenceTest {

    static final String[] SPEEDS = {"2.5", "5", "8", "16", "32", "64"};

    static String speed(double gt) {
        return SPEEDS[PciLink.generation(gt).get() - 1] + "GT/s";
    }

    static List<String> verbose(List<PciDevice> devices) {
        PciTree tree = PciTree.of(devices);
        List<String> out = new ArrayList<>();
        for (PciDevice d : devices) {
            String cls = d.classCode().substring(0, 4);
            out.add(d.address() + " Class [" + cls + "]: Vendor Device [" + d.vendorId() + ":" + d.deviceId() + "]");
            if (d.classCode().startsWith("0604")) {
                List<Integer> below = devices.stream().filter(c -> tree.bridges(c.address()).contains(d.address()))
                        .map(c -> Integer.parseInt(c.address().substring(5, 7), 16)).toList();
                if (!below.isEmpty()) {
                    int secondary = below.stream().min(Integer::compare).get();
                    int subordinate = below.stream().max(Integer::compare).get();
                    out.add(String.format(Locale.ROOT, "\tBus: primary=%s, secondary=%02x, subordinate=%02x, sec-latency=0",
                            d.address().substring(5, 7), secondary, subordinate));
                }
            }
            d.numaNode().map(n -> out.add("\tNUMA node: " + n));
            var l = d.link();
            if (l.maxSpeedGTps().isValue() && l.maxWidth().isValue()) {
                out.add("\t\tLnkCap:\tPort #0, Speed " + speed(l.maxSpeedGTps().get()) + ", Width x" + l.maxWidth().get() + ", ASPM not supported");
            }
            if (l.speedGTps().isValue() && l.width().isValue()) {
                out.add("\t\tLnkSta:\tSpeed " + speed(l.speedGTps().get()) + " (ok), Width x" + l.width().get() + " (ok)");
            }
            d.config().maxPayloadSupported().map(m -> out.add("\t\tDevCap:\tMaxPayload " + m + " bytes, PhantFunc 0, Latency L0s unlimited, L1 unlimited"));
            if (d.config().maxPayload().isValue()) {
                out.add("\t\tDevCtl:\tCorrErr- NonFatalErr- FatalErr- UnsupReq-");
                out.add("\t\t\tRlxdOrd+ ExtTag+ PhantFunc- AuxPwr- NoSnoop+");
                out.add("\t\t\tMaxPayload " + d.config().maxPayload().get() + " bytes, MaxReadReq " + d.config().maxReadRequest().get() + " bytes");
            }
            d.config().acsControl().map(a -> out.add("\t\tACSCtl:\t" + String.join(" ", List.of("SrcValid", "TransBlk", "ReqRedir",
                    "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans").stream().map(b -> b + (a.contains(b) ? "+" : "-")).toList())));
            d.driver().map(dr -> out.add("\tKernel driver in use: " + dr));
            out.add("");
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"dgx-class", "arrowlake-ws", "threadripper-pro-ws", "epyc-2s"})
    void verboseTextGivesTheSameTopologyAsSysfs(String fixture) {
        var host = Capture.open(TopologyFixturesTest.CAPTURES.resolve(fixture)).host();
        List<PciDevice> sysfs = new PciInventoryProbe().run(host).devices().get();
        LspciText text = LspciText.parse(null, null, verbose(sysfs), fixture + ".vvv");
        assertThat(text.problems()).isEmpty();
        Topology a = Topology.of(sysfs, Map.of(), "2.27.5", "sysfs");
        Topology b = Topology.of(text.devices(), Map.of(), "2.27.5", "lspci");
        assertThat(b.endpoints()).extracting(Topology.Endpoint::address).containsExactlyElementsOf(
                a.endpoints().stream().map(Topology.Endpoint::address).toList());
        for (Topology.Pair p : a.pairs()) {
            Topology.Pair q = b.pair(p.a(), p.b());
            assertThat(q.ncclPath()).as("%s %s-%s NCCL", fixture, p.a(), p.b()).isEqualTo(p.ncclPath());
            assertThat(q.narrowest().map(LinkCeiling::usableGbps).map(f -> f.orElse(-1.0)).orElse(-2.0))
                    .as("%s %s-%s ceiling", fixture, p.a(), p.b())
                    .isEqualTo(p.narrowest().map(LinkCeiling::usableGbps).map(f -> f.orElse(-1.0)).orElse(-2.0));
            assertThat(q.smiPath()).as("%s %s-%s nvidia-smi", fixture, p.a(), p.b()).isEqualTo(p.smiPath());
        }
        for (PciDevice d : sysfs) {
            PciDevice e = text.devices().stream().filter(x -> x.address().equals(d.address())).findFirst().orElseThrow();
            assertThat(e.kind()).isEqualTo(d.kind());
            assertThat(e.config().acsControl().orElse(List.of("(none)"))).as("ACS of %s", d.address())
                    .isEqualTo(d.config().acsControl().orElse(List.of("(none)")));
        }
    }
}
