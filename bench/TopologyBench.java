import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PcieConfig;
import io.nccldoctor.pcie.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time to build the PCI tree and every GPU/NIC pair path (with link ceilings) for a 200-device machine, in a warm
 * JVM. Run: bench/topology.sh. The machine: 8 root complexes over 2 NUMA nodes, each with a root port, a switch of
 * 8 downstream ports and a second-level switch, holding 4 GPUs and 4 NICs, six of them with a second function: 200 functions.
 */
public class TopologyBench {

    public static void main(String[] args) {
        List<PciDevice> devices = machine();
        for (int i = 0; i < 200; i++) {
            allPairs(Topology.of(devices, Map.of(), "2.27.5", "bench"));
        }
        long[] ns = new long[31];
        int pairs = 0;
        for (int i = 0; i < ns.length; i++) {
            long t0 = System.nanoTime();
            pairs = allPairs(Topology.of(devices, Map.of(), "2.27.5", "bench"));
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        System.out.printf(Locale.ROOT, "%d devices, %d pairs: median %.2f ms, max %.2f ms over %d warm runs (target < 100 ms)%n",
                devices.size(), pairs, ns[ns.length / 2] / 1e6, ns[ns.length - 1] / 1e6, ns.length);
    }

    /** Pairs are computed as they are read (each with its links and narrowest link): read every one, as topo --json does. */
    static int allPairs(Topology t) {
        int n = 0;
        for (Topology.Pair ignored : t.pairs()) {
            n++;
        }
        return n;
    }

    static List<PciDevice> machine() {
        List<PciDevice> out = new ArrayList<>();
        for (int rc = 0; rc < 8; rc++) {
            int bus = 0x10 + rc * 0x10;
            String root = String.format("pci0000:%02x", bus);
            String rp = String.format("0000:%02x:01.0", bus);
            String up = String.format("0000:%02x:00.0", bus + 1);
            String path = "/sys/devices/" + root + "/" + rp;
            out.add(device(rp, "8086", "060400", path, rc / 4));
            out.add(device(up, "1000", "060400", path + "/" + up, rc / 4));
            for (int port = 0; port < 8; port++) {
                String down = String.format("0000:%02x:%02x.0", bus + 2, port);
                String downPath = path + "/" + up + "/" + down;
                out.add(device(down, "1000", "060400", downPath, rc / 4));
                String ep = String.format("0000:%02x:00.0", bus + 3 + port);
                boolean gpu = port % 2 == 0;
                out.add(device(ep, gpu ? "10de" : "15b3", gpu ? "030200" : "020700", downPath + "/" + ep, rc / 4));
                if (port < 6) {
                    String fn = String.format("0000:%02x:00.1", bus + 3 + port);
                    out.add(device(fn, gpu ? "10de" : "15b3", gpu ? "040300" : "020700", downPath + "/" + fn, rc / 4));
                }
            }
            String host = String.format("0000:%02x:00.0", bus);
            out.add(device(host, "8086", "060000", "/sys/devices/" + root + "/" + host, rc / 4));
        }
        return out;
    }

    static PciDevice device(String address, String vendor, String cls, String path, int numa) {
        PciLink link = new PciLink(Fact.of(32.0), Fact.of(16), Fact.of(32.0), Fact.of(16));
        PcieConfig config = new PcieConfig(Fact.of("endpoint"), Fact.of(512), Fact.of(256), Fact.of(512), Fact.absent("none"));
        return new PciDevice(address, vendor, "0001", cls, DeviceKind.classify(vendor, cls), Fact.absent("bench"), Fact.absent("bench"),
                Fact.of(numa), Fact.of(path), link, config, Fact.absent("bench"), Fact.absent("bench"), Fact.absent("bench"));
    }
}
