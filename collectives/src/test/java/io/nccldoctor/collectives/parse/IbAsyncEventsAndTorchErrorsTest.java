package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * InfiniBand async events (NCCL's wordings of 2.4 to 2.30, src/transport/net_ib.cc and net_ib/common.cc, with rdma-core's
 * event names) and PyTorch's DistBackendError lines (torch/csrc/distributed/c10d/NCCLUtils.hpp C10D_NCCL_CHECK), read
 * from the real pastes in corpus/nccl-log (README.md names each source), by the block scanner and the line reader alike.
 */
class IbAsyncEventsAndTorchErrorsTest {

    /** Lightning-AI/lit-llama#380: eight "Got async event : port error" (no device named), one per process. */
    @Test
    void portErrorsOfAnOldReleaseAreCountedAsNonFatalWithoutAPort() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.14-ib-async-port-error-8-processes-completion-error-cut-litllama380.txt");
        assertThat(log.ibAsyncEvents().count()).isEqualTo(8);
        assertThat(log.ibAsyncEvents().events()).singleElement().satisfies(e -> {
            assertThat(e.port()).isEmpty();
            assertThat(e.event()).isEqualTo("port error");
            assertThat(e.fatal()).isFalse();
            assertThat(e.count()).isEqualTo(8);
        });
        assertThat(log.errors().warningCount()).as("the events and the completion error are judged by their own rules").isZero();
    }

    /** NVIDIA/nccl#230: "local catastrophic error" (IBV_EVENT_DEVICE_FATAL) in NCCL 2.4's wording: fatal by its name. */
    @Test
    void aDeviceFatalEventInTheOldWordingIsFatal() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.4-ib-async-local-catastrophic-error-mpi-tag-nccl230.txt");
        assertThat(log.ibAsyncEvents().events()).singleElement().satisfies(e -> {
            assertThat(e.event()).isEqualTo("local catastrophic error");
            assertThat(e.fatal()).isTrue();
            assertThat(e.count()).isEqualTo(3);
        });
        assertThat(log.errors().warningCount()).as("'Call to ibv_get_async_event failed' stays a warning").isEqualTo(3);
    }

    /** NVIDIA/nccl#1710: 2.21's "mlx5_0:1 Got async event : local access violation work queue error" behind Markdown links. */
    @Test
    void aQueuePairAccessErrorNamesItsPort() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.21-ib-async-qp-access-violation-markdown-links-nccl1710.txt");
        assertThat(log.ibAsyncEvents().events()).singleElement().satisfies(e -> {
            assertThat(e.port()).isEqualTo("mlx5_0:1");
            assertThat(e.event()).isEqualTo("local access violation work queue error");
            assertThat(e.fatal()).isTrue();
            assertThat(e.count()).isEqualTo(3);
        });
        assertThat(log.ibErrors()).hasSize(1);
    }

    /** NVIDIA/nccl-tests#360: 2.24's "mlx5_3:1 async fatal event on QP (0x…): invalid request …", 11 on six ports. */
    @Test
    void fatalQueuePairEventsAreCountedPerPort() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.24-ib-async-fatal-qp-6-ports-communicator-fatal-ncclt360.txt");
        assertThat(log.ibAsyncEvents().count()).isEqualTo(11);
        assertThat(log.ibAsyncEvents().events()).allSatisfy(e -> {
            assertThat(e.event()).isEqualTo("invalid request local work queue error");
            assertThat(e.fatal()).isTrue();
        });
        assertThat(log.ibAsyncEvents().events()).extracting(e -> e.port() + "=" + e.count())
                .containsExactly("mlx5_3:1=3", "mlx5_7:1=2", "mlx5_2:1=1", "mlx5_6:1=1", "mlx5_5:1=2", "mlx5_4:1=2");
        assertThat(log.errors().warningCount()).as("the two 'communicator encountered a fatal error' lines").isEqualTo(2);
        assertThat(log.errors().failedChains()).isEqualTo(1);
    }

    /** NCCL's later wordings, one line each (2.30.7's QP line with its attributes, 2.28's non-fatal, 2.23's SRQ). */
    @Test
    void laterWordingsAreReadByEventName() {
        IbAsyncEvents a = new IbAsyncEvents();
        assertThat(a.read("NET/IB : mlx5_1:1 async fatal event on QP (0x5) qpn=17 handle=2 send_cq=3 recv_cq=3 state=6 sq_psn=1 "
                + "rq_psn=2: local work queue catastrophic error", "l1")).isTrue();
        assertThat(a.read("NET/IB : mlx5_1:1 Got non-fatal async event: port error(10)", "l2")).isTrue();
        assertThat(a.read("NET/IB : mlx5_1:1 async fatal event on SRQ, unused for now (0x9): SRQ catastrophic error", "l3")).isTrue();
        assertThat(a.read("NET/IB : mlx5_1:1 async fatal event: local catastrophic error", "l4")).isTrue();
        assertThat(a.read("NET/IB : Got completion from peer 10.0.0.2<4567> with status=12 opcode=0", "l5")).isFalse();
        assertThat(a.build().events()).extracting(e -> e.event() + "/" + e.fatal()).containsExactly(
                "local work queue catastrophic error/true", "port error/false", "SRQ catastrophic error/false", "local catastrophic error/true");
    }

    /** hkproj/pytorch-transformer-distributed#1: the block on four lines; only the first holds "NCCL ". */
    @Test
    void aDistBackendErrorGivesTheResultAndTheVersion() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-torch-distbackenderror-2.18.6-system-error-no-route.txt");
        assertThat(log.versions()).containsExactly("2.18.6");
        assertThat(log.torchErrors().errors()).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo(2);
            assertThat(e.where()).isEqualTo("../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333");
            assertThat(e.version()).isEqualTo("2.18.6");
            assertThat(e.lastError()).as("on the line after 'Last error:', two lines below")
                    .isEqualTo("socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host");
        });
    }

    /**
     * The same file read as two ranges of a large one, cut at each line start: a range that starts inside the block (at
     * "Last error:" or at the error's text) completes the error the range before it read.
     */
    @Test
    void theLastErrorIsReadWhereverARangeStarts() throws IOException, InterruptedException {
        Path file = CorpusLogs.CORPUS.resolve("nccl-log-torch-distbackenderror-2.18.6-system-error-no-route.txt");
        byte[] bytes = Files.readAllBytes(file);
        int cuts = 0;
        for (int at = 1; at < bytes.length; at++) {
            if (bytes[at - 1] != '\n') {
                continue;
            }
            cuts++;
            NcclLog log = LogReader.read(file, new long[] {at}, 512).finish(file.toString());
            assertThat(log.torchErrors().errors()).as("cut at byte " + at).singleElement()
                    .satisfies(e -> assertThat(e.lastError()).isEqualTo("socketStartConnect: Connect to 192.168.19.14<52822> failed : No route to host"));
        }
        assertThat(cuts).isEqualTo(4);
    }

    /** awslabs/awsome-distributed-ai#192: the same block flattened onto one line behind srun's "10: " labels. */
    @Test
    void aFlattenedBlockGivesTheLastErrorWithoutTheLabel() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-torch-distbackenderror-2.18.5-flattened-srun-label.txt");
        assertThat(log.torchErrors().errors()).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo(2);
            assertThat(e.version()).isEqualTo("2.18.5");
            assertThat(e.lastError()).isEqualTo("socketStartConnect: Connect to 127.0.0.1<45069> failed : Software caused connection abort");
        });
    }

    /** NVIDIA/nccl#2076: "remote process exited or there was a network error" is ncclRemoteError (6), from NCCLUtils.hpp. */
    @Test
    void aRemoteErrorIsCodeSix() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-torch-distbackenderror-2.21.5-remote-error-nccl2076.txt");
        assertThat(log.torchErrors().errors()).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo(6);
            assertThat(e.where()).isEqualTo("/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268");
            assertThat(e.version()).isEqualTo("2.21.5");
            assertThat(e.lastError()).isEqualTo("socketProgressOpt: Call to recv from 172....<33759> failed : Connection reset by peer");
        });
    }

    /** The corpus README quotes the errors' first lines in backticks: Markdown quoting them, not PyTorch's output. */
    @Test
    void aQuotedErrorLineIsNotRead() {
        NcclLog readme = NcclLog.parse(CorpusLogs.CORPUS.resolve("README.md"));
        assertThat(readme.torchErrors().count()).isZero();
    }
}
