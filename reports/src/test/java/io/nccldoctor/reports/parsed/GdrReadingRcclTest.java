package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** A GPU Direct RDMA distance in an RCCL log is not decoded with NCCL's path numbering (RCCL's is its own). */
class GdrReadingRcclTest {

    private static NcclLog log(String version) throws IOException {
        String p = "n1:5:9 [0] NCCL INFO ";
        String text = p + version + "\n" + p + "GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 7 > 4)\n";
        return NcclLog.parse(new BufferedReader(new StringReader(text)), "t.log");
    }

    @Test
    void anRcclVersionIsNotReadWithNcclsTable() throws IOException {
        NcclLog rccl = log("RCCL version : 2.27.7-HEAD:0d2c4fd");
        NcclLog.GdrLine g = rccl.gdr().get(0);
        assertThat(GdrReading.of(g.distance(), g.relation(), g.threshold(), g.wording(), rccl))
                .isEqualTo("not decoded: RCCL's path numbering is its own, not modelled in RCCL 2.27.7");
        NcclLog nccl = log("NCCL version 2.19.3+cuda12.2");
        NcclLog.GdrLine n = nccl.gdr().get(0);
        assertThat(GdrReading.of(n.distance(), n.relation(), n.threshold(), n.wording(), nccl)).isEqualTo("SYS > PXB in NCCL 2.19.3");
    }
}
