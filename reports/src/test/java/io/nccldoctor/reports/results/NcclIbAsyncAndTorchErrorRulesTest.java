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
 * InfiniBand async events judged by what NCCL does with them (fatal: an error; a port going down: a warning),
 * PyTorch's DistBackendError judged as a failed NCCL call, and libfabric's own warnings judged apart from NCCL's, on the
 * real pastes of corpus/nccl-log (README.md names each).
 */
class NcclIbAsyncAndTorchErrorRulesTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-log");

    private static Report judge(String file) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(CORPUS.resolve(file).toString()), "2026-12-02T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    private static Finding finding(Report r, String code) {
        return r.findings().stream().filter(f -> f.code().equals(code)).findFirst().orElseThrow();
    }

    private static List<String> codes(Report r) {
        return r.findings().stream().map(Finding::code).toList();
    }

    @Test
    void portErrorsAreTheirOwnWarningNotGenericWarnLines() {
        Report r = judge("nccl-log-2.14-ib-async-port-error-8-processes-completion-error-cut-litllama380.txt");
        assertThat(codes(r)).containsExactly("NCCL_IB_COMPLETION_ERROR", "NCCL_IB_ASYNC_EVENT");
        Finding f = finding(r, "NCCL_IB_ASYNC_EVENT");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.title()).isEqualTo("8 IB async events: port error (8), the port not named (NCCL before 2.21)");
        assertThat(f.evidence()).contains("port not named: port error, 8 lines");
    }

    @Test
    void aDeviceFatalEventIsAnError() {
        Report r = judge("nccl-log-2.4-ib-async-local-catastrophic-error-mpi-tag-nccl230.txt");
        assertThat(codes(r)).containsExactly("NCCL_IB_ASYNC_FATAL", "NCCL_WARN_LINES");
        Finding f = finding(r, "NCCL_IB_ASYNC_FATAL");
        assertThat(f.severity()).isEqualTo(Severity.ERROR);
        assertThat(f.title()).startsWith("3 fatal IB async events: local catastrophic error (3)");
        assertThat(f.evidence()).anyMatch(e -> e.startsWith("first: ") && e.contains("Got async event : local catastrophic error"));
    }

    @Test
    void fatalQueuePairEventsAreCountedPerPort() {
        Report r = judge("nccl-log-2.24-ib-async-fatal-qp-6-ports-communicator-fatal-ncclt360.txt");
        Finding f = finding(r, "NCCL_IB_ASYNC_FATAL");
        assertThat(f.title()).isEqualTo("11 fatal IB async events: invalid request local work queue error (11) on 6 ports");
        assertThat(f.evidence()).contains("mlx5_3:1: invalid request local work queue error, 3 lines",
                "mlx5_2:1: invalid request local work queue error, 1 line");
        assertThat(codes(r)).doesNotContain("NCCL_WARN_LINES", "NCCL_IB_ASYNC_EVENT");
    }

    @Test
    void aDistBackendErrorIsAFailedCall() {
        Report r = judge("nccl-log-torch-distbackenderror-2.18.6-system-error-no-route.txt");
        assertThat(codes(r)).containsExactly("NCCL_CALL_FAILED");
        Finding f = r.findings().get(0);
        assertThat(f.title()).isEqualTo("an NCCL call failed (PyTorch's DistBackendError) with ncclSystemError (system error), NCCL 2.18.6: "
                + "socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
        assertThat(f.evidence()).anyMatch(e -> e.contains("last error: socketStartConnect: Connect to 192.168.19.14<52822> failed"));
    }

    @Test
    void aFlattenedDistBackendErrorCarriesItsLastError() {
        Report r = judge("nccl-log-torch-distbackenderror-2.18.5-flattened-srun-label.txt");
        assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.title()).isEqualTo("an NCCL call failed (PyTorch's "
                + "DistBackendError) with ncclSystemError (system error), NCCL 2.18.5: socketStartConnect: Connect to 127.0.0.1<45069> "
                + "failed : Software caused connection abort"));
    }

    @Test
    void aRemoteErrorIsAFailedCallWithCodeSix() {
        Report r = judge("nccl-log-torch-distbackenderror-2.21.5-remote-error-nccl2076.txt");
        assertThat(r.findings()).singleElement().satisfies(f -> assertThat(f.title()).contains("ncclRemoteError (remote error), NCCL 2.21.5"));
    }

    @Test
    void anEmptyEfaProviderListIsALibfabricWarning() {
        Report r = judge("nccl-log-ofi-libfabric-efa-getinfo-empty-list-cloudwatch.txt");
        Finding f = finding(r, "LIBFABRIC_WARN");
        assertThat(f.title()).isEqualTo("1 libfabric warning: core fi_getinfo: provider efa output empty list");
        assertThat(f.evidence()).contains("core fi_getinfo_: fi_getinfo: provider efa output empty list, 1 line");
    }

    @Test
    void thePluginTurningLibfabricSharedMemoryOffRaisesNothing() {
        Report r = judge("nccl-log-ofi-libfabric-efa-shm-permitted-warn-cloudwatch.txt");
        assertThat(codes(r)).doesNotContain("LIBFABRIC_WARN");
    }
}
