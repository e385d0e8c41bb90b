package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `gdr --active`, `preflight --quick` and a two-library `sweep` end to end against the stand-ins (libcuda, libnccl,
 * NVML, libibverbs), with the stand-ins' trace showing what was opened and released; what JNA may start behind the
 * tool's back; the charts of the device-check JRE's module set.
 */
class StandInNodeTest {

    private static final Duration LIMIT = Duration.ofSeconds(180);

    @TempDir
    Path tmp;

    private static Map<String, String> env(Map<String, String> extra, String... folders) {
        Map<String, String> e = new HashMap<>(extra);
        e.put("LD_LIBRARY_PATH", StandInTool.path(folders));
        return e;
    }

    private static long count(List<String> trace, String event) {
        return trace.stream().filter(l -> l.substring(l.indexOf(' ') + 1).startsWith(event)).count();
    }

    @Test
    void gdrActiveRegistersEachGpuWithEachHcaOpeningEachGpuOnceAndReleasingEverything() throws Exception {
        Path trace = tmp.resolve("trace.txt");
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "2", "STANDIN_IBV_DEVICES", "3", "STANDIN_TRACE",
                trace.toString()), "cuda13", "nvml", "ibverbs"), LIMIT, "gdr", "--active", "--json");
        assertThat(r.err()).isEmpty();
        JsonNode pairs = Json.mapper().readTree(r.out()).at("/snapshot/sections/registration/pairs/value");
        assertThat(pairs.size()).as(r.out()).isEqualTo(6);
        for (JsonNode p : pairs) {
            assertThat(p.at("/dmabuf/value").asText()).isEqualTo("registered");
            assertThat(p.at("/peermem/value").asText()).startsWith("failed: errno 14 (EFAULT");
        }
        List<String> t = Files.readAllLines(trace);
        assertThat(count(t, "cuda retain")).as("a primary context per GPU, not per GPU-HCA pair").isEqualTo(2);
        assertThat(count(t, "cuda release")).as("every retain released through cuDevicePrimaryCtxRelease_v2").isEqualTo(2);
        assertThat(count(t, "nvml init")).isPositive().isEqualTo(count(t, "nvml shutdown"));
        assertThat(count(t, "ibv get-device-list")).isEqualTo(count(t, "ibv free-device-list"));
        assertThat(t).anyMatch(l -> l.endsWith("ibv exit lists=0 contexts=0 pds=0 mrs=0"));

        Path empty = tmp.resolve("empty.txt");
        StandInTool.Ran none = StandInTool.run(env(Map.of("STANDIN_IBV_DEVICES", "0", "STANDIN_TRACE", empty.toString()), "cuda13",
                "nvml", "ibverbs"), LIMIT, "gdr", "--active");
        assertThat(none.out()).contains("skipped: no RDMA device (ibv_get_device_list found no RDMA device");
        List<String> e = Files.readAllLines(empty);
        assertThat(count(e, "ibv get-device-list")).as("an empty device list is freed too").isEqualTo(count(e, "ibv free-device-list"));

        StandInTool.Ran noKernel = StandInTool.run(env(Map.of("STANDIN_IBV_ENOSYS", "1"), "cuda13", "nvml", "ibverbs"), LIMIT, "gdr",
                "--active");
        assertThat(noKernel.out()).as("ENOSYS: rdma-core without the uverbs kernel interface has no device to ask")
                .contains("skipped: no RDMA device (ibv_get_device_list found no RDMA device: no kernel support for RDMA (errno 38, ENOSYS)");
    }

    @Test
    void preflightQuickRunsTheThreeCollectivesOnTheNodesGpus() {
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "2"), "cuda13", "nccl-2.28.3"), LIMIT, "preflight",
                "--quick", "--quick-timeout", "120");
        for (String c : List.of("allreduce", "allgather", "alltoall")) {
            assertThat(r.err()).as(r.out()).containsPattern("quick: " + c + ": peak busbw \\d+\\.\\d\\d GB/s at \\d+ bytes \\(NCCL 2\\.28\\.3\\)");
        }
        assertThat(r.out()).doesNotContain("QUICK_CHECK_FAILED");
    }

    @Test
    void aSweepOfTwoNcclVersionsRunsBothArmsInChildren() throws Exception {
        Path plan = tmp.resolve("ab.yaml");
        Files.writeString(plan, "name: ab\ncollectives: [allreduce, alltoall]\nsizes: {min: 1K, max: 64K, factor: 8}\nrepetitions: 1\n"
                + "gpus: 2\nwarmup: 1\niters: 2\ncheck: 1\nlibraries:\n  a: " + StandInTool.dir().resolve("nccl-2.28.3") + "\n  b: "
                + StandInTool.dir().resolve("nccl-2.21.5") + "\nlauncher: local\ntimeoutSeconds: 60\n");
        Path results = tmp.resolve("ab.jsonl");
        // the parent wants an NCCL of its own (sweep's check before it starts children); each arm's folder comes first
        // on its child's library path, so arm b loads 2.21.5 although 2.28.3 is on the parent's
        StandInTool.Ran r = StandInTool.run(env(Map.of(), "cuda13", "nccl-2.28.3"), LIMIT, "sweep", plan.toString(), "-o",
                results.toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        List<SweepRecord> points = ResultLog.read(results).stream().filter(SweepRecord::isPoint).toList();
        assertThat(points).hasSize(4);
        assertThat(points.stream().map(p -> p.arm() + " " + p.collective() + " " + p.ncclVersion()).sorted().toList()).containsExactly(
                "a allreduce 2.28.3", "a alltoall 2.28.3", "b allreduce 2.21.5", "b alltoall 2.21.5");
        for (SweepRecord p : points) {
            assertThat(p.worldSize()).isEqualTo(2);
            assertThat(p.rows()).hasSize(3).allMatch(row -> row.outOfPlace().wrong().get() == 0);
        }
    }

    /** JNA, unless told its library path, runs /sbin/ldconfig -p without a time limit the first time it loads anything. */
    @Test
    void noLdconfigRunsOutsideTheToolsTimedRunner() throws Exception {
        Path log = tmp.resolve("exec.txt");
        Map<String, String> e = env(Map.of("LD_PRELOAD", StandInTool.dir().resolve("execlog.so").toString(), "STANDIN_EXECLOG",
                log.toString()), "cuda13", "nccl-2.28.3");
        StandInTool.Ran r = StandInTool.run(e, LIMIT, "run", "-g", "1", "-b", "8", "-e", "8");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        List<String> ldconfig = Files.readAllLines(log).stream().filter(l -> l.contains("ldconfig")).toList();
        assertThat(ldconfig).as("the library search runs it, with LC_ALL=C and a time limit").isNotEmpty()
                .allMatch(l -> l.endsWith("LC_ALL=C"));
    }

    /** The jlink'd JRE of scripts/prepare-device-check.sh, approximated by the same module set: charts need java.desktop. */
    @Test
    void theDeviceCheckJreModulesRenderAnHtmlReportWithCharts() throws Exception {
        String script = Files.readString(Path.of("../scripts/prepare-device-check.sh"));
        Matcher m = Pattern.compile("(?m)^modules=([\\w.,]+)$").matcher(script);
        assertThat(m.find()).as("prepare-device-check.sh names its modules on a modules= line").isTrue();
        Path html = tmp.resolve("ab.html");
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--limit-modules",
                m.group(1), "-cp", System.getProperty("java.class.path"), Main.class.getName(), "compare",
                "../configs/examples/field-report-cluster/ab-nccl-2.28.3-vs-2.30.7.jsonl", "-o", html.toString()));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("out.txt"))).isZero();
        assertThat(Files.readString(html)).contains("data:image/png;base64,");
    }
}
