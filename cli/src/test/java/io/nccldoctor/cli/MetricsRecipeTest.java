package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/metrics.md's textfile recipes, run as written (the collector's folder a temporary one, "…" the example
 * bundle): a temporary name plus mv, run twice as cron would, and -o straight into the folder.
 */
class MetricsRecipeTest {

    static final String COLLECTOR = "/var/lib/node_exporter/textfile";

    @TempDir
    Path tmp;

    /** The documented `--format prom -o ….prom.tmp`, then `[ $? -le 1 ] && mv … …` block: the two commands' words. */
    static List<List<String>> recipe() throws Exception {
        String doc = Files.readString(Path.of("../docs/metrics.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("```sh\n(nccl-doctor report [^\n]*\\.prom\\.tmp)\n\\[ \\$\\? -le 1 \\] && (mv [^\n]*)\n```")
                .matcher(doc);
        assertThat(m.find()).as("docs/metrics.md has the temporary-name recipe").isTrue();
        return List.of(List.of(m.group(1).split("\\s+")), List.of(m.group(2).split("\\s+")));
    }

    @Test
    void theTemporaryNameRecipeRunsAsWrittenTwice() throws Exception {
        List<List<String>> steps = recipe();
        assertThat(steps.get(0)).contains("--format", "prom", "-o");
        Path target = tmp.resolve("nccl-doctor.prom");
        for (int round = 0; round < 2; round++) {
            String[] report = steps.get(0).stream().skip(1).map(this::local).toArray(String[]::new);
            CliTest.Run r = CliTest.run(report);
            assertThat(r.code()).as("the example's verdict is FAIL (exit 1), which the recipe still renames: %s", r.err()).isEqualTo(1);
            List<String> mv = steps.get(1).stream().map(this::local).toList();
            if (r.code() <= 1) {
                Files.move(Path.of(mv.get(1)), Path.of(mv.get(2)), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        String prom = Files.readString(target);
        assertThat(prom).startsWith("# nccl-doctor generated this file").contains("\n# HELP nccl_doctor_report_created_timestamp_seconds");
        long samples = prom.lines().filter(l -> !l.startsWith("#")).count();
        // a series per check and finding (152 with the log checks of this release), far from one per sweep and size (490)
        assertThat(samples).as("the example bundle (10 sweeps, 49 sizes) in a textfile: no series per size").isBetween(20L, 300L);
        assertThat(prom).doesNotContain("size_bytes=\"8\"").doesNotContain("placement=");
        try (var left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("nothing left beside the textfile").containsExactly("nccl-doctor.prom");
        }
    }

    private String local(String word) {
        return word.replace("…", CliTest.EXAMPLE).replace(COLLECTOR, tmp.toString());
    }
}
