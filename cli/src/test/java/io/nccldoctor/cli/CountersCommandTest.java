package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.capture.Manifest;
import io.nccldoctor.core.exec.CommandResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `counters` as a user runs it: --during around a command that rewrites a fake sysfs tree and the `ethtool -S` text a
 * fake ethtool prints (gdr-probe/…/fixtures/counters), --interval, --from a capture, and the usage errors.
 */
class CountersCommandTest {

    static final Path FIXTURES = Path.of("../gdr-probe/src/test/resources/fixtures/counters");

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    /** The CLI with `counters` added, unless RootCommand already lists it. */
    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new PrintWriter(out, true), new PrintWriter(err, true), false);
        if (!cl.getSubcommands().containsKey("counters")) {
            CommandLine counters = new CommandLine(new CountersCommand());
            counters.setOut(new PrintWriter(out, true));
            counters.setErr(new PrintWriter(err, true));
            cl.addSubcommand("counters", counters);
        }
        List<String> all = new ArrayList<>(List.of("counters"));
        all.addAll(List.of(args));
        int code = cl.execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * A copy of the scenario's "before" host under tmp/SCENARIO, a fake ethtool there that prints its
     * ethtool-S-NETDEV.txt, and a switch.sh, which puts the "after" host in place (what the run did to the counters),
     * takes a second, and exits {@code exit}.
     */
    Path stage(String scenario, int exit) throws IOException {
        Path host = tmp.resolve(scenario);
        copy(FIXTURES.resolve(scenario).resolve("before"), host);
        script(host.resolve("ethtool"), "exec cat \"" + host + "/ethtool-S-$2.txt\"");
        script(host.resolve("switch.sh"), "cp -R \"" + FIXTURES.toAbsolutePath().resolve(scenario).resolve("after") + "/.\" \""
                + host + "/\" && sleep 1 && exit " + exit);
        return host;
    }

    static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    Run during(String scenario, int exit, String... more) throws IOException {
        Path host = stage(scenario, exit);
        List<String> args = new ArrayList<>(List.of("--root", host.resolve("root").toString(), "--ethtool", host.resolve("ethtool").toString()));
        args.addAll(List.of(more));
        args.addAll(List.of("--during", "--", host.resolve("switch.sh").toString()));
        return run(args.toArray(String[]::new));
    }

    @Test
    void duringACommandTheDeltasPerPortAndTheCvArePrinted() throws Exception {
        Run r = during("healthy", 0);
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).as("a healthy run: " + r.out()).isZero();
        assertThat(r.out()).contains("Command: " + tmp.resolve("healthy/switch.sh") + ": exit 0 after ")
                .contains("  mlx5_0 port 1  ACTIVE  Ethernet  100 Gb/s  enp178s0f0\n")
                .contains("    bytes     Tx +107.1 GiB (").as("port_xmit_data x 4")
                .contains("    pauses    prio 3 rx +120 (3.10 ms), tx +40 (1.00 ms); global rx +0, tx +0; storms +0 (warnings +0)\n")
                .contains("    ECN/CNP   ECN-marked +5,000; CNP sent +5,000, handled +4,800, ignored +0\n")
                .contains("Rails: Tx bytes CV 0.003 over 2 ports")
                // the fixtures hold ten seconds of traffic and switch.sh takes one: more bytes than 100 Gb/s carries in the
                // window, an inconsistent measurement, not a rate of 900 % of line rate
                .contains("(inconsistent: no rate)").doesNotContain("% of line rate)")
                .contains("WARN  COUNTER_INCONSISTENT  mlx5_0 port 1: the counters of mlx5_0 port 1 do not measure this window");
    }

    @Test
    void unevenRailsAreAWarningAndALinkThatWentDownAnError() throws Exception {
        Run uneven = during("uneven-rails", 0);
        assertThat(uneven.code()).isZero();
        assertThat(uneven.out()).contains("Rails: Tx bytes CV 0.532 over 2 ports").contains("WARN  COUNTER_RAIL_IMBALANCE  node: ");
        Run flap = during("link-flap", 0);
        assertThat(flap.code()).as("ACK timeouts and a link down are errors").isEqualTo(1);
        assertThat(flap.out()).contains("ERROR COUNTER_LINK_ERRORS  mlx5_1 port 1: the link went down 1 time(s) during the run");
    }

    @Test
    void aFailedCommandIsReportedAndItsDeltasStillShown() throws Exception {
        Run r = during("out-of-sequence", 3, "--json");
        assertThat(r.code()).isEqualTo(1);
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.at("/command/exitCode/value").asInt()).isEqualTo(3);
        assertThat(doc.at("/delta/ports/value/0/figures/outOfSequence/value").asLong()).isEqualTo(12_600_000L);
        assertThat(doc.get("findings").findValuesAsText("code")).contains("COUNTER_OUT_OF_SEQUENCE");
    }

    @Test
    void pastTheTimeoutTheCommandIsKilled() throws Exception {
        Path host = stage("healthy", 0);
        Run r = run("--root", host.resolve("root").toString(), "--ethtool", host.resolve("ethtool").toString(), "--timeout", "1",
                "--during", "--", "sleep", "30");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("Command: sleep 30: FAILED, killed with its process tree after 1 s (--timeout)")
                .contains("Rails: Tx bytes CV n/a (no port sent a byte)");
    }

    @Test
    void anIntervalWithoutACommand() throws Exception {
        Path host = stage("healthy", 0);
        Run r = run("--root", host.resolve("root").toString(), "--ethtool", host.resolve("ethtool").toString(), "--interval", "0.2",
                "--hca", "mlx5_1");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("RDMA counters over 0.").contains("mlx5_1 port 1").doesNotContain("mlx5_0 port 1")
                .contains("Tx +0 B").doesNotContain("Command:");
    }

    @Test
    void badUsageIsExit2WithOneLine() {
        Run noCmd = run("--during");
        assertThat(noCmd.code()).isEqualTo(2);
        assertThat(noCmd.err().strip()).isEqualTo("nccl-doctor: --during needs a command after --, e.g. nccl-doctor counters "
                + "--during -- ib_write_bw -d mlx5_0 n2");
        assertThat(run("--", "ls").err()).contains("a command was given without --during");
        assertThat(run("--during", "--interval", "5", "--", "ls").code()).isEqualTo(2);
        assertThat(run("--interval", "0").code()).isEqualTo(2);
        assertThat(run("--root", "/nonexistent/sys", "--interval", "1").err()).contains("--root /nonexistent/sys: no such folder");
        Run missing = run("--root", tmp.toString(), "--during", "--", "/nonexistent/train.sh");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).isEqualTo("nccl-doctor: cannot start /nonexistent/train.sh: command not found (the command after --)");
    }

    @Test
    void thisVmHasNoRdmaDeviceAndSaysSo() {
        Run r = run();
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("/sys/class/infiniband absent: no RDMA device");
        Run help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("counters --during -- ib_write_bw").contains("port_xmit_data x 4").contains("--root=DIR");
    }

    @Test
    void aCaptureIsReplayedAsASnapshot() throws Exception {
        Path cap = tmp.resolve("cap");
        Path phase = FIXTURES.resolve("pause-storm").resolve("after");
        copy(phase.resolve("root"), cap.resolve(Manifest.ROOT));
        List<CommandResult> commands = new ArrayList<>();
        for (String netdev : List.of("enp178s0f0", "enp178s0f1")) {
            commands.add(new CommandResult.Exited(List.of("ethtool", "-S", netdev), 0,
                    Files.readString(phase.resolve("ethtool-S-" + netdev + ".txt")), "", 4));
        }
        Files.writeString(cap.resolve(Manifest.COMMANDS), Json.mapper().writerFor(new TypeReference<List<CommandResult>>() { })
                .writeValueAsString(commands));
        Files.writeString(cap.resolve(Manifest.FILE), Json.write(new Manifest(Manifest.FORMAT_VERSION, "test", "2026-05-04T10:00:00Z",
                "node17", List.of("capture"), Map.of(), List.of("counters"), 0, 2, 0)));
        Run r = run("--from", cap.toString(), "--json");
        assertThat(r.code()).isZero();
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.get("kind").asText()).isEqualTo("counters");
        assertThat(doc.get("source").asText()).isEqualTo("capture " + cap);
        assertThat(doc.at("/snapshot/ports/value/0/netdevs/value/0/ethtool/value/tx_pause_storm_error_events").asLong()).isEqualTo(1);
        assertThat(doc.at("/snapshot/ports/value/1/counters/value/port_xmit_data/value").asLong()).as("230442669431839 + 2.1e9 words").isEqualTo(230444769431839L);
        assertThat(run("--from", cap.toString(), "--interval", "1").code()).as("a capture is one moment").isEqualTo(2);
    }
}
