package io.nccldoctor.collectives.parse;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Readers for the initialisation messages read once per distinct text (the block scanner remembers what a message
 * said, {@link BlockScanner#memo}) or once per communicator and rank: regular expressions are cheap enough there. Each
 * reads the message text, from its first word (after "NCCL INFO ", or where a pasted line without the prefix starts).
 */
final class InitMessages {

    private InitMessages() {
    }

    /**
     * "NCCL_NET_GDR_LEVEL set by environment to PHB" (ncclGetLevel: the level's name), "NCCL_IB_DISABLE set by environment
     * to 0." (ncclLoadParam: a number and a full stop), "NCCL_SOCKET_IFNAME set by environment to en" (a string as given),
     * and the IB transport's own echo of its device filter, "NCCL_IB_HCA set to mlx5" (src/transport/net_ib.cc,
     * ncclIbInit: INFO(NCCL_NET|NCCL_ENV, "NCCL_IB_HCA set to %s"), 2.4 to 2.30).
     */
    private static final Pattern ENV = Pattern.compile("^(NCCL_\\w+) set (?:by environment )?to (.*?)\\s*$");
    private static final Pattern PARAM = Pattern.compile("-?\\d+\\.");

    static Optional<Map.Entry<String, String>> environment(String message) {
        Matcher m = ENV.matcher(stripRay(message));
        if (!m.find()) {
            return Optional.empty();
        }
        String value = m.group(2);
        if (m.group(1).endsWith("_LEVEL") && value.contains(" ")) {
            value = value.substring(0, value.indexOf(' ')); // ncclGetLevel prints one path type name; the rest is a paste's
        }
        if (PARAM.matcher(value).matches()) {
            value = value.substring(0, value.length() - 1); // ncclLoadParam's "%lld."
        }
        return Optional.of(Map.entry(m.group(1), value));
    }

    /** "cudaDriverVersion 12080": the CUDA driver API version the process found (12080 is CUDA 12.8). */
    private static final Pattern DRIVER = Pattern.compile("^cudaDriverVersion (\\d+)");

    static Optional<String> driver(String message) {
        Matcher m = DRIVER.matcher(message);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static final String GIT_VERSION = "NCCL git version ";

    /**
     * "NCCL git version master 3619159": the branch and commit hash the library was built from, as ncclGetGitVersion
     * gives them ("NCCL git version " NCCL_GIT_BRANCH " " NCCL_GIT_COMMIT_HASH, src/misc/git_version.cc in 2.28 and
     * later); empty when nothing follows the words.
     */
    static Optional<String> gitVersion(String message) {
        if (!message.startsWith(GIT_VERSION)) {
            return Optional.empty();
        }
        String build = message.substring(GIT_VERSION.length()).strip();
        return build.isEmpty() ? Optional.empty() : Optional.of(build);
    }

    /**
     * "comm 0x55cc rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0" (2.20 and later): the node count, {@code
     * nRanks \d{1,9} nNodes (\d{1,9})(?!\d)} written out (a line per communicator and rank).
     */
    static Optional<Integer> nodes(String message) {
        return nodes(message, 0);
    }

    /** The same, in the text of {@code message} from {@code from}. */
    static Optional<Integer> nodes(String message, int from) {
        for (int at = message.indexOf("nRanks ", from); at >= 0; at = message.indexOf("nRanks ", at + 1)) {
            int ranks = at + "nRanks ".length();
            int ranksEnd = digitsEnd(message, ranks);
            if (ranksEnd == ranks || ranksEnd - ranks > 9 || !message.startsWith(" nNodes ", ranksEnd)) {
                continue;
            }
            int nodes = ranksEnd + " nNodes ".length();
            int nodesEnd = digitsEnd(message, nodes);
            if (nodesEnd > nodes && nodesEnd - nodes <= 9) {
                return Optional.of(Integer.parseInt(message.substring(nodes, nodesEnd)));
            }
        }
        return Optional.empty();
    }

    private static int digitsEnd(String s, int from) {
        int k = from;
        while (k < s.length() && MessageKinds.digit(s.charAt(k))) {
            k++;
        }
        return k;
    }

    /**
     * "ncclCommInitRankConfig comm 0x55cc rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x65e0 - Init START",
     * and the older "comm 0x… rank 0 nranks 16 cudaDev 0 busId 1c000 - Init COMPLETE": the communicator's size, the
     * GPU's PCI bus id as NCCL prints it (hex, the domain left off when 0) and whether it started or completed; read
     * from " nranks N", " busId HEX" and the last " - Init START|COMPLETE" (a line per communicator and rank).
     */
    record Init(int nranks, String busId, boolean complete) {
    }

    static Optional<Init> init(String message) {
        return init(message, 0);
    }

    /** The same, in the text of {@code message} from {@code from}. */
    static Optional<Init> init(String message, int from) {
        int start = message.lastIndexOf(" - Init START");
        int complete = message.lastIndexOf(" - Init COMPLETE");
        int end = Math.max(start, complete);
        int ranks = message.indexOf(" nranks ", from);
        int bus = message.indexOf(" busId ", from);
        if (end < from || ranks < 0 || bus < ranks || bus > end) {
            return Optional.empty();
        }
        int n = ranks + " nranks ".length();
        int nEnd = digitsEnd(message, n);
        int id = bus + " busId ".length();
        int idEnd = id;
        while (idEnd < message.length() && Character.digit(message.charAt(idEnd), 16) >= 0) {
            idEnd++;
        }
        if (nEnd == n || nEnd - n > 9 || idEnd == id) {
            return Optional.empty();
        }
        return Optional.of(new Init(Integer.parseInt(message.substring(n, nEnd)), message.substring(id, idEnd), complete > start));
    }

    /** "dlvsym failed on ibv_reg_dmabuf_mr - … version IBVERBS_1.12" (misc/ibvsymbols.cc, mlx5dvsymbols.cc): a verbs symbol missing. */
    static boolean symbolFailure(String line) {
        return line.contains("dlvsym failed on ");
    }

    /** Ray's deduplication suffix, "… [repeated 14x across cluster]". */
    private static final Pattern RAY_REPEATED = Pattern.compile("\\s*\\[repeated \\d+x across cluster\\]\\s*$");

    static String stripRay(String s) {
        return s.contains("[repeated ") ? RAY_REPEATED.matcher(s).replaceFirst("") : s;
    }
}
