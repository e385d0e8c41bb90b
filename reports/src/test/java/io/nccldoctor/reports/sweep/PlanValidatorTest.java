package io.nccldoctor.reports.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.sweep.SweepPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanValidatorTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "OK", value = {
        "NCCL_NET_GDR_LEVEL | PHB                    | 2.27.5 | OK",
        "NCCL_NET_GDR_LEVEL | 2                      | 2.27.5 | OK",
        "NCCL_NET_GDR_LEVEL | phb                    | 2.27.5 | 'phb' is ignored by NCCL 2.27.5: names are compared case-sensitively: 'phb' is not 'PHB' (use LOC, PIX, PXB, PHB or SYS)",
        "NCCL_NET_GDR_READ  | 2                      | 2.27.5 | '2': 0 or 1",
        "NCCL_PROTO         | ll128                  | 2.27.5 | OK",
        "NCCL_PROTO         | ^LL128;allreduce:LL128 | 2.27.5 | OK",
        "NCCL_PROTO         | ^LL128;allreduce:LL128 | 2.18.3 | '^LL128;allreduce:LL128': the per-function form (func:elem;…) needs NCCL 2.24 or newer; NCCL 2.18.3 reads one comma list and would ignore this",
        "NCCL_PROTO         | LL129                  | 2.27.5 | 'LL129': unknown protocol 'LL129' (known protocols: LL, LL128, Simple; NCCL 2.27.5 rejects it)",
        "NCCL_PROTO         | LL129                  | 2.18.3 | 'LL129': unknown protocol 'LL129' (known protocols: LL, LL128, Simple; NCCL 2.18.3 ignores it silently)",
        "NCCL_ALGO          | ring;allreduce:tree    | 2.27.5 | OK",
        "NCCL_ALGO          | allreduce:tree;ring    | 2.27.5 | 'allreduce:tree;ring': only the first entry may omit the function (NCCL 2.27.5 rejects it with ncclInvalidUsage)",
        "NCCL_ALGO          | alltoall:ring          | 2.27.5 | 'alltoall:ring': unknown function 'alltoall' (use Broadcast, Reduce, AllGather, ReduceScatter, AllReduce)",
        "NCCL_ALGO          | PAT                    | 2.22.3 | 'PAT': PAT exists from NCCL 2.23; 2.22.3 ignores it",
        "NCCL_ALGO          | PAT                    | 2.23.4 | OK",
        "NCCL_IB_HCA        | mlx5_0                 | 2.27.5 | OK"})
    void valuesAreReadAsNcclReadsThem(String name, String value, String version, String why) {
        assertThat(PlanValidator.value(name, value, version).orElse(null)).isEqualTo(why);
    }

    @Test
    void aPlanWithSeveralProblemsNamesEach(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.yaml");
        Files.writeString(f, """
                name: bad
                collectives: [allreduce, allgatherr]
                sizes: {min: 1MB, max: 64M}
                matrix:
                  NCCL_NET_GDR_LEVEL: [default, phb, PXB]
                libraries: {a: /nonexistent/nccl}
                launcher: "srun -N2"
                """);
        List<String> p = PlanValidator.problems(SweepPlan.load(f), "2.27.5");
        assertThat(p).containsExactly(
                "collectives: unknown 'allgatherr'; use allreduce allgather alltoall reducescatter broadcast reduce sendrecv",
                "sizes: '1MB': give bytes as nccl-tests does, e.g. 8, 64K, 128M, 8G",
                "launcher srun -N2: give local, or an argument list such as [srun, --ntasks-per-node=8] (never one shell string: it would "
                        + "be split by no one)",
                "libraries.a: /nonexistent/nccl does not exist here (a folder holding libnccl.so.2, or the library file)",
                "matrix.NCCL_NET_GDR_LEVEL: 'phb' is ignored by NCCL 2.27.5: names are compared case-sensitively: 'phb' is not 'PHB' "
                        + "(use LOC, PIX, PXB, PHB or SYS)");
    }

    @Test
    void theShippedPlansAreValid() throws Exception {
        for (String name : List.of("quick", "proto", "gdr-levels")) {
            Path f = Path.of("../configs/sweeps/" + name + ".yaml");
            assertThat(PlanValidator.problems(SweepPlan.load(f), "2.27.5")).as(name).isEmpty();
        }
        SweepPlan ab = SweepPlan.load(Path.of("../configs/sweeps/ab-nccl.yaml"));
        assertThat(PlanValidator.problems(ab, "2.27.5")).as("placeholders until edited").allMatch(x -> x.startsWith("libraries."));
        assertThat(ab.children()).extracting(c -> c.arm()).startsWith("a", "b", "a", "b");
    }
}
