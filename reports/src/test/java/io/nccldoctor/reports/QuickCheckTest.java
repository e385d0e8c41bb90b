package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** preflight --quick with the sweep's stand-in child: judged against the GPUs' narrowest link, a hang is an error. */
class QuickCheckTest {

    static final Path CHILD = Path.of("../collectives/src/test/resources/sweep/test-child.py").toAbsolutePath();

    @TempDir
    Path dir;

    QuickCheck.Result quick(String mode) throws Exception {
        Snapshot s = TopologyRulesTest.snapshot("dgx-class");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("CHILD_LOG", dir.resolve("children.log").toString());
        env.put("MODE", mode);
        // 5 s per point: python behind a shim took seconds to start on a machine with a load average of 17, and 1 s per
        // point cut the ok child as a hang
        return QuickCheck.run(s, List.of("python3", CHILD.toString()), 8, 5, env, dir);
    }

    @Test
    void slowCollectivesAreJudgedAgainstTheNarrowestGpuLink() throws Exception {
        assertThat(QuickCheck.ceiling(TopologyRulesTest.snapshot("dgx-class")).orElseThrow().label()).isEqualTo("Gen5 x16");
        QuickCheck.Result r = quick("ok");
        assertThat(r.skipped()).isEmpty();
        assertThat(r.lines()).hasSize(3).first().asString().startsWith("allreduce: peak busbw 12.00 GB/s");
        assertThat(r.findings()).extracting(Finding::code).containsOnly(QuickCheck.CODE_SLOW).hasSize(3);
        assertThat(r.findings().get(0).title()).contains("under half of the").contains("Gen5 x16");
    }

    @Test
    void aHangIsAnErrorWithinTheLimit() throws Exception {
        QuickCheck.Result r = quick("hang");
        assertThat(r.findings()).extracting(Finding::code).containsOnly(QuickCheck.CODE_FAILED);
        assertThat(r.findings().get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(r.findings().get(0).evidence().get(0)).startsWith("hang: no result within 15 s");
    }

    @Test
    void oneGpuIsSkipped() throws Exception {
        assertThat(QuickCheck.run(TopologyRulesTest.snapshot("dgx-class"), List.of("false"), 1, 1, Map.of(), dir).skipped())
                .contains("one GPU: bus bandwidth is 0 by definition");
    }
}
