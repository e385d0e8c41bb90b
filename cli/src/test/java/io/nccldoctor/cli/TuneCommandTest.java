package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `tune` as a user meets it without measurements: help with examples, explain, and bad input as one line and exit 2. */
class TuneCommandTest {

    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpHasExamplesAndTheFlagsTheIssueNames() {
        Run r = cli("tune", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage: nccl-doctor tune", "Examples:", "nccl-doctor tune tune.jsonl -o nccl_tuner.conf --verify-plan "
                + "verify.yaml", "--as-env", "--min-gain", "--alpha", "95 % interval").doesNotContain("%%");
        assertThat(cli("--help").out()).contains("tune");
    }

    @Test
    void theFindingOfARefusedPinIsExplained() {
        Run r = cli("explain", "NCCL_GLOBAL_PIN");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("NCCL_GLOBAL_PIN (warn):").contains("NCCL_PROTO=LL128 lifted 3-node allgather").contains("pinned");
    }

    @Test
    void aPlanWithoutATunerFileIsRefused() throws Exception {
        Path results = Files.writeString(tmp.resolve("r.jsonl"), "");
        Run r = cli("tune", results.toString(), "--verify-plan", tmp.resolve("v.yaml").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("nccl-doctor: --verify-plan needs -o FILE: the plan points NCCL_TUNER_CONFIG_FILE at the tuner file");
    }

    @Test
    void aFileTuneDidNotWriteIsNotReplacedWithoutForce() throws Exception {
        Path conf = Files.writeString(tmp.resolve("nccl_tuner.conf"), "allreduce,0,65536,tree,simple,2,1,-1,-1,1\n");
        Run r = cli("tune", tmp.resolve("results.jsonl").toString(), "-o", conf.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("nccl-doctor: -o " + conf + ": exists and was not written by nccl-doctor tune (its first "
                + "line is not '# nccl-doctor tune…'); give another name, or --force to replace it");
        assertThat(Files.readString(conf)).isEqualTo("allreduce,0,65536,tree,simple,2,1,-1,-1,1\n");
    }

    @Test
    void aMinimumGainOutOfRangeIsOneLine() throws Exception {
        Run r = cli("tune", tmp.resolve("results.jsonl").toString(), "--min-gain", "1.5");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("nccl-doctor: --min-gain/--alpha: thresholds.compare.minChange is a fraction from 0 to below 1, "
                + "got 1.5");
    }
}
