package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import io.nccldoctor.core.exec.CommandResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PciInventoryProbeTest {

    @TempDir
    Path root;

    /** One PCI function in the sysfs layout: attributes in the real device folder, a link in /sys/bus/pci/devices. */
    static TestHosts function(TestHosts h, String chain, String vendor, String device, String cls, String driver, String numa) {
        String bdf = chain.substring(chain.lastIndexOf('/') + 1);
        String dir = "/sys/devices/" + chain;
        h.file(dir + "/vendor", "0x" + vendor + "\n").file(dir + "/device", "0x" + device + "\n")
                .file(dir + "/class", "0x" + cls + "\n").file(dir + "/numa_node", numa + "\n")
                .link("/sys/bus/pci/devices/" + bdf, "../../../devices/" + chain);
        if (driver != null) {
            h.link(dir + "/driver", "../../../../bus/pci/drivers/" + driver);
        }
        return h;
    }

    @Test
    void classifiesGpusNicsBridgesAndDisplaysOfAGpuNode() {
        TestHosts h = TestHosts.at(root);
        function(h, "pci0000:00/0000:00:00.0", "8086", "09a2", "060000", null, "0");
        function(h, "pci0000:00/0000:00:02.0", "8086", "347a", "060400", "pcieport", "0");
        function(h, "pci0000:00/0000:00:02.0/0000:17:00.0", "10de", "2330", "030200", "nvidia", "0");
        function(h, "pci0000:00/0000:00:02.0/0000:17:00.1", "10de", "22a3", "040300", null, "0");
        function(h, "pci0000:00/0000:00:03.0/0000:18:00.0", "15b3", "1021", "020700", "mlx5_core", "0");
        function(h, "pci0000:00/0000:00:04.0/0000:19:00.0", "15b3", "1021", "020000", "mlx5_core", "-1");
        function(h, "pci0000:00/0000:00:05.0/0000:03:00.0", "1a03", "2000", "030000", "ast", "0");
        function(h, "pci0000:00/0000:00:06.0/0000:04:00.0", "10de", "22a3", "068000", null, "0");
        h.file("/sys/devices/pci0000:00/0000:00:02.0/0000:17:00.0/subsystem_vendor", "0x10de\n")
                .file("/sys/devices/pci0000:00/0000:00:02.0/0000:17:00.0/subsystem_device", "0x16c1\n");
        PciInventory inv = new PciInventoryProbe().run(h.host());

        assertThat(inv.devices().get()).hasSize(8);
        assertThat(inv.ofKind(DeviceKind.GPU)).extracting(PciDevice::address).containsExactly("0000:17:00.0");
        assertThat(inv.ofKind(DeviceKind.NIC)).extracting(PciDevice::address).containsExactly("0000:18:00.0", "0000:19:00.0");
        assertThat(inv.ofKind(DeviceKind.DISPLAY)).as("an ASPEED BMC VGA is no GPU").extracting(PciDevice::ids).containsExactly("1a03:2000");
        assertThat(inv.ofKind(DeviceKind.NVSWITCH)).hasSize(1);
        assertThat(inv.ofKind(DeviceKind.BRIDGE)).hasSize(1);
        assertThat(inv.ofKind(DeviceKind.HOST_BRIDGE)).hasSize(1);
        PciDevice gpu = inv.ofKind(DeviceKind.GPU).get(0);
        assertThat(gpu.driver().get()).isEqualTo("nvidia");
        assertThat(gpu.numaNode().get()).isEqualTo(0);
        assertThat(gpu.subsystem().get()).as("the board maker's ids").isEqualTo("10de:16c1");
        assertThat(inv.ofKind(DeviceKind.NIC).get(0).subsystem().isAbsent()).isTrue();
        PciDevice nic = inv.devices().get().stream().filter(d -> d.address().equals("0000:19:00.0")).findFirst().orElseThrow();
        assertThat(nic.numaNode().reason()).contains("-1");
        assertThat(inv.devices().get().stream().filter(d -> d.address().equals("0000:17:00.1")).findFirst().orElseThrow()
                .driver().describe()).isEqualTo("absent: no driver bound");
        assertThat(inv.namesSource().reason()).isEqualTo("not in the capture: lspci -mm -nn -D");
    }

    @Test
    void namesComeFromTheRealBuildVmLspciOutput() {
        TestHosts h = TestHosts.at(root).stdout(PciInventoryProbe.LSPCI, Fixtures.text("build-vm/lspci-mm-nn-D.txt"));
        function(h, "pci0000:00/0000:00:03.0", "1af4", "1041", "020000", "virtio-pci", "-1");
        PciInventory inv = new PciInventoryProbe().run(h.host());
        PciDevice nic = inv.ofKind(DeviceKind.NIC).get(0);
        assertThat(nic.names().get()).isEqualTo(new PciDevice.PciNames("Red Hat, Inc.", "Virtio 1.0 network device", "Ethernet controller"));
        assertThat(inv.namesSource().get()).isEqualTo("lspci -mm -nn -D");
    }

    @Test
    void lspciParserKeepsBracketsInsideNamesAndSkipsGarbage() {
        var names = PciInventoryProbe.parseLspciMachine(java.util.List.of(
                "0000:00:00.0 \"Host bridge [0600]\" \"Intel Corporation [8086]\" \"Device [0d57]\" -p00 \"\" \"\"",
                "garbage \"unterminated",
                "",
                "0000:41:00.0 \"3D controller [0302]\" \"NVIDIA Corporation [10de]\" \"GA100 [A100 PCIe 40GB] [20f1]\" -ra1 \"NVIDIA Corporation [10de]\" \"Device [145f]\""));
        assertThat(names).containsOnlyKeys("0000:00:00.0", "0000:41:00.0");
        assertThat(names.get("0000:41:00.0").device()).isEqualTo("GA100 [A100 PCIe 40GB]");
    }

    @Test
    void noPciBusAndLspciFailureAreReportedNotInvented() {
        TestHosts h = TestHosts.at(root).command(new CommandResult.Exited(PciInventoryProbe.LSPCI, 1, "",
                "pcilib: Cannot open /proc/bus/pci\n", 3));
        PciInventory inv = new PciInventoryProbe().run(h.host());
        assertThat(inv.devices().describe()).isEqualTo("absent: no such file: /sys/bus/pci/devices");
        assertThat(inv.namesSource().describe()).isEqualTo("error: lspci exited with 1: pcilib: Cannot open /proc/bus/pci");
    }
}
