package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * The error PyTorch raises when an NCCL call returns one (torch.distributed.DistBackendError), in the wording of
 * C10D_NCCL_CHECK (torch/csrc/distributed/c10d/NCCLUtils.hpp): "NCCL error in: FILE:LINE, " + ncclGetErrorWithVersion
 * (NCCL's ncclGetErrorString, then ", NCCL version " and the version, NCCLUtils.cpp) + "\n" + getNcclErrorDetailStr:
 * the result's name and PyTorch's gloss ("ncclSystemError: System call (e.g. socket, malloc) …"), then "\nLast error:\n"
 * and NCCL's ncclGetLastError, the text of its last WARN. PyTorch prints the block on several lines; a launcher that
 * flattens the output (srun's "10: " label, a logger) puts it on one.
 * <p>
 * Read here from the line that holds "NCCL error in: " (it holds "NCCL ", so the block scanner hands it over): the file
 * and line, the result by NCCL's own string, the version, and the last error when it stands on the same line. Otherwise
 * the lines after it are looked at ({@link #following}; they hold no "NCCL ", and the block scanner hands them over only
 * while this asks for them): "Last error:" within the next {@link #LOOK} lines, and the line after it is the last error
 * (either may carry a launcher's rank label). A range of a large file that ends before that line is completed by the
 * next range's first lines ({@link #absorb}). The wording after a backtick on its line is Markdown quoting it (a README,
 * a report), not PyTorch's output, as for {@link TorchWatchdog}.
 * <p>
 * XLA (JAX, TensorFlow) says the same of a call it made on one line, "%s:%d: NCCL operation %s failed: %s. Last NCCL
 * warning(error) log entry (may be unrelated) '%s'." (ToStatus in xla/service/gpu/runtime/nccl_api.cc, nccl_utils.cc
 * before it; releases before late 2023 print no last warning), behind "INTERNAL: " or inside a longer status ("custom
 * call 'xla.gpu.all_reduce' failed: …; current tracing scope: …"): read by {@link #readXla}.
 */
final class TorchNcclErrors {

    static final String WORDS = "NCCL error in: ";
    /** XLA's words for an NCCL call that failed (ToStatus, xla/service/gpu/runtime/nccl_api.cc). */
    static final String XLA_WORDS = "NCCL operation ";
    private static final String XLA_FAILED = " failed: ";
    private static final String XLA_LAST = "Last NCCL warning(error) log entry (may be unrelated) '";
    private static final String VERSION = ", NCCL version ";
    private static final String LAST = "Last error:";

    /**
     * ncclGetErrorString's text per ncclResult_t (src/init.cc; 2.4 to 2.30, with a hint in parentheses in later releases, "unhandled system error (run with NCCL_DEBUG=INFO for details)"),
     * in the order of the codes 1 to 8.
     */
    private static final List<String> RESULTS = List.of("unhandled cuda error", "unhandled system error", "internal error",
            "invalid argument", "invalid usage", "remote process exited or there was a network error", "NCCL operation in progress",
            "timeout");

    private final List<NcclLog.TorchError> kept = new ArrayList<>();
    private long count;

    /**
     * The lines after the error looked at for "Last error:": PyTorch prints the result's gloss ("ncclSystemError: System
     * call …") on the next line and "Last error:" on the one after (getNcclErrorDetailStr, NCCLUtils.cpp); one more line
     * is allowed for a wrapped gloss.
     */
    static final int LOOK = 3;
    /** Lines still looked at for "Last error:" after the last error read without its own. */
    private int looking;
    /** The next line is NCCL's last error: the line before was "Last error:" alone. */
    private boolean textNext;
    /** Where in {@link #kept} that error is; -1 when it is not kept (more than NcclLog.KEEP). */
    private int waiting = -1;

    /**
     * A line whose first "NCCL " at {@code first} starts "NCCL error in: ": read, with {@code kept} the line as written.
     * Once per such line only.
     */
    void read(String text, int first, String keptLine) {
        count++;
        looking = 0;
        textNext = false;
        waiting = -1;
        if (kept.size() >= NcclLog.KEEP) {
            looking = LOOK; // its lines are looked at as for a kept one, so that a range reads as the whole file does
            return;
        }
        int from = first + WORDS.length();
        int comma = text.indexOf(", ", from);
        String where = comma < 0 ? "" : text.substring(from, comma).strip();
        int version = text.indexOf(VERSION, from);
        String result = comma < 0 ? "" : text.substring(comma + 2, version > comma ? version : text.length()).strip();
        String ncclVersion = "";
        if (version > 0) {
            int end = version + VERSION.length();
            while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
                end++;
            }
            ncclVersion = text.substring(version + VERSION.length(), end);
        }
        String last = lastError(text, from);
        kept.add(new NcclLog.TorchError(where, code(result), result, ncclVersion, last, keptLine, "PyTorch", ""));
        if (last.isEmpty()) {
            looking = LOOK;
            waiting = kept.size() - 1;
        }
    }

    /**
     * A line whose first "NCCL " at {@code first} starts XLA's "NCCL operation CALL failed: RESULT": read, with {@code kept}
     * the line as written. Its source location is the word before (": " ends it), the result ends at ". Last NCCL", at
     * "; " (the status's tracing scope) or at the line's end, the last warning is quoted up to its last "'.". XLA prints
     * no NCCL version and nothing on the lines after.
     */
    void readXla(String text, int first, String keptLine) {
        count++;
        looking = 0;
        textNext = false;
        waiting = -1;
        int failed = text.indexOf(XLA_FAILED, first);
        if (kept.size() >= NcclLog.KEEP || failed < 0) {
            return;
        }
        int whereEnd = first >= 2 && text.startsWith(": ", first - 2) ? first - 2 : first;
        int whereStart = text.lastIndexOf(' ', whereEnd - 1) + 1;
        String where = text.substring(Math.min(whereStart, whereEnd), whereEnd);
        String call = text.substring(first + XLA_WORDS.length(), failed).strip();
        int from = failed + XLA_FAILED.length();
        int lastAt = text.indexOf(XLA_LAST, from);
        int scope = text.indexOf("; ", from);
        int end = lastAt >= 0 ? lastAt : scope >= 0 ? scope : text.length();
        String result = text.substring(from, end).strip();
        if (result.endsWith(".")) {
            result = result.substring(0, result.length() - 1);
        }
        String last = "";
        if (lastAt >= 0) {
            int start = lastAt + XLA_LAST.length();
            int close = text.lastIndexOf("'.");
            last = (close >= start ? text.substring(start, close) : text.substring(start)).strip();
        }
        kept.add(new NcclLog.TorchError(where, code(result), result, "", last, keptLine, "XLA", call));
    }

    /** Whether the next line is wanted: an error was read without its last error, and its block may still hold it. */
    boolean following() {
        return looking > 0 || textNext;
    }

    /** A line after the error (each in order, while {@link #following}): "Last error:", then the last error itself. */
    void follow(String line) {
        String t = unlabelled(line.strip());
        if (textNext) {
            textNext = false;
            complete(t);
            return;
        }
        looking--;
        if (t.startsWith(LAST)) {
            looking = 0;
            String rest = unlabelled(t.substring(LAST.length()).strip());
            if (rest.isEmpty()) {
                textNext = true;
            } else {
                complete(rest);
            }
        }
    }

    private void complete(String lastError) {
        if (waiting >= 0 && !lastError.isEmpty()) {
            NcclLog.TorchError e = kept.get(waiting);
            kept.set(waiting, new NcclLog.TorchError(e.where(), e.code(), e.result(), e.version(), lastError, e.line(), e.framework(),
                    e.call()));
        }
        waiting = -1;
    }

    /** The ncclResult_t whose ncclGetErrorString the text starts with, 0 when none does. */
    static int code(String result) {
        for (int k = 0; k < RESULTS.size(); k++) {
            if (result.startsWith(RESULTS.get(k))) {
                return k + 1;
            }
        }
        return 0;
    }

    /**
     * The last error on the same line (a flattened block): after "Last error:", without a launcher's rank label ("10: ",
     * srun --label); "" when the line does not hold it.
     */
    private static String lastError(String text, int from) {
        int at = text.indexOf(LAST, from);
        if (at < 0) {
            return "";
        }
        return unlabelled(text.substring(at + LAST.length()).strip());
    }

    /** A text without a launcher's rank label in front ("10: ", srun --label). */
    private static String unlabelled(String text) {
        int digits = 0;
        while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
            digits++;
        }
        return digits > 0 && text.startsWith(": ", digits) ? text.substring(digits + 2).strip() : text;
    }

    /**
     * Adds a later range's errors. When this range ended while an error's block was still being read, the later range's
     * first lines ({@code head}, in order) complete it, up to the first that is itself an error (which that range read).
     */
    void absorb(TorchNcclErrors o, List<String> head) {
        for (int i = 0; i < head.size() && following() && !head.get(i).contains(WORDS); i++) {
            follow(head.get(i));
        }
        count += o.count;
        int offset = kept.size();
        kept.addAll(o.kept.subList(0, Math.min(o.kept.size(), Math.max(0, NcclLog.KEEP - kept.size()))));
        if (o.count > 0) { // the later range read an error of its own: its state is the file's
            looking = o.looking;
            textNext = o.textNext;
            waiting = o.waiting >= 0 && offset + o.waiting < kept.size() ? offset + o.waiting : -1;
        }
    }

    boolean any() {
        return count > 0;
    }

    NcclLog.TorchErrors build() {
        return new NcclLog.TorchErrors(List.copyOf(kept), count);
    }
}
