package io.nccldoctor.collectives.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nccl-tests' own options pass through to the binary; gather, scatter, alltoallv and hypercube are found too. */
class ReferenceFlagsTest {

    @TempDir
    Path dir;

    static NcclTestsFlags flags(Integer g, Integer r, Integer z, Integer m, Integer n, Integer c, Integer u, Integer d, Integer s,
                                Integer mem, Integer t, Integer p) {
        return new NcclTestsFlags(g, r, z, m, n, c, u, d, s, mem, t, p);
    }

    @Test
    void everyFlagReachesTheBinaryInNcclTestsSpelling() throws IOException {
        ReferenceRunnerTest.fake(dir, "gather_perf", "exit 0");
        ReferenceRunner.Plan plan = new ReferenceRunner.Plan(ReferenceTest.parse("gather_perf"), DataType.BFLOAT16, "sum", 3, "1K", "1M", 4,
                2, 1, 10, 0, Duration.ofSeconds(20), 3, true, flags(10, 2, 1, 4, 2, 1, 3, 1, 1, 1, 2, 1));
        new ReferenceRunner(Map.of()).run(dir, plan, null);
        assertThat(Files.readString(dir.resolve("gather_perf.args")).strip()).isEqualTo("-b 1K -e 1M -f 4 -g 2 -d bfloat16 -w 1 -n 10 -c 0 "
                + "-r 3 -a 3 -I 1 -t 2 -m 4 -N 2 -p 1 -z 1 -G 10 -C 1 -S 1 -R 2 -D 1 -M 1 -u 3");
    }

    @Test
    void theFourOtherBinariesAreKnownAndTakeTheirOwnFlags() {
        assertThat(ReferenceTest.parse("scatter").rooted()).isTrue();
        assertThat(ReferenceTest.parse("alltoallv").binary()).isEqualTo("alltoallv_perf");
        assertThat(ReferenceTest.parse("hypercube_perf").reduces()).isFalse();
        assertThat(ReferenceTest.parse("reduce").reduces()).isTrue();
        assertThatThrownBy(() -> ReferenceTest.parse("allreduce2")).isInstanceOf(InputException.class)
                .hasMessageContaining("gather scatter alltoallv hypercube");
    }

    @Test
    void valuesOutsideNcclTestsRangesAreBadInput() {
        assertThatThrownBy(() -> flags(null, 3, null, null, null, null, null, null, null, null, null, null))
                .isInstanceOf(InputException.class).hasMessage("-R 3: nccl-tests takes 0 to 2");
        assertThatThrownBy(() -> flags(null, 1, null, null, null, null, null, 1, null, null, null, null))
                .isInstanceOf(InputException.class).hasMessageContaining("-D 1: nccl-tests' device implementation needs symmetric "
                        + "registration, -R 2");
        assertThat(NcclTestsFlags.none().any()).isFalse();
    }
}
