package io.nccldoctor.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostRootTest {

    @TempDir
    Path dir;

    @Test
    void sysfsDeviceLinksResolveToTheBridgeChainInsideTheRoot() {
        TestHosts.at(dir)
                .file("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/vendor", "0x10de\n")
                .link("/sys/bus/pci/devices/0000:01:00.0", "../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0");
        HostRoot root = HostRoot.at(dir);
        assertThat(root.realPath("/sys/bus/pci/devices/0000:01:00.0").get())
                .isEqualTo("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0");
        assertThat(root.readAttribute("/sys/bus/pci/devices/0000:01:00.0/vendor").get()).isEqualTo("0x10de");
    }

    @Test
    void absoluteLinkTargetsStayInsideTheCapture() {
        TestHosts.at(dir)
                .file("/opt/nccl/lib/libnccl.so.2.28.3", "")
                .link("/usr/lib/libnccl.so.2", "/opt/nccl/lib/libnccl.so.2.28.3");
        HostRoot root = HostRoot.at(dir);
        assertThat(root.realPath("/usr/lib/libnccl.so.2").get()).isEqualTo("/opt/nccl/lib/libnccl.so.2.28.3");
        assertThat(root.readLink("/usr/lib/libnccl.so.2").get()).isEqualTo("/opt/nccl/lib/libnccl.so.2.28.3");
    }

    @Test
    void dotDotNeverClimbsAboveTheRoot() {
        TestHosts.at(dir).file("/etc/os-release", "PRETTY_NAME=x\n");
        assertThat(HostRoot.at(dir).readLines("/../../../etc/os-release").get()).containsExactly("PRETTY_NAME=x");
    }

    @Test
    void missingFileIsAbsentAndLinkLoopIsAnError() {
        TestHosts.at(dir).link("/a", "/b").link("/b", "/a");
        HostRoot root = HostRoot.at(dir);
        assertThat(root.readAttribute("/proc/driver/nvidia/version").describe())
                .isEqualTo("absent: no such file: /proc/driver/nvidia/version");
        assertThat(root.readAttribute("/a").isError()).isTrue();
        assertThat(root.readAttribute("/a").reason()).contains("too many levels of symbolic links");
    }

    @Test
    void unreadableFileIsAnErrorNotAbsent() throws Exception {
        TestHosts.at(dir).file("/sys/secret", "x");
        Files.setPosixFilePermissions(dir.resolve("sys/secret"), PosixFilePermissions.fromString("---------"));
        var fact = HostRoot.at(dir).readAttribute("/sys/secret");
        // root reads anything; the test still holds the contract on either side
        if (fact.isValue()) {
            assertThat(fact.get()).isEqualTo("x");
        } else {
            assertThat(fact.describe()).isEqualTo("error: permission denied: /sys/secret");
        }
    }

    @Test
    void listingIsSortedAndFollowsALinkedFolder() {
        TestHosts.at(dir).file("/real/b", "").file("/real/a", "").link("/sys/class/infiniband", "/real");
        assertThat(HostRoot.at(dir).list("/sys/class/infiniband").get()).containsExactly("a", "b");
        assertThat(HostRoot.at(dir).list("/nothing").isAbsent()).isTrue();
    }

    @Test
    void liveRootIsSlash() {
        assertThat(HostRoot.live().isLive()).isTrue();
        assertThat(HostRoot.at(dir).isLive()).isFalse();
        assertThat(HostRoot.live().readAttribute("/proc/sys/kernel/osrelease").isValue())
                .as("every Linux host has /proc/sys/kernel/osrelease").isTrue();
    }
}
