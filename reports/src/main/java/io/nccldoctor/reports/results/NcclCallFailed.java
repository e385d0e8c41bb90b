package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An NCCL call that failed: its error chain reaches the top of the call (init.cc, group.cc, a thread's own line). */
public final class NcclCallFailed extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_CALL_FAILED", Severity.ERROR,
            "an NCCL call failed: its error chain reaches the top of the call",
            "When a call fails, NCCL prints the error's way back up, one INFO line per function it leaves ('bootstrap.cc:256 "
                    + "-> 3', src/include/checks.h), and the thread that ran the call ends it: 'group.cc:64 -> 3 [Async thread]' "
                    + "is the communicator's initialisation job (group.cc ncclAsyncJobMain), '[Progress Thread]' (up to 2.20 "
                    + "'[Proxy Thread]') the proxy thread, whose error becomes the communicator's. A chain that reaches init.cc, "
                    + "group.cc or such a line left NCCL: ncclCommInitRank or ncclGroupEnd returned the error, the communicator "
                    + "was not made or is broken, and a measurement around it is no result. The code is NCCL's ncclResult_t "
                    + "(src/nccl.h.in): 1 unhandled CUDA error, 2 system error (a socket, a file, memory), 3 internal error, 4 "
                    + "invalid argument, 5 invalid usage, 6 remote error (from 2.13: a peer failed or went away), 8 timeout (from "
                    + "2.30). The WARN line the same thread printed just before it usually says why. A log with an IB completion "
                    + "error is judged by NCCL_IB_COMPLETION_ERROR: the chains after it are its consequence. PyTorch says the "
                    + "same of a call it made: 'torch.distributed.DistBackendError: NCCL error in: …ProcessGroupNCCL.cpp:N, "
                    + "unhandled system error (…), NCCL version 2.18.6' is the call's ncclResult_t by NCCL's own text "
                    + "(ncclGetErrorString), followed by PyTorch's gloss ('ncclSystemError: …') and NCCL's last WARN text "
                    + "after 'Last error:'. XLA (JAX, TensorFlow) says it on one line: '…/nccl_utils.cc:305: NCCL operation "
                    + "ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error (…). Last NCCL warning(error) log "
                    + "entry (may be unrelated) '…'.'",
            "the lines 'file.cc:N -> CODE' of each thread (host:pid:tid), the last one ('[Async thread]', '[Progress Thread]', "
                    + "init.cc, group.cc), and the thread's WARN line before them; PyTorch's 'NCCL error in: …' lines (the "
                    + "result, the NCCL version, and the last error when the block was flattened onto that line); XLA's 'NCCL "
                    + "operation … failed: …' lines (the call, the result, the last warning)",
            "Read the WARN before the chain and the chain's first line, where the error arose: misc/socket.cc and bootstrap.cc "
                    + "are the bootstrap's TCP connections (NCCL_SOCKET_IFNAME, a firewall, an address NCCL cannot use), "
                    + "transport/net_ib.cc the IB devices, a plugin's own lines the plugin. Rerun with NCCL_DEBUG=INFO "
                    + "NCCL_DEBUG_SUBSYS=INIT,NET and compare the ranks: the first to fail is the cause, the others often fail "
                    + "after it with 6 (remote error).");

    public NcclCallFailed() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        NcclLog.Errors errors = log.errors();
        NcclLog.TorchErrors torch = log.torchErrors();
        if (errors.failedChains() == 0 && torch.count() == 0 || !log.ibErrors().isEmpty()) {
            return Optional.empty();
        }
        if (errors.failedChains() == 0) {
            return Optional.of(finding(name, torchTitle(torch), torchEvidence(name, torch, errors)));
        }
        List<NcclLog.ErrorChain> failed = errors.chains().stream().filter(NcclLog.ErrorChain::failed).toList();
        List<String> evidence = new ArrayList<>();
        for (NcclLog.ErrorChain c : failed) {
            evidence.add(chain(c));
            if (!c.cause().isEmpty()) {
                evidence.add("its thread warned before it: " + c.cause());
            }
        }
        if (errors.failedChains() > failed.size()) {
            evidence.add(errors.failedChains() - failed.size() + " more failed chains past the first " + errors.chains().size()
                    + " chains kept");
        }
        long below = errors.chainCount() - errors.failedChains();
        if (below > 0) {
            evidence.add(below + (below == 1 ? " chain that stops" : " chains that stop") + " below the call (NCCL went on, or the "
                    + "log is cut there)");
        }
        if (errors.warningCount() > 0) {
            evidence.add(errors.warningCount() + " WARN line" + (errors.warningCount() == 1 ? "" : "s") + "; the first: "
                    + errors.warnings().get(0));
        }
        if (torch.count() > 0) {
            evidence.addAll(torchLines(torch));
        }
        evidence.add("source: " + name);
        long n = errors.failedChains();
        String title = (n == 1 ? "an NCCL call failed" : n + " NCCL calls failed") + (failed.isEmpty()
                ? " (in chains past the first " + errors.chains().size() + ", which are the ones kept)"
                : (n == 1 ? "" : ", the first") + " with " + NcclLog.ErrorChain.codeName(failed.get(0).code()) + ", up to "
                + message(failed.get(0).top()));
        return Optional.of(finding(name, title, evidence));
    }

    /**
     * "an NCCL call failed (PyTorch's DistBackendError) with ncclSystemError (system error), NCCL 2.18.6", or for XLA's
     * error "an NCCL call failed (XLA: ncclCommInitRank) with …".
     */
    private static String torchTitle(NcclLog.TorchErrors torch) {
        long n = torch.count();
        String said = torch.errors().isEmpty() ? "PyTorch's DistBackendError" : framework(torch.errors().get(0));
        String head = (n == 1 ? "an NCCL call failed (" : n + " NCCL calls failed (") + said + ")";
        if (torch.errors().isEmpty()) {
            return head;
        }
        NcclLog.TorchError e = torch.errors().get(0);
        return head + (n == 1 ? "" : ", the first") + " with " + result(e) + (e.version().isEmpty() ? "" : ", NCCL " + e.version())
                + (e.lastError().isEmpty() ? "" : ": " + e.lastError());
    }

    private static List<String> torchEvidence(String name, NcclLog.TorchErrors torch, NcclLog.Errors errors) {
        List<String> evidence = new ArrayList<>(torchLines(torch));
        if (errors.chainCount() > 0) {
            evidence.add(errors.chainCount() + " NCCL error " + (errors.chainCount() == 1 ? "chain" : "chains")
                    + " that stop below the call (NCCL went on, or the log is cut there)");
        }
        if (errors.warningCount() > 0) {
            evidence.add(errors.warningCount() + " WARN line" + (errors.warningCount() == 1 ? "" : "s") + "; the first: "
                    + errors.warnings().get(0));
        }
        evidence.add("source: " + name);
        return evidence;
    }

    /** "PyTorch's DistBackendError", or "XLA: ncclCommInitRank" (the call XLA names, without its arguments). */
    private static String framework(NcclLog.TorchError e) {
        if (!"XLA".equals(e.framework())) {
            return "PyTorch's DistBackendError";
        }
        int paren = e.call().indexOf('(');
        return "XLA: " + (paren > 0 ? e.call().substring(0, paren) : e.call());
    }

    /** The frameworks' errors, each with where the last error is when the text does not hold it. */
    private static List<String> torchLines(NcclLog.TorchErrors torch) {
        List<String> lines = new ArrayList<>();
        for (NcclLog.TorchError e : torch.errors()) {
            boolean xla = "XLA".equals(e.framework());
            String missing = xla ? "not in the text (XLA releases before late 2023 do not print it: NCCL's last WARN is in its own log)"
                    : "not in the text (PyTorch prints it on the line after 'Last error:', below its line, which the text does not "
                    + "hold: it is NCCL's last WARN, find it there)";
            lines.add(e.framework() + ": " + result(e) + (xla ? " from " + e.call() : "") + " at " + e.where() + ", NCCL "
                    + (e.version().isEmpty() ? "version not on the line" : e.version())
                    + "; last error: " + (e.lastError().isEmpty() ? missing : e.lastError()));
            lines.add("its line: " + e.line());
        }
        if (torch.count() > torch.errors().size()) {
            lines.add(torch.count() - torch.errors().size() + " more such lines past the first " + torch.errors().size());
        }
        return lines;
    }

    private static String result(NcclLog.TorchError e) {
        return e.code() == 0 ? "'" + e.result() + "' (no ncclResult_t's text)" : NcclLog.ErrorChain.codeName(e.code());
    }

    /** A chain in a line: its thread, size, code, where it arose and where it ended. */
    static String chain(NcclLog.ErrorChain c) {
        String from = c.lines().isEmpty() ? "" : message(c.lines().get(0));
        String to = message(c.top());
        return "error chain" + (c.thread().isEmpty() ? "" : " of " + c.thread()) + " (" + c.count() + " line" + (c.count() == 1 ? "" : "s")
                + ", " + NcclLog.ErrorChain.codeName(c.code()) + "): " + (c.count() == 1 ? to : from + " … " + to);
    }

    /** A line's message: what follows "NCCL INFO ", or the line as written. */
    static String message(String line) {
        int at = line.indexOf("NCCL INFO ");
        return at < 0 ? line : line.substring(at + "NCCL INFO ".length());
    }
}
