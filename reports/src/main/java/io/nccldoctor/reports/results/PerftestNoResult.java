package io.nccldoctor.reports.results;

import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * `report` on a perftest output with no result row and no error: what the text shows of the run stops before the
 * measurement (a server still waiting for its client, a paste cut after the GPU lines). Nothing was measured, so
 * nothing is judged; this says so instead of a silent pass. An output with an error is PERFTEST_FAILED's.
 */
public final class PerftestNoResult implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("PERFTEST_NO_RESULT", Severity.INFO,
            "a perftest output holds no result: the run it shows does not reach its measurement",
            "perftest prints its header block (device, link type, MTU, GID index, QPs) only after it has connected to "
                    + "the other side and allocated and registered its buffers (write_bw.c:126-194: establish_connection, "
                    + "ctx_init, ctx_print_test_info), and its result table after that. An output that ends before the table "
                    + "without an error line measured nothing in what was given: the server waited for a client that did not "
                    + "come, the run was interrupted, or the text was cut (after the command line and the CUDA device lines, "
                    + "as in a question that pastes only the start).",
            "perftest's outcome for the given output: its last line, the waiting banner, ^C, and the command line's side",
            "Give the whole output of both sides, down to the result table, or run the test again: start the server "
                    + "first, then the client with the server's address; a server that keeps waiting means the client did not "
                    + "reach it (address, port -p, firewall).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<PerftestRun> runs = PerftestRuns.in(results);
        if (runs.isEmpty()) {
            return PerftestRuns.NONE;
        }
        List<Finding> findings = runs.stream().filter(r -> r.errors().isEmpty() && r.outcome().startsWith("no result")).map(this::empty)
                .toList();
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    private Finding empty(PerftestRun run) {
        List<String> evidence = new ArrayList<>();
        evidence.add("result: " + run.outcome());
        evidence.add("side: " + run.role().fold(r -> r, why -> "not known (" + why + ")"));
        String what = run.test().orElse("perftest");
        String why = run.outcome().substring("no result: ".length());
        return finding(run.source(), what + " in " + run.source() + " measured nothing: " + why, evidence);
    }
}
