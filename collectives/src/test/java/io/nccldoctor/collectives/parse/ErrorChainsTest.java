package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What went wrong, read from real pastes (corpus/nccl-log/README.md names each source): NCCL's error chains ("init.cc:1089
 * -> 3" up to "group.cc:64 -> 3 [Async thread]"), the WARN line before them, WARNs NCCL calls harmless, and communicators
 * counted once per commId. Each file is read by the block scanner and by the line reader, which must agree (LogRangesTest
 * cuts every corpus file into ranges as well).
 */
class ErrorChainsTest {

    /**
     * NVIDIA/nccl-tests#294: rank 4's chain reaches "group.cc:64 -> 3 [Async thread]" (its initialisation failed), rank 6's
     * stops at "bootstrap.cc:256 -> 3" where the paste is cut; each follows its own thread's WARN.
     */
    @Test
    void aChainToTheAsyncThreadIsAFailedCallAndACutOneIsNot() throws IOException {
        NcclLog.Errors e = CorpusLogs.read("nccl-log-ibext-sharp-bootstrap-family-33621-warn-init-failed-chain.txt").errors();
        assertThat(e.chainCount()).isEqualTo(2);
        assertThat(e.failedChains()).isEqualTo(1);
        assertThat(e.chainLines()).isEqualTo(5);
        assertThat(e.warningCount()).isEqualTo(2);
        assertThat(e.chains()).hasSize(2);
        NcclLog.ErrorChain rank4 = e.chains().get(0);
        assertThat(rank4.thread()).isEqualTo("h100-4:739790:739878");
        assertThat(rank4.count()).isEqualTo(4);
        assertThat(rank4.code()).isEqualTo(3);
        assertThat(NcclLog.ErrorChain.codeName(rank4.code())).isEqualTo("ncclInternalError (internal error)");
        assertThat(rank4.failed()).isTrue();
        assertThat(rank4.lines()).first().asString().endsWith("NCCL INFO bootstrap.cc:256 -> 3");
        assertThat(rank4.top()).isEqualTo("h100-4:739790:739878 [4] NCCL INFO group.cc:64 -> 3 [Async thread]");
        assertThat(rank4.cause()).startsWith("h100-4:739790:739878 [4] misc/socket.cc:397 NCCL WARN Net : connecting to address  with "
                + "family 33621");
        NcclLog.ErrorChain rank6 = e.chains().get(1);
        assertThat(rank6.thread()).isEqualTo("h100-4:739792:739876");
        assertThat(rank6.failed()).as("the paste stops before it reaches init.cc").isFalse();
        assertThat(rank6.count()).isEqualTo(1);
        assertThat(rank6.cause()).startsWith("h100-4:739792:739876 [6] misc/socket.cc:397 NCCL WARN");
    }

    /** Azure/msccl#26: eight "-> 3" lines through init.cc, the last cut inside its thread mark ("group.cc:68 -> 3 [Async th"). */
    @Test
    void aChainThroughInitCcCutInItsThreadMarkFailed() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-msccl-parser-warn-init-chain-async-thread-cut.txt");
        assertThat(log.errors().chainCount()).isEqualTo(1);
        assertThat(log.errors().failedChains()).isEqualTo(1);
        NcclLog.ErrorChain c = log.errors().chains().get(0);
        assertThat(c.count()).isEqualTo(8);
        assertThat(c.lines()).hasSize(8);
        assertThat(c.top()).endsWith("group.cc:68 -> 3 [Async th");
        assertThat(c.cause()).endsWith("include/msccl/msccl_parser.h:70 NCCL WARN Attribute minBytes of node algo not found");
        assertThat(log.unknownMessages()).as("the two 'Using MSCCL Algo files' lines; a chain's line is a known message").isEqualTo(2);
    }

    /** aws-ofi-nccl#1020: one WARN with a timestamp before NCCL's prefix and the plugin's function:line location. */
    @Test
    void aWarnAloneIsKeptWithoutAChain() throws IOException {
        NcclLog.Errors e = CorpusLogs.read("nccl-log-ofi-timestamped-fi-getinfo-failed-warn-only.txt").errors();
        assertThat(e.chainCount()).isZero();
        assertThat(e.warningCount()).isEqualTo(1);
        assertThat(e.warnings()).singleElement().asString().endsWith("NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available");
    }

    /** NVIDIA/nccl#1684: "failed to IPC register userbuff", a WARN in 2.24-2.25 that NCCL prints as INFO from 2.26. */
    @Test
    void aWarnNcclCallsHarmlessIsCountedApart() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-ipc-register-userbuff-warn-harmless.txt");
        assertThat(log.warnings()).as("every WARN line is still counted").isEqualTo(1);
        assertThat(log.errors().warningCount()).isZero();
        assertThat(log.errors().harmlessCount()).isEqualTo(1);
        assertThat(log.errors().harmless()).singleElement().asString().contains("failed to IPC register userbuff");
    }

    /**
     * A source location that is no chain ("transport/p2p.cc:163 Cuda Alloc Size …", NVIDIA/nccl#901's fixture) is still
     * passed over, and a chain line that merely ends a benign step ("net.cc:79 -> 3" after NCCL_IBEXT_DISABLE, #1053) is
     * a chain that stops below the call.
     */
    @Test
    void otherSourceLocationsAreNoChainAndAChainBelowTheCallIsNoFailure() throws IOException {
        NcclLog box = NcclLog.parse(Path.of("src/test/resources/fixtures/public/nccl-log-topology-nvswitch-socket-nccl901.txt"));
        assertThat(box.errors().chainCount()).isZero();
        NcclLog lo = NcclLog.parse(Path.of("../reports/src/test/resources/fixtures/judgement/nccl-log-socket-lo-system-dump-nccl1053.txt"));
        assertThat(lo.errors().chainCount()).isEqualTo(1);
        assertThat(lo.errors().failedChains()).isZero();
        assertThat(lo.errors().chains().get(0).top()).endsWith("NCCL INFO net.cc:79 -> 3");
    }

    /**
     * NCCL 2.30.7's form with the function ("%s:%d (%s) -> %d", INFO_LOC in src/include/debug.h) and the proxy's thread
     * mark: no public paste of it was found, so these lines are written from those format strings (a synthetic input).
     */
    @Test
    void theFunctionFormOf2307AndTheProgressThreadAreRead(@TempDir Path dir) throws IOException {
        String p = "n1:7:9 [0] ";
        String text = p + "misc/socket.cc:397 (ncclSocketConnect) NCCL WARN Net : Connect to 10.0.0.2<4242> failed\n"
                + p + "NCCL INFO misc/socket.cc:398 (ncclSocketConnect) -> 2 (Connection refused)\n"
                + p + "NCCL INFO bootstrap.cc:256 (bootstrapConnect) -> 2\n"
                + p + "NCCL INFO transport/p2p.cc:163 (p2pAlloc) Cuda Alloc Size 2097152 pointer 0x7f\n"
                + "n1:7:11 [0] NCCL INFO proxy.cc:878 (ncclProxyProgress) -> 6 [Progress Thread]\n";
        Path file = dir.resolve("f.log");
        Files.writeString(file, text);
        NcclLog log = NcclLog.parse(file);
        assertThat(NcclLog.parse(new BufferedReader(new StringReader(text)), "f.log")).isEqualTo(log);
        assertThat(log.errors().chains()).extracting(NcclLog.ErrorChain::thread, NcclLog.ErrorChain::count, NcclLog.ErrorChain::code,
                NcclLog.ErrorChain::failed).containsExactly(tuple("n1:7:9", 2L, 2, false),
                tuple("n1:7:11", 1L, 6, true));
        assertThat(log.errors().chains().get(0).cause()).endsWith("NCCL WARN Net : Connect to 10.0.0.2<4242> failed");
    }

    /**
     * NVIDIA/nccl#1291: both ranks print "Init START" with commId 0x6e99db63b024eb76: one communicator, not two; the
     * two-container log of 2.19.3 has two commIds (two jobs of one rank each), and RCCL 2.27.7's two ranks complete one.
     */
    @Test
    void aCommunicatorIsCountedOncePerCommId() throws IOException {
        assertThat(CorpusLogs.read("nccl-log-gh200-2host-ibext-sharp-one-commid-two-start-lines.txt").init().started()).isEqualTo(Map.of(2, 1L));
        NcclLog two = CorpusLogs.read("nccl-log-t600-2.19.3-two-containers-one-host-1rank-dumps-interleaved.txt");
        assertThat(two.init().started()).isEqualTo(Map.of(1, 2L));
        assertThat(two.communicatorSizes()).isEqualTo(Map.of(1, 2L));
        NcclLog rccl = CorpusLogs.read("nccl-log-rccl-2.27.7-2x-rx7900xtx-socket-2rank-dumps-slow-nic-link.txt");
        assertThat(rccl.communicatorSizes()).as("two Init COMPLETE lines of one commId").isEqualTo(Map.of(2, 1L));
        assertThat(rccl.init().started()).isEqualTo(Map.of(2, 1L));
        NcclLog old = CorpusLogs.read("nccl-log-efa-p4d-2.9.9-mpi-tag-with-table-16rank.txt");
        assertThat(old.communicatorSizes()).as("2.9.9 prints no commId: one per line, as before").isEqualTo(Map.of(16, 16L));
    }

    /**
     * NVIDIA/nccl-tests#360: each of two proxy threads prints "socketFinalizeAccept: wrong type 4 != 3" twice, each WARN
     * followed by the same four locations: four chains, each after its own WARN, whether the file is read in one pass or
     * cut between a WARN and its chain (LogRangesTest cuts it everywhere).
     */
    @Test
    void aWarnStartsTheChainAfterIt() throws IOException {
        NcclLog.Errors e = CorpusLogs.read("nccl-log-socket-finalize-accept-6-processes-proxy-lines.txt").errors();
        assertThat(e.chainCount()).isEqualTo(4);
        assertThat(e.failedChains()).as("none reaches init.cc, group.cc or a thread's own line").isZero();
        assertThat(e.chains()).allSatisfy(c -> {
            assertThat(c.count()).isEqualTo(4);
            assertThat(c.top()).endsWith("transport/net.cc:883 -> 3");
            assertThat(c.cause()).endsWith("NCCL WARN socketFinalizeAccept: wrong type 4 != 3");
        });
        assertThat(e.chains()).extracting(NcclLog.ErrorChain::thread).containsExactly("node-0:5109:5177", "node-0:5109:5177",
                "node-0:5111:5176", "node-0:5111:5176");
    }
}
