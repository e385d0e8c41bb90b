package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nccldoctor.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The command line as the run's environment, in the launcher forms the nccl-tests README and the launchers' manuals
 * show (Open MPI -x, MPICH/Intel MPI -genv, Slurm --export, a VAR=value prefix, export lines), and the reading back of
 * JSON written before the newer components existed.
 */
class NcclTestsCommandTest {

    private static final String TABLE_HEADER =
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong";
    private static final String ROW =
            "     1048576        262144     float     sum      -1    20.10   52.17   97.82    N/A    19.90   52.69   98.80    N/A";

    static NcclTestsOutput withCommand(String... commandLines) {
        List<String> text = new ArrayList<>(List.of(commandLines));
        text.add(TABLE_HEADER);
        text.add(ROW);
        return NcclTestsOutput.parse(text, "pasted.txt");
    }

    @Test
    void aVariablePrefixAndTheCheckFlagExplainNotApplicableCells() {
        NcclTestsOutput out = withCommand("$ NCCL_PROTO=LL128 NCCL_ALGO=Ring ./build/all_reduce_perf -b 1M -e 1M -c 0 | tee ar.log");
        NcclTestsCommand c = out.command().get();
        assertThat(c.env()).containsExactly(Map.entry("NCCL_PROTO", "LL128"), Map.entry("NCCL_ALGO", "Ring"));
        assertThat(c.flags()).containsExactly(Map.entry("minbytes", "1M"), Map.entry("maxbytes", "1M"), Map.entry("check", "0"));
        assertThat(out.rows().get(0).outOfPlace().wrong().reason()).isEqualTo("N/A: not validated (the command line has -c 0)");
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void withoutHeaderOrFlagTheReasonSaysTheTextDoesNotTell() {
        NcclTestsOutput out = withCommand();
        assertThat(out.command().isAbsent()).isTrue();
        assertThat(out.rows().get(0).outOfPlace().wrong().reason()).startsWith("N/A: not validated; the text has no");
    }

    @Test
    void openMpiContinuedOverLinesWithExportsBefore() {
        NcclTestsOutput out = withCommand("export NCCL_IB_HCA=mlx5_0,mlx5_3", "root@node01:~# mpirun -np 16 -H node01:8,node02:8 \\",
                "    -x NCCL_NET_GDR_LEVEL=4 -x NCCL_DEBUG=INFO -x LD_LIBRARY_PATH --mca btl_tcp_if_include eth0 \\",
                "    /opt/nccl-tests/build/all_reduce_perf --minbytes=8 --maxbytes 8G -f 2 -g 1 2>&1");
        NcclTestsCommand c = out.command().get();
        assertThat(c.launcher().get()).isEqualTo("mpirun");
        assertThat(c.env()).containsExactly(Map.entry("NCCL_IB_HCA", "mlx5_0,mlx5_3"), Map.entry("NCCL_NET_GDR_LEVEL", "4"),
                Map.entry("NCCL_DEBUG", "INFO"));
        assertThat(c.envForwarded()).containsExactly("LD_LIBRARY_PATH");
        assertThat(c.flags()).containsExactly(Map.entry("minbytes", "8"), Map.entry("maxbytes", "8G"), Map.entry("stepfactor", "2"),
                Map.entry("ngpus", "1"));
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void slurmExportAndHydraGenv() {
        NcclTestsCommand srun = withCommand("[user@login01 ~]$ srun -N 2 --ntasks-per-node=8 --mpi=pmix "
                + "--export=ALL,NCCL_SOCKET_IFNAME=ib0,NCCL_IB_QPS_PER_CONNECTION=4 ./alltoall_perf -b 8 -e 1G -f 2").command().get();
        assertThat(srun.launcher().get()).isEqualTo("srun");
        assertThat(srun.env()).containsExactly(Map.entry("NCCL_SOCKET_IFNAME", "ib0"), Map.entry("NCCL_IB_QPS_PER_CONNECTION", "4"));
        assertThat(srun.binary().get()).isEqualTo("alltoall_perf");
        NcclTestsCommand hydra = withCommand("mpiexec -n 8 -genv NCCL_PROTO Simple -genv NCCL_MIN_NCHANNELS 32 ./sendrecv_perf -b 8 -e 128M")
                .command().get();
        assertThat(hydra.launcher().get()).isEqualTo("mpiexec");
        assertThat(hydra.env()).containsExactly(Map.entry("NCCL_PROTO", "Simple"), Map.entry("NCCL_MIN_NCHANNELS", "32"));
        assertThat(hydra.binary().get()).isEqualTo("sendrecv_perf");
    }

    @Test
    void envListingLinesAndSudoEnv() {
        NcclTestsOutput out = withCommand("NCCL_DEBUG=INFO", "NCCL_NET_GDR_LEVEL=PHB",
                "+ sudo -E env NCCL_P2P_DISABLE=1 /usr/local/bin/hypercube_perf -g 8 -w 5 -n 50");
        NcclTestsCommand c = out.command().get();
        assertThat(c.env()).containsExactly(Map.entry("NCCL_DEBUG", "INFO"), Map.entry("NCCL_NET_GDR_LEVEL", "PHB"),
                Map.entry("NCCL_P2P_DISABLE", "1"));
        assertThat(c.binary().get()).isEqualTo("hypercube_perf");
        assertThat(c.flags()).containsExactly(Map.entry("ngpus", "8"), Map.entry("warmup_iters", "5"), Map.entry("iters", "50"));
    }

    /** `run --reference` stores a parsed output as JSON; a document from before these components reads back whole. */
    @Test
    void jsonWithoutTheNewerComponentsReadsBackEmptyNotNull() throws Exception {
        NcclTestsOutput out = withCommand("NCCL_PROTO=LL128 ./build/all_reduce_perf -b 1M -e 1M -c 0");
        String json = Json.write(out);
        assertThat(Json.mapper().readValue(json, NcclTestsOutput.class)).isEqualTo(out);
        var tree = (ObjectNode) Json.mapper().readTree(json);
        List.of("parameters", "command", "columns", "warnings", "errors").forEach(tree::remove);
        tree.withArray("rows").forEach(r -> {
            ((ObjectNode) r).remove("timestamp");
            ((ObjectNode) r.get("outOfPlace")).remove(List.of("perIteration", "wrongRounded"));
        });
        NcclTestsOutput old = Json.mapper().treeToValue(tree, NcclTestsOutput.class);
        assertThat(old.parameters()).isEmpty();
        assertThat(old.command().isAbsent()).isTrue();
        assertThat(old.rows().get(0).timestamp().isAbsent()).isTrue();
        assertThat(old.rows().get(0).outOfPlace().perIteration().isAbsent()).isTrue();
        assertThat(old.rows().get(0).outOfPlace().busBwGBps()).isEqualTo(97.82);
    }
}
