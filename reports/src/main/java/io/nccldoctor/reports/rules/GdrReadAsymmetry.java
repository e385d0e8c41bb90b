package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import io.nccldoctor.pcie.PlatformIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * `gdr --active --perftest-peer`: the NIC writes into a GPU's memory at a healthy rate, but its reads of that memory
 * fail or crawl, the "P2P read unsupported" pattern of the field report.
 */
public final class GdrReadAsymmetry implements Rule {

    /** Reads below this share of the write rate count as the pattern. */
    static final double RATIO = 0.5;

    static final RuleInfo INFO = new RuleInfo("GDR_READ_ASYMMETRY", Severity.ERROR,
            "the NIC writes into GPU memory but its reads of GPU memory fail or crawl",
            "perftest with the GPU's memory on this side measures both directions separately: ib_read_bw makes the NIC "
                    + "write the responses into GPU memory, ib_write_bw makes it read the data to send out of GPU memory. "
                    + "When writes run at line rate and reads fail, hang or run far below them, the root complex between "
                    + "NIC and GPU does not forward peer-to-peer reads. Intel client CPUs (Alder, Raptor, Meteor, Arrow "
                    + "Lake) behave so, with no error counter set anywhere. NCCL with GPUDirect RDMA then stalls or "
                    + "crawls when it sends from GPU memory.",
            "the perftest read/write matrix of `gdr --active --perftest-peer HOST`, and the CPU identification",
            "Keep NCCL_NET_GDR_READ=0 (NCCL then stages sends through host memory) or put NIC and GPU under one PCIe "
                    + "switch; the writes may keep using GPUDirect RDMA.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        PerftestMatrix m = s.section(PerftestMatrixProbe.KEY, PerftestMatrix.class);
        if (m == null) {
            return Outcome.waived("not measured (`nccl-doctor gdr --active --perftest-peer HOST`)");
        }
        if (!m.cells().isValue()) {
            return Outcome.waived(m.cells().reason());
        }
        var platform = TopologyView.platform(s);
        String where = platform.isValue() && platform.get().platformClass() == PlatformIdentity.PlatformClass.INTEL_CLIENT
                ? " on this " + platform.get().codename() + " (Intel client) root complex" : "";
        List<Finding> findings = new ArrayList<>();
        for (PerftestMatrix.Cell read : m.cells().get()) {
            if (read.direction() != PerftestMatrix.Direction.NIC_READS_GPU) {
                continue;
            }
            PerftestMatrix.Cell write = m.cells().get().stream().filter(c -> c.gpu() == read.gpu() && c.hca().equals(read.hca())
                    && c.direction() == PerftestMatrix.Direction.NIC_WRITES_GPU).findFirst().orElse(null);
            if (write == null || !write.averageGbps().isValue() || write.averageGbps().get() <= 0) {
                continue; // no healthy write to compare with: not this pattern
            }
            double w = write.averageGbps().get();
            boolean readBad = !read.averageGbps().isValue() || read.averageGbps().get() < RATIO * w;
            if (readBad) {
                String r = read.averageGbps().isValue() ? String.format(Locale.ROOT, "%.1f Gbit/s", read.averageGbps().get())
                        : "no result (" + read.averageGbps().reason() + ")";
                findings.add(finding("GPU" + read.gpu() + "-" + read.hca(), String.format(Locale.ROOT,
                        "%s writes into GPU%d memory at %.1f Gbit/s but its reads of it give %s%s", read.hca(), read.gpu(), w, r, where),
                        List.of("NIC writes GPU memory: " + String.join(" ", write.argv()),
                                "NIC reads GPU memory: " + String.join(" ", read.argv()))));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
