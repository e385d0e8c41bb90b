package io.nccldoctor.collectives.parse;

import java.util.List;

/**
 * How a WARN line of NCCL's is judged: most say something went wrong and are kept as warnings; a few NCCL itself calls
 * harmless (it prints them as INFO in later releases); a few another rule reads in full (IB completion errors, a missing
 * libibverbs), so they are not said twice.
 */
final class WarnLines {

    private WarnLines() {
    }

    /** A WARN NCCL later printed as INFO because it is harmless: its words, and why. */
    private record Harmless(String words, String why) {
    }

    private static final List<Harmless> HARMLESS = List.of(
            // transport/p2p.cc: WARN in 2.24 and 2.25, INFO(NCCL_REG) from 2.26; NVIDIA/nccl#1684, NCCL's maintainer:
            // "That WARN message is generally harmless (for that reason in NCCL 2.26 we downgraded it to the INFO level)"
            new Harmless("failed to IPC register userbuff", "a user buffer NCCL could not register for IPC; NCCL goes on without "
                    + "the registration, and prints this as INFO from 2.26 (NVIDIA/nccl#1684: 'generally harmless')"));

    /** Why NCCL calls this WARN message harmless; null when it does not. */
    static String harmless(String message) {
        for (Harmless h : HARMLESS) {
            if (message.contains(h.words())) {
                return h.why();
            }
        }
        return null;
    }

    /**
     * A WARN another rule judges: an IB completion error (NCCL_IB_COMPLETION_ERROR, from "Got completion from peer … with
     * status=N" or the older "Got completion with error N"), or "Failed to open libibverbs.so[.1]" (a WARN up to 2.10.3,
     * INFO from 2.11.4, misc/ibvwrap.cc: no verbs library, which the network rules read with what NCCL chose instead), or an
     * InfiniBand async event ({@link IbAsyncEvents}: NCCL_IB_ASYNC_FATAL, NCCL_IB_ASYNC_EVENT).
     */
    static boolean judgedElsewhere(String message) {
        return message.contains("Got completion ") || message.contains("Failed to open libibverbs") || IbAsyncEvents.is(message);
    }

    /**
     * Where the prefix of a WARN line ends ("NCCL WARN" at {@code nccl}): before the source location NCCL prints
     * ("node01:4242:4300 [0] misc/socket.cc:397 NCCL WARN …", src/debug.cc), also in 2.30.7's form with the function
     * ("… [0] misc/socket.cc:397 (ncclSocketConnect) NCCL WARN …").
     */
    static int prefixEnd(String line, int nccl) {
        if (nccl >= 2 && line.charAt(nccl - 2) == ')') {
            int open = line.lastIndexOf(" (", nccl - 2);
            if (open > 0 && line.indexOf(' ', open + 2) == nccl - 1) {
                int before = LogMessages.beforeSourceLocation(line, open + 1);
                return before == open + 1 ? nccl : before;
            }
        }
        return LogMessages.beforeSourceLocation(line, nccl);
    }
}
