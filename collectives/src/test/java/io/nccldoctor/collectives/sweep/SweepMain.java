package io.nccldoctor.collectives.sweep;

import java.nio.file.Path;
import java.util.List;

/** The orchestrator in a process of its own, so that a test can kill it with SIGKILL halfway. Args: PLAN RESULTS CHILD. */
public final class SweepMain {

    private SweepMain() {
    }

    public static void main(String[] args) throws Exception {
        SweepPlan plan = SweepPlan.load(Path.of(args[0]));
        new Orchestrator(plan, new Orchestrator.Options(Path.of(args[1]), true, false, List.of("python3", args[2]), System.getenv(),
                line -> System.out.println(line))).run();
    }
}
