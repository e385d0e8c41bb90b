package io.nccldoctor.cli;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.gdr.CounterProbe;
import io.nccldoctor.gdr.CounterWindow;
import io.nccldoctor.gdr.ForegroundCommand;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.counters.CounterReport;
import io.nccldoctor.reports.counters.CounterRules;
import io.nccldoctor.reports.counters.CounterText;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "counters", mixinStandardHelpOptions = true,
        description = {
            "Reads the RDMA port counters, or what a run did to them.",
            "",
            "Per port: counters/ and hw_counters/ of /sys/class/infiniband (bytes as port_xmit_data x 4, ECN marks, CNPs, "
                + "out-of-sequence packets, retransmissions, ACK timeouts, drops, link errors) and ethtool -S of its net device "
                + "(PFC pauses per priority with their duration, pause storms, physical drops). With --during it reads them, "
                + "runs CMD, reads them again, prints the deltas per port and the CV of Tx bytes across the rails, and judges them."},
        footer = {"",
            "Examples:",
            "  nccl-doctor counters                        totals since the driver loaded",
            "  nccl-doctor counters --during -- ib_write_bw -d mlx5_0 -x 3 --report_gbits n2",
            "  nccl-doctor counters --during --timeout 900 -- mpirun -np 16 ./all_reduce_perf -b 8 -e 8G -f 2 -g 1",
            "  nccl-doctor counters --interval 10 --hca mlx5_0,mlx5_1   ten seconds of whatever runs now",
            "  nccl-doctor counters --during --json -- ./train.sh > counters.json   (CMD's stdout goes to stderr)",
            "  nccl-doctor counters --from node17-capture --json",
            "  nccl-doctor counters --root /mnt/node17 --interval 5   DIR/sys and DIR/proc read as this node's",
            "",
            "The counters count everything on a port: run on a node that carries nothing else meanwhile.",
            "Exit codes: 0 no error-level finding, 1 an error-level finding or CMD failed, 2 bad usage (no CMD after --) or input, "
                + "3 the tool failed."})
final class CountersCommand implements Callable<Integer> {

    @Mixin
    HostOptions hostOptions;

    @Option(names = "--root", paramLabel = "DIR", description = "Read DIR/sys and DIR/proc instead of this node's, and run "
            + "ethtool live: a mounted node's file system, or a sysfs tree made for a test. Unlike --from, --during and "
            + "--interval work (the counters are read twice).")
    Path root;

    @Option(names = "--json", description = "Print the snapshot, or the deltas with the findings, as JSON.")
    boolean json;

    @Option(names = "--during", description = "Read the counters, run CMD (given after --, stdio inherited), read them again; "
            + "print the deltas and what they mean.")
    boolean during;

    @Option(names = "--interval", paramLabel = "SECONDS", description = "Without --during: two readings SECONDS apart.")
    Double interval;

    @Option(names = "--timeout", defaultValue = "3600", paramLabel = "SECONDS",
            description = "With --during: kill CMD with its process tree after this long. Default: ${DEFAULT-VALUE}.")
    long timeout;

    @Option(names = "--hca", split = ",", paramLabel = "DEV[:PORT]",
            description = "Only these ports, named as in NCCL_IB_HCA without its prefixes: mlx5_0,mlx5_1:1. Default: every port.")
    List<String> hca;

    @Option(names = "--ethtool", paramLabel = "PATH", description = "The ethtool to run. Default: ethtool from PATH, else /usr/sbin/ethtool.")
    String ethtool;

    @Mixin
    RulesOption rules;

    @Parameters(paramLabel = "CMD", arity = "0..*", description = "With --during: the command to run and its arguments, after --.")
    List<String> command;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<String> cmd = command == null ? List.of() : command;
        check(cmd);
        Host host = root != null ? HostOptions.rootHost(root) : hostOptions.host();
        CounterProbe probe = new CounterProbe(ethtool == null ? CounterProbe.ETHTOOL : List.of(ethtool), hca == null ? List.of() : hca);
        CounterReport report;
        RulesConfig config = Configs.rules(rules.file, Registry.nodeRules());
        if (!during && interval == null) {
            report = CounterReport.of(host.source(), probe.run(host));
        } else {
            CounterWindow w;
            long millis = during ? 0 : Math.round(interval * 1000);
            try (Progress p = during ? null : Progress.timed(spec.commandLine().getErr(), "counters --interval", millis)) {
                w = during ? CounterWindow.during(probe, host, cmd, Duration.ofSeconds(timeout), json)
                        : CounterWindow.interval(probe, host, Duration.ofMillis(millis));
            } catch (ForegroundCommand.NotStarted e) {
                throw new InputException(e.getMessage() + " (the command after --)", e);
            }
            report = CounterReport.of(host.source(), w, CounterRules.evaluate(w.delta(), new RuleContext(config, NodeShape.none())));
        }
        var out = spec.commandLine().getOut();
        out.print(json ? JsonDocument.write(report) : Terminal.show(CounterText.render(report, config.thresholds().counters())));
        out.flush();
        return report.exitCode();
    }

    private void check(List<String> cmd) {
        if (!cmd.isEmpty() && !during) {
            throw new InputException("a command was given without --during: nccl-doctor counters --during -- " + String.join(" ", cmd));
        }
        if (during && cmd.isEmpty()) {
            throw new InputException("--during needs a command after --, e.g. nccl-doctor counters --during -- ib_write_bw -d mlx5_0 n2");
        }
        if (during && interval != null) {
            throw new InputException("--during and --interval are two ways to bound the readings: give one");
        }
        if ((interval != null && !(interval > 0)) || timeout < 1) {
            throw new InputException("--interval must be more than 0 seconds and --timeout at least 1 second");
        }
        if (hostOptions.from != null && (during || interval != null || root != null)) {
            throw new InputException("--from replays one capture, one moment of a node: --during and --interval read this node");
        }
    }
}
