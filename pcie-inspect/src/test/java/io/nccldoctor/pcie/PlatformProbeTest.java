package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlatformProbeTest {

    @TempDir
    Path root;

    @Test
    void readsTheBuildVmCpuInfo() {
        Platform.Cpu cpu = PlatformProbe.parseCpuInfo(Fixtures.text("build-vm/cpuinfo.txt").lines().toList());
        assertThat(cpu.vendor().get()).isEqualTo("GenuineIntel");
        assertThat(cpu.family().get()).isEqualTo(6);
        assertThat(cpu.model().get()).isEqualTo(167);
        assertThat(cpu.modelName().get()).isEqualTo("Intel(R) Xeon(R) Processor");
        assertThat(cpu.logicalCpus().get()).isEqualTo(2);
        assertThat(cpu.sockets().get()).isEqualTo(1);
    }

    @Test
    void twoSocketsAreCountedByPhysicalIdAndArmHasNone() {
        List<String> twoSockets = List.of("processor\t: 0", "vendor_id\t: AuthenticAMD", "cpu family\t: 25", "model\t\t: 17",
                "physical id\t: 0", "", "processor\t: 1", "vendor_id\t: AuthenticAMD", "physical id\t: 1");
        assertThat(PlatformProbe.parseCpuInfo(twoSockets).sockets().get()).isEqualTo(2);
        assertThat(PlatformProbe.parseCpuInfo(twoSockets).family().get()).isEqualTo(25);
        var arm = PlatformProbe.parseCpuInfo(List.of("processor\t: 0", "BogoMIPS\t: 50.00", "CPU implementer\t: 0x41"));
        assertThat(arm.vendor().isAbsent()).isTrue();
        assertThat(arm.sockets().reason()).contains("no physical id");
    }

    @Test
    void wholeProbeOnASysfsTree() {
        var host = TestHosts.at(root)
                .file("/proc/sys/kernel/hostname", "gpu-node-17\n")
                .file("/proc/sys/kernel/osrelease", "6.8.0-49-generic\n")
                .file("/etc/os-release", "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n")
                .file("/proc/cpuinfo", Fixtures.text("build-vm/cpuinfo.txt"))
                .file("/sys/devices/system/node/node1/cpulist", "32-63\n")
                .file("/sys/devices/system/node/node0/cpulist", "0-31\n")
                .file("/sys/devices/system/node/online", "0-1\n")
                .host();
        Platform p = new PlatformProbe().run(host);
        assertThat(p.hostName().get()).isEqualTo("gpu-node-17");
        assertThat(p.kernel().get()).isEqualTo("6.8.0-49-generic");
        assertThat(p.os().get()).isEqualTo("Ubuntu 24.04.1 LTS");
        assertThat(p.numaNodes().get()).extracting(Platform.NumaNode::id).containsExactly(0, 1);
        assertThat(p.numaNodes().get().get(1).cpuList().get()).isEqualTo("32-63");
    }

    @Test
    void anEmptyRootSaysWhyForEveryFact() {
        Platform p = new PlatformProbe().run(TestHosts.at(root).host());
        assertThat(p.kernel().describe()).isEqualTo("absent: no such file: /proc/sys/kernel/osrelease");
        assertThat(p.cpu().model().describe()).isEqualTo("absent: no such file: /proc/cpuinfo");
        assertThat(p.numaNodes().isAbsent()).isTrue();
    }
}
