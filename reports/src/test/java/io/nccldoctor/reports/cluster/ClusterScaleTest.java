package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thousand generated nodes with eight planted odd ones: the view names exactly those, nothing else, and prints how
 * long reading, judging and rendering took (the target is under 5 s in-process; bench/cluster.sh times the CLI).
 */
class ClusterScaleTest {

    @TempDir
    Path dir;

    @Test
    void aThousandNodesNameExactlyThePlantedOnes() throws Exception {
        ClusterSample.Plan plan = ClusterSample.plan(1000);
        ClusterSample.write(dir, plan);

        long t0 = System.nanoTime();
        ClusterData data = new ClusterInputs(d -> {
            throw new AssertionError("no capture folder in this test: " + d);
        }).read(List.of(dir.toString()));
        long t1 = System.nanoTime();
        ClusterReport r = Cluster.judge(data, ClusterOptions.defaults(), "2026-11-30T12:00:00Z");
        long t2 = System.nanoTime();
        int bytes = 0;
        for (ClusterFormat f : ClusterFormat.values()) {
            bytes += f.render(r).length();
        }
        long t3 = System.nanoTime();
        System.out.printf(java.util.Locale.ROOT, "cluster over %d snapshots: read %d ms, judge %d ms, render 4 forms (%d chars) %d ms, "
                + "total %d ms%n", r.nodes().size(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, bytes, (t3 - t2) / 1_000_000,
                (t3 - t0) / 1_000_000);

        assertThat(r.nodes()).hasSize(1000);
        String driver = plan.driver().get(0);
        Map<String, Set<String>> expected = new TreeMap<>(Map.of(
                "NVIDIA driver", Set.of(driver),
                "CUDA driver (libcuda)", Set.of(driver), // the older driver's libcuda reports CUDA 12.8
                "libcuda.so file", Set.of(driver),
                "nvidia_peermem", Set.of(driver), // nvidia_peermem ships with the driver and carries its version
                "NIC firmware", Set.copyOf(plan.firmware()),
                "Netdev MTU", Set.copyOf(plan.mtu())));
        Map<String, Set<String>> odd = new TreeMap<>();
        r.drifting().forEach(row -> odd.computeIfAbsent(row.attribute(), k -> new LinkedHashSet<>()).addAll(row.oddNodes()));
        assertThat(odd).as("exactly the planted nodes drift, in exactly the planted attributes (idle GPU link speeds, GUIDs, "
                + "addresses and times differ on every node and must not)").isEqualTo(expected);
        assertThat(r.drift().stream().filter(row -> row.attribute().equals("NIC firmware") && row.status() == Row.Status.DRIFTS))
                .as("all ten HCAs of the three nodes are on the old firmware").hasSize(10);

        Spread allreduce = r.bandwidth().stream().filter(s -> s.label().equals(ClusterSample.ALLREDUCE)).findFirst().orElseThrow();
        assertThat(allreduce.below()).extracting(Sample::host).containsExactlyElementsOf(plan.slow());
        Spread ib = r.bandwidth().stream().filter(s -> s.label().equals(ClusterSample.IB_WRITE)).findFirst().orElseThrow();
        assertThat(ib.below()).as("healthy noise within ±0.5 % is never an outlier").isEmpty();

        assertThat(r.findings()).extracting(Finding::code).containsOnly("CLUSTER_DRIFT", "CLUSTER_BANDWIDTH_OUTLIER");
        assertThat(r.findings()).filteredOn(f -> f.code().equals("CLUSTER_DRIFT")).hasSize(expected.size());
        assertThat(r.verdict()).isEqualTo("WARN");
        assertThat(r.exitCode()).isZero();
    }
}
