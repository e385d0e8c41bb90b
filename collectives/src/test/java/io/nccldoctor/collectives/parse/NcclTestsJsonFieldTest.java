package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a -J file holds beyond the table: its config as the run parameters, argv and the NCCL-related environment as
 * the command, the -I objects, null nwrong explained like the text's N/A. The -I document is synthetic, written with
 * the key order of src/util.cu (v2.19.6, JSON_FILE_VERSION 3); no published -J file with -I exists.
 */
class NcclTestsJsonFieldTest {

    @Test
    void configArgvAndEnvironmentOfAFormatTwoFile() throws Exception {
        String name = "nccl-tests-json-v2-allreduce-4gpu-nocheck-derived.json";
        NcclTestsOutput out = NcclTestsJson.parse(Files.readString(Fixtures.publicFixture(name), StandardCharsets.UTF_8), name);
        NcclTestsParameters p = out.parameters().get(0);
        assertThat(p.gpusPerThread().get()).isEqualTo(4);
        assertThat(p.minBytes().get()).isEqualTo(67108864L);
        assertThat(p.step().get()).isEqualTo(2);
        assertThat(p.stepKind().get()).isEqualTo("factor");
        assertThat(p.validation().get()).isZero();
        NcclTestsCommand c = out.command().get();
        assertThat(c.binary().get()).isEqualTo("all_reduce_perf");
        assertThat(c.flags()).containsEntry("check", "0").containsEntry("ngpus", "4").containsEntry("output_file", "/tmp/ar.json");
        assertThat(c.env()).containsExactly(Map.entry("NCCL_TESTS_MIN_BW", "200"), Map.entry("CUDA_VISIBLE_DEVICES", "0,1,2,3"));
        assertThat(out.rows().get(0).outOfPlace().wrong().reason()).isEqualTo("N/A: not validated (validation: 0, the run used -c 0)");
    }

    @Test
    void perIterationObjectsAndTheInPlaceRuleOfAlltoall() {
        String json = "{\"version\":3,\"start_time\":\"2026-07-10 09:00:00\",\"args\":[\".\\/build\\/alltoall_perf\",\"-I\",\"1\",\"-b\",\"1M\","
                + "\"-e\",\"1M\"],\"env\":[\"HOME=\\/root\",\"AWS_SECRET_ACCESS_KEY=x\",\"NCCL_IB_HCA=mlx5_0\",\"LD_LIBRARY_PATH=\\/opt\\/nccl\\/lib\"],"
                + "\"nccl_version\":23007,\"config\":{\"nthreads\":1,\"ngpus\":1,\"minimum_bytes\":1048576,\"maximum_bytes\":1048576,"
                + "\"step_bytes\":1048576,\"warmup_iters\":1,\"iterations\":20,\"aggregated_iterations\":1,\"validation\":1,\"graph\":0,"
                + "\"blocking_collectives\":\"false\",\"per_iter_timing\":\"true\",\"per_iter_skip\":0,\"parallel_init\":\"false\"},"
                + "\"devices\":[],\"results\":[{\"size\":1048576,\"count\":262144,\"type\":\"float\",\"redop\":\"none\",\"root\":\"    -1\","
                + "\"out_of_place\":{\"time\":30.100000,\"alg_bw\":34.836000,\"bus_bw\":30.481500,\"nwrong\":0.000000},"
                + "\"out_of_place_per_iter\":{\"skipped_iterations\":0,\"min_us\":29.000000,\"max_us\":41.500000,\"avg_us\":30.100000,"
                + "\"p50_us\":29.900000,\"p95_us\":33.000000,\"p99_us\":41.500000,\"stdev_us\":2.400000,\"cv_pct\":7.973422,\"times_us\":[29.0,41.5]},"
                + "\"in_place\":{\"time\":30.200000,\"alg_bw\":34.720000,\"bus_bw\":30.380000,\"nwrong\":null},"
                + "\"actual_iterations\":20,\"experiment_name\":\"\"}],\"out_of_bounds\":{\"count\":0,\"okay\":\"true\"},"
                + "\"average_bus_bandwidth\":{\"bandwidth\":30.430750,\"okay\":\"unchecked\"},\"errors\":[\"\"],\"end_time\":\"2026-07-10 09:00:01\"}";
        NcclTestsOutput out = NcclTestsJson.parse(json, "synthetic.json");
        NcclTestsOutput.Row r = out.rows().get(0);
        assertThat(r.outOfPlace().perIteration().get()).isEqualTo(new NcclTestsOutput.PerIteration(29.0, 41.5, 41.5, 7.973422));
        assertThat(r.inPlace().get().perIteration().isAbsent()).isTrue();
        assertThat(r.inPlace().get().wrong().reason()).contains("does not check the in-place result of alltoall");
        assertThat(out.parameters().get(0).modes()).containsExactly("Per-Iteration Report (per_iter_timing: true, per_iter_skip: 0)");
        assertThat(out.parameters().get(0).stepKind().get()).isEqualTo("bytes");
        assertThat(out.command().get().env()).as("only the variables that steer NCCL are copied")
                .containsOnlyKeys("NCCL_IB_HCA", "LD_LIBRARY_PATH");
        assertThat(out.command().get().flags()).containsEntry("per_iter_timing", "1");
        assertThat(out.errors()).isEmpty();
    }
}
