package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciReading;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A snapshot made from a pasted topology file keeps every RDMA device the file names. */
class ImportedSnapshotTest {

    /** NVIDIA/nccl#1505 (corpus/nccl-topo-xml README): one NIC function, 0000:61:00.0, holds the nets mlx5_4 and mlx5_5. */
    @Test
    void everyNetOfAMergedNicIsAnRdmaDevice() throws IOException {
        Path file = Path.of("../corpus/nccl-topo-xml/nccl-topo-fenced-middle-dgx-a100-two-nets-nccl1505.xml");
        PciReading r = PciReading.ncclTopoXml(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        Snapshot s = ImportedSnapshot.of(r.devices(), r.rdmaNets(), "NCCL topology XML", List.of("test"), "test", "not recorded");
        List<RdmaDevices.RdmaDevice> rdma = s.section(RdmaProbe.KEY, RdmaDevices.class).devices().get();
        assertThat(rdma).filteredOn(d -> d.pciAddress().orElse("").equals("0000:61:00.0"))
                .extracting(RdmaDevices.RdmaDevice::name).containsExactly("mlx5_4", "mlx5_5");
    }
}
