package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.reports.rules.KnownNcclIssue;
import io.nccldoctor.reports.rules.NcclEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Environment sanity and the known-issues table, each on a node that should fire and one that must not. */
class EnvRulesTest {

    static Snapshot node(String ncclVersion, Map<String, String> env) {
        Snapshot s = Snaps.node().gpus(8, "nvidia").rdma(2)
                .nccl(Snaps.lib("NCCL", "libnccl.so.2", Snaps.copy("/usr/lib/x86_64-linux-gnu/libnccl.so.2", "ldconfig", true, ncclVersion)))
                .build();
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), env, s.sections());
    }

    static List<Finding> findings(Rule r, Snapshot s) {
        return r.check(s, RuleContext.defaults()).findings();
    }

    @Test
    void knownIssuesMatchTheirRangeOnly() {
        KnownIssues table = KnownIssues.load(Path.of("../configs/known-issues.yaml"));
        KnownNcclIssue rule = new KnownNcclIssue(table);
        assertThat(findings(rule, node("2.27.3", Map.of()))).extracting(Finding::title).map(t -> t.substring(0, t.indexOf(':')))
                .containsExactly("allgather-2node-algorithm", "allgather-3node-algorithm", "collnet-enable-cached");
        assertThat(findings(rule, node("2.27.5", Map.of()))).extracting(Finding::title).map(t -> t.substring(0, t.indexOf(':')))
                .containsExactly("allgather-2node-algorithm", "allgather-3node-algorithm", "bootstrap-port-reuse-hang");
        assertThat(findings(rule, node("2.30.7", Map.of()))).as("the fixed release").isEmpty();
        assertThat(table.issues()).extracting(KnownIssues.Issue::id).doesNotHaveDuplicates();
    }

    @Test
    void ignoredValuesAndGlobalPins() {
        Snapshot bad = node("2.27.5", Map.of("NCCL_PROTO", "LL129", "NCCL_ALGO", "ring", "NCCL_NET_GDR_READ", "yes"));
        assertThat(findings(new NcclEnvironment.Ignored(), bad)).extracting(Finding::subject).containsExactly("NCCL_PROTO", "NCCL_NET_GDR_READ");
        assertThat(findings(new NcclEnvironment.Ignored(), bad).get(0).title()).isEqualTo("NCCL_PROTO=LL129 is not what NCCL 2.27.5 will use");
        assertThat(findings(new NcclEnvironment.Ignored(), node("2.27.5", Map.of("NCCL_PROTO", "^LL128")))).isEmpty();
        assertThat(findings(new NcclEnvironment.GlobalPin(), bad)).extracting(Finding::subject).containsExactly("NCCL_PROTO", "NCCL_ALGO");
        assertThat(findings(new NcclEnvironment.GlobalPin(), node("2.27.5", Map.of()))).isEmpty();
    }

    @Test
    void ibHcaMustNameDevicesThatExist() {
        NcclEnvironment.IbHcaUnknown rule = new NcclEnvironment.IbHcaUnknown();
        assertThat(findings(rule, node("2.27.5", Map.of("NCCL_IB_HCA", "mlx5")))).as("a prefix of mlx5_0").isEmpty();
        assertThat(findings(rule, node("2.27.5", Map.of("NCCL_IB_HCA", "=mlx5_0:1,mlx5_1")))).isEmpty();
        List<Finding> renamed = findings(rule, node("2.27.5", Map.of("NCCL_IB_HCA", "=mlx5_0,mlx5_bond_0")));
        assertThat(renamed).hasSize(1);
        assertThat(renamed.get(0).title()).isEqualTo("NCCL_IB_HCA==mlx5_0,mlx5_bond_0 names mlx5_bond_0, which this node does not have");
        assertThat(findings(rule, node("2.27.5", Map.of("NCCL_IB_HCA", "=mlx5")))).as("exact names").hasSize(1);
        assertThat(rule.check(node("2.27.5", Map.of()), RuleContext.defaults()).isWaived()).isTrue();
    }

    @Test
    void lazyLoadingWithAMismatchedDriverLibrary() {
        Snapshot base = Snaps.node().gpus(8, "nvidia")
                .driver(new NvidiaDriver(Fact.of("575.57.08"), Fact.of("open"), Fact.of("NVRM version: 575.57.08")))
                .cudaDriver(new NativeLibrary("CUDA driver", List.of("libcuda.so.1"), List.of("ldconfig cache"), List.of(
                        new NativeLibrary.Copy("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.570.124.06",
                                "ldconfig", true, Fact.of("570.124.06"), Fact.absent("not asked")))))
                .build();
        Snapshot lazy = new Snapshot(base.schemaVersion(), base.toolVersion(), base.hostName(), base.createdAt(), base.source(), base.argv(),
                Map.of("CUDA_MODULE_LOADING", "LAZY"), base.sections());
        List<Finding> f = findings(new NcclEnvironment.LazyLoadingIncomplete(), lazy);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).title()).isEqualTo("libcuda.so 570.124.06 on the loader path, kernel driver 575.57.08, CUDA_MODULE_LOADING=LAZY");
        Snapshot eager = new Snapshot(base.schemaVersion(), base.toolVersion(), base.hostName(), base.createdAt(), base.source(), base.argv(),
                Map.of("CUDA_MODULE_LOADING", "EAGER"), base.sections());
        assertThat(new NcclEnvironment.LazyLoadingIncomplete().check(eager, RuleContext.defaults()).isWaived()).isTrue();
    }
}
