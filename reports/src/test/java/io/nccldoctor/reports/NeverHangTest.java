package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.CommandRunner;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.rules.Registry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Preflight never hangs: a stuck command is killed at its limit, a stuck probe is left behind; both become findings. */
class NeverHangTest {

    static final Host CAPTURE = Capture.open(TopologyRulesTest.CAPTURES.resolve("epyc-2s")).host();

    /** lspci that never returns: killed at the probe's 5 s limit, the tree still read from sysfs, PROBE_INCOMPLETE says why. */
    @Test
    void aHangingCommandIsKilledAndReported() {
        CommandRunner hanging = new CommandRunner() {
            final ProcessCommandRunner real = new ProcessCommandRunner();

            @Override
            public CommandResult run(List<String> argv, Duration timeout) {
                if (argv.get(0).equals("lspci")) {
                    List<String> a = new ArrayList<>(List.of("sleep", "120"));
                    CommandResult r = real.run(a, timeout);
                    return r instanceof CommandResult.TimedOut t ? new CommandResult.TimedOut(argv, t.timeoutMs(), "", "") : r;
                }
                return CAPTURE.commands().run(argv, timeout);
            }
        };
        Host host = new Host(CAPTURE.files(), hanging, CAPTURE.natives(), CAPTURE.env(), CAPTURE.source());
        long t0 = System.nanoTime();
        Snapshot s = Snapshots.take(host, List.of(new PlatformProbe(), new PciInventoryProbe()), List.of("test"), "test", Clock.systemUTC());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds).as("lspci is killed at 5 s").isLessThan(15);
        Evaluation e = Evaluation.of(s, Registry.nodeRules(), RuleContext.defaults());
        Finding f = e.findings().stream().filter(x -> x.code().equals("PROBE_INCOMPLETE")).findFirst().orElseThrow();
        assertThat(f.evidence()).anyMatch(l -> l.contains("lspci did not finish within 5000 ms and was killed"));
        assertThat(s.section(PciInventoryProbe.KEY, io.nccldoctor.pcie.PciInventory.class).devices().isValue())
                .as("the PCI tree still comes from sysfs").isTrue();
    }

    /** A probe stuck in a call that cannot be interrupted (a hung driver): left behind at its limit, the rest still runs. */
    @Test
    void aStuckProbeIsLeftBehindAndTheOthersRun() {
        Probe<String> stuck = new Probe<>() {
            @Override
            public String key() {
                return "gpus";
            }

            @Override
            public String description() {
                return "a probe that never returns";
            }

            @Override
            public String run(Host h) {
                while (true) {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException ignored) {
                        // like a native call: an interrupt does not end it
                    }
                }
            }
        };
        long t0 = System.nanoTime();
        Snapshot s = Snapshots.take(CAPTURE, List.of(stuck, new PlatformProbe()), List.of("test"), "test", Clock.systemUTC(),
                Duration.ofMillis(500));
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5);
        assertThat(s.sections()).containsKey(PlatformProbe.KEY).doesNotContainKey("gpus");
        Evaluation e = Evaluation.of(s, Registry.nodeRules(), RuleContext.defaults());
        Finding f = e.findings().stream().filter(x -> x.code().equals("PROBE_INCOMPLETE")).findFirst().orElseThrow();
        assertThat(f.evidence()).contains("probeTimeouts.gpus: the gpus probe did not finish within 500 ms and was left behind (a hung "
                + "command, driver call or file system); its checks did not run");
    }
}
