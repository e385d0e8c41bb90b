package io.nccldoctor.reports.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.render.JUnitSchema;
import org.junit.jupiter.api.Test;

/** `cluster -o x.xml`: valid against junit-10.xsd, and its verdict line counts the cluster's nodes. */
class ClusterJUnitTest {

    @Test
    void validAndCountingNodesNotSweeps() throws Exception {
        ClusterReport r = ClusterRenderTest.hostile();
        String xml = ClusterFormat.JUNIT.render(r);
        assertThat(JUnitSchema.problems(xml)).isEmpty();
        assertThat(r.nodes()).hasSize(9);
        assertThat(xml).contains("<property name=\"verdict.line\" value=\"" + r.verdictLine().substring(0, 40))
                .contains(" over 9 nodes; ").doesNotContain("0 sweeps").doesNotContain("0 nodes");
        assertThat(xml).contains("<testsuite name=\"nccl-doctor cluster: 9 nodes\" tests=\"" + Cluster.checks().size() + "\"");
    }
}
