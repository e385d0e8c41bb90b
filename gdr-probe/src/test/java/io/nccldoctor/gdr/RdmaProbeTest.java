package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdmaProbeTest {

    @TempDir
    Path root;

    @Test
    void devicesWithTheirPciFunctionAndPorts() {
        String dev = "/sys/devices/pci0000:00/0000:00:03.0/0000:18:00.0";
        var host = TestHosts.at(root)
                .dir(dev + "/infiniband/mlx5_0/ports/1")
                .link(dev + "/infiniband/mlx5_0/device", "../../../0000:18:00.0")
                .link("/sys/class/infiniband/mlx5_0", "../../devices/pci0000:00/0000:00:03.0/0000:18:00.0/infiniband/mlx5_0")
                .host();
        RdmaDevices r = new RdmaProbe().run(host);
        assertThat(r.count()).isEqualTo(1);
        RdmaDevices.RdmaDevice d = r.devices().get().get(0);
        assertThat(d.name()).isEqualTo("mlx5_0");
        assertThat(d.pciAddress().get()).isEqualTo("0000:18:00.0");
        assertThat(d.ports().get()).containsExactly(1);
    }

    @Test
    void noClassFolderSaysWhy() {
        RdmaDevices r = new RdmaProbe().run(TestHosts.at(root).host());
        assertThat(r.count()).isZero();
        assertThat(r.devices().reason()).startsWith("/sys/class/infiniband absent");
    }
}
