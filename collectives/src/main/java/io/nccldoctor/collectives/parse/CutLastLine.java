package io.nccldoctor.collectives.parse;

import java.util.Map;

/**
 * A paste's last line cut mid-word ("… via SHM/direct/d", "NET/Plugin : No plugin found (libncc"): what it gave is
 * taken back when it is the start of what another line of the same kind said, and the log says so. Only the log's last
 * non-blank line is looked at, once per log.
 */
final class CutLastLine {

    private CutLastLine() {
    }

    /**
     * Takes back what the log's last line {@code last} gave when it is cut: a channel's transport that is the start of
     * another transport counted, or a network line that is the start of another kept.
     *
     * @return what was taken back and why, or "" when the line is not seen to be cut
     */
    static String takeBack(String last, Map<String, Long> transports, NetworkLog network) {
        if (last == null) {
            return "";
        }
        int via = last.lastIndexOf(" via ");
        if (via > 0) {
            int from = via + 5;
            int to = from;
            while (to < last.length() && !Character.isWhitespace(last.charAt(to))) {
                to++;
            }
            String transport = last.substring(from, to);
            Long n = transports.get(transport);
            if (n != null && to == last.stripTrailing().length()) { // the transport ends the line: it may be cut
                for (String other : transports.keySet()) {
                    if (other.length() > transport.length() && other.startsWith(transport)) {
                        if (n == 1) {
                            transports.remove(transport);
                        } else {
                            transports.put(transport, n - 1);
                        }
                        return said(last, "'via " + transport + "' is the start of '" + other + "': not counted as a channel");
                    }
                }
            }
            return "";
        }
        int info = last.indexOf("NCCL INFO ");
        if (info >= 0) {
            String other = network.dropCut(last.substring(info + "NCCL INFO ".length()).strip());
            if (other != null) {
                return said(last, "it is the start of '" + other + "': not kept as a network line");
            }
        }
        return "";
    }

    private static String said(String last, String why) {
        return "the last line is cut: '" + last.strip() + "' (" + why + ")";
    }
}
