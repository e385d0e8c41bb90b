package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The nearest-NIC index gives exactly what sorting all of a GPU's pairs by path gives: the same NICs, the same order,
 * on every real topology file and lspci tree here and on SYNTHETIC random hierarchies (switches of switches, shared
 * ports, devices without a path, several root complexes per NUMA node).
 */
class NearestNicsTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    private static List<String> bruteForce(Topology t, String gpu) {
        List<Topology.Pair> all = t.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC).map(n -> t.pair(gpu, n.label()))
                .sorted(Comparator.comparing(Topology.Pair::smiPath)).toList();
        return all.stream().filter(p -> p.smiPath() == all.get(0).smiPath()).map(p -> p.a() + "-" + p.b()).toList();
    }

    private static void assertSame(Topology t, String what) {
        for (Topology.Endpoint g : t.endpoints()) {
            if (!g.kind().isGpu() || t.endpoints().stream().noneMatch(e -> e.kind() == DeviceKind.NIC)) {
                continue;
            }
            assertThat(t.nearestNics(g.label()).stream().map(p -> p.a() + "-" + p.b()).toList())
                    .as("%s: nearest NICs of %s", what, g.label()).isEqualTo(bruteForce(t, g.label()));
        }
    }

    @Test
    void everyRealInputGivesTheSameNearestNics() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.getFileName().toString().startsWith("nccl-topo") || p.getFileName().toString().startsWith("lspci-tree"))
                    .sorted().toList();
        }
        int withPairs = 0;
        for (Path f : files) {
            String text = Files.readString(f);
            PciReading r = f.getFileName().toString().startsWith("nccl-topo") ? PciReading.ncclTopoXml(text, f.toString())
                    : PciReading.lspciTree(text, f.toString());
            Topology t = Topology.of(r.devices(), r.rdmaNames(), "2.27.5", f.toString());
            assertSame(t, f.getFileName().toString());
            withPairs += t.endpoints().stream().anyMatch(e -> e.kind().isGpu()) && t.endpoints().stream().anyMatch(e -> e.kind() == DeviceKind.NIC) ? 1 : 0;
        }
        assertThat(withPairs).as("inputs with GPUs and NICs checked").isGreaterThanOrEqualTo(10);
    }

    @Test
    void randomHierarchiesGiveTheSameNearestNics() {
        for (int seed = 0; seed < 300; seed++) {
            Random rnd = new Random(seed);
            List<PciDevice> devices = machine(rnd);
            assertSame(Topology.of(devices, Map.of(), "2.27.5", "seed " + seed), "seed " + seed);
        }
    }

    /** Up to 3 root complexes on 2 NUMA nodes; below each, random chains of bridges; GPUs and NICs at random depths. */
    private static List<PciDevice> machine(Random rnd) {
        List<PciDevice> out = new ArrayList<>();
        List<String> parents = new ArrayList<>();
        int roots = 1 + rnd.nextInt(3);
        for (int r = 0; r < roots; r++) {
            parents.add("/sys/devices/pci0000:" + String.format("%02x", r * 0x40));
        }
        int bus = 1;
        int bridges = rnd.nextInt(12);
        for (int i = 0; i < bridges; i++) {
            String parent = parents.get(rnd.nextInt(parents.size()));
            String address = String.format("0000:%02x:00.0", bus++);
            out.add(device(address, "1000", "060400", parent + "/" + address, numa(parent)));
            parents.add(parent + "/" + address);
        }
        int ends = 2 + rnd.nextInt(10);
        for (int i = 0; i < ends; i++) {
            String parent = parents.get(rnd.nextInt(parents.size()));
            String address = String.format("0000:%02x:00.%d", bus, rnd.nextInt(2));
            bus++;
            boolean gpu = rnd.nextBoolean();
            boolean noPath = rnd.nextInt(10) == 0;
            out.add(device(address, gpu ? "10de" : "15b3", gpu ? "030200" : "020700", noPath ? null : parent + "/" + address,
                    rnd.nextInt(5) == 0 ? -1 : numa(parent)));
        }
        return out;
    }

    private static int numa(String path) {
        return path.contains("pci0000:00") ? 0 : 1;
    }

    private static PciDevice device(String address, String vendor, String cls, String path, int numa) {
        PciLink link = new PciLink(Fact.of(16.0), Fact.of(16), Fact.of(16.0), Fact.of(16));
        String why = "synthetic";
        PcieConfig config = new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        return new PciDevice(address, vendor, "0001", cls, DeviceKind.classify(vendor, cls), Fact.absent(why), Fact.absent(why),
                numa < 0 ? Fact.absent("numa_node -1") : Fact.of(numa), path == null ? Fact.absent("no sysfs path") : Fact.of(path),
                link, config, Fact.absent(why), Fact.absent(why), Fact.absent(why));
    }
}
