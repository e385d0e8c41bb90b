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
 * and line, the result by NCCL's own string, the version, and the last error when it stands on the same line. PyTorch's
 * later lines hold no "NCCL " and are not read; the finding says so. The wording after a backtick on its line is Markdown
 * quoting it (a README, a report), not PyTorch's output, as for {@link TorchWatchdog}.
 */
final class TorchNcclErrors {

    static final String WORDS = "NCCL error in: ";
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
     * A line whose first "NCCL " at {@code first} starts "NCCL error in: ": read, with {@code kept} the line as written.
     * Once per such line only.
     */
    void read(String text, int first, String keptLine) {
        count++;
        if (kept.size() >= NcclLog.KEEP) {
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
        kept.add(new NcclLog.TorchError(where, code(result), result, ncclVersion, lastError(text, from), keptLine));
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
        String rest = text.substring(at + LAST.length()).strip();
        int digits = 0;
        while (digits < rest.length() && Character.isDigit(rest.charAt(digits))) {
            digits++;
        }
        if (digits > 0 && rest.startsWith(": ", digits)) {
            rest = rest.substring(digits + 2).strip();
        }
        return rest;
    }

    void absorb(TorchNcclErrors o) {
        count += o.count;
        kept.addAll(o.kept.subList(0, Math.min(o.kept.size(), Math.max(0, NcclLog.KEEP - kept.size()))));
    }

    boolean any() {
        return count > 0;
    }

    NcclLog.TorchErrors build() {
        return new NcclLog.TorchErrors(List.copyOf(kept), count);
    }
}
