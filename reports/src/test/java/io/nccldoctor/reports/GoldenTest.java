package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.reports.rules.Registry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the human and JSON formats of preflight. Runs under a German locale so that a decimal comma or a
 * localised number cannot slip into either. To accept an intended change, run with -Dgolden.update=true and
 * review the diff of src/test/resources/golden.
 */
@ExtendWith(GermanLocale.class)
class GoldenTest {


    /** A node with one GPU missing, its driver not loaded, two NCCLs, and a probe error. */
    private static PreflightReport report() {
        Snapshot s = Snaps.node().gpus(3, "nvidia").nics(2).rdma(2)
                .pci(Snaps.device("0000:03:00.0", "1a03", "2000", "030000", "ast"))
                .driver(new NvidiaDriver(Fact.absent("NVIDIA kernel module not loaded (/proc/driver/nvidia/version absent)"),
                        Fact.absent("not loaded"), Fact.error("permission denied: /proc/driver/nvidia/version")))
                .nccl(Snaps.lib("NCCL", "libnccl.so.2",
                        Snaps.copy("/usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5", "ldconfig", true, "2.21.5"),
                        Snaps.copy("/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "python", false, "2.27.5")))
                .build();
        NodeShape shape = NodeShape.parse("gpus=4,rdma=2", "--expect");
        return PreflightReport.of(s, shape, Evaluation.of(s, Registry.nodeRules(), new RuleContext(RulesConfig.defaults(), shape)));
    }

    @Test
    void text() throws IOException {
        matches("preflight.txt", PreflightText.render(report(), false));
    }

    @Test
    void json() throws IOException {
        String json = Json.write(report());
        matches("preflight.json", json);
        assertThat(Json.mapper().readTree(json).get("summary").get("exitCode").asInt()).isEqualTo(1);
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("output differs from %s (rerun with -Dgolden.update=true to accept)", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
