package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a log says went wrong, judged on real pastes (corpus/nccl-log/README.md and the public fixtures' README name each
 * source): a failed initialisation is an error, WARN lines alone a warning, a WARN NCCL calls harmless nothing; and the
 * socket network of a log that shows one host, one process or one rank is not judged.
 */
class NcclLogFailureRulesTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-log");

    private static Report judge(Path input) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(input.toString()), "2026-12-02T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    private static List<String> codes(Report r) {
        return r.findings().stream().map(Finding::code).toList();
    }

    private static Check check(Report r, String code) {
        return r.checks().stream().filter(c -> c.code().equals(code)).findFirst().orElseThrow();
    }

    /** NVIDIA/nccl-tests#294: the bootstrap's WARN, then "bootstrap.cc:256 -> 3" … "group.cc:64 -> 3 [Async thread]". */
    @Test
    void aChainToTheTopIsAFailedCallWithItsWarning() {
        Report r = judge(CORPUS.resolve("nccl-log-ibext-sharp-bootstrap-family-33621-warn-init-failed-chain.txt"));
        assertThat(codes(r)).containsExactly("NCCL_CALL_FAILED");
        Finding f = r.findings().get(0);
        assertThat(f.severity()).isEqualTo(Severity.ERROR);
        assertThat(f.title()).isEqualTo("an NCCL call failed with ncclInternalError (internal error), up to group.cc:64 -> 3 [Async thread]");
        assertThat(f.evidence()).contains("error chain of h100-4:739790:739878 (4 lines, ncclInternalError (internal error)): "
                + "bootstrap.cc:256 -> 3 … group.cc:64 -> 3 [Async thread]");
        assertThat(f.evidence()).anyMatch(e -> e.startsWith("its thread warned before it: h100-4:739790:739878 [4] misc/socket.cc:397 "
                + "NCCL WARN Net : connecting to address  with family 33621"));
        assertThat(f.evidence()).contains("1 chain that stops below the call (NCCL went on, or the log is cut there)");
    }

    /** Azure/msccl#26: the MSCCL parser's WARN, then a chain through init.cc to a cut "[Async th". */
    @Test
    void anMscclParserFailureIsAFailedCall() {
        Report r = judge(CORPUS.resolve("nccl-log-msccl-parser-warn-init-chain-async-thread-cut.txt"));
        assertThat(codes(r)).containsExactly("NCCL_CALL_FAILED");
        assertThat(r.findings().get(0).title()).isEqualTo("an NCCL call failed with ncclInternalError (internal error), up to "
                + "group.cc:68 -> 3 [Async th");
    }

    /** aws-ofi-nccl#1020: the plugin's WARN and nothing after it: a warning that quotes it. */
    @Test
    void aWarnAloneIsAWarningThatQuotesIt() {
        Report r = judge(CORPUS.resolve("nccl-log-ofi-timestamped-fi-getinfo-failed-warn-only.txt"));
        assertThat(codes(r)).containsExactly("NCCL_WARN_LINES");
        Finding f = r.findings().get(0);
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.title()).isEqualTo("NCCL warned: NET/OFI OFI fi_getinfo() call failed: No data available");
        assertThat(f.evidence()).first().asString().startsWith("NCCL: [2025-10-16 22:16:08] ip-172-31-3-90:1929:1937 [0] "
                + "nccl_net_ofi_rdma_init:7978 NCCL WARN");
    }

    /** NVIDIA/nccl#1684: the WARN NCCL's maintainer calls harmless (INFO from 2.26) raises nothing. */
    @Test
    void aWarnNcclCallsHarmlessRaisesNothing() {
        Report r = judge(CORPUS.resolve("nccl-log-ipc-register-userbuff-warn-harmless.txt"));
        assertThat(codes(r)).noneMatch(c -> c.startsWith("NCCL_"));
    }

    /**
     * returnn#1469: two processes on ncg12, sockets chosen: not judged (one host); NVIDIA/nccl#1267's one rank likewise;
     * NVIDIA/nccl#226's ten hosts with sockets only are still flagged.
     */
    @Test
    void socketsOnOneHostOrOneRankAreNotJudged() {
        Report host = judge(CORPUS.resolve("nccl-log-socket-ib-disabled-2-processes-one-host-wrapped.txt"));
        assertThat(codes(host)).doesNotContain("NCCL_NET_SOCKET");
        assertThat(check(host, "NCCL_NET_SOCKET").waivedBecause()).startsWith("not judged: ")
                .contains("NCCL chose sockets, but the log shows one host (ncg12) and no channel over sockets");
        Report rank = judge(NcclLogRulesTest.FIXTURES.resolve("nccl-log-no-ib-device-socket-1rank-2.19.3-nccl1267.txt"));
        assertThat(check(rank, "NCCL_NET_SOCKET").waivedBecause()).contains("every communicator it shows has one rank");
        Report hosts = judge(NcclLogRulesTest.FIXTURES.resolve("nccl-log-ib-no-device-socket-aws-nccl226.txt"));
        assertThat(codes(hosts)).containsExactly("NCCL_NET_SOCKET");
    }
}
