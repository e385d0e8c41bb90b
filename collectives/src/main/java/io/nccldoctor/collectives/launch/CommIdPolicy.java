package io.nccldoctor.collectives.launch;

/**
 * Whether every rank may derive the NCCL unique id from NCCL_COMM_ID (reference/nccl-internals.md §7). From
 * 2.16.2 through 2.21.5 (and any 2.22 before 2.22.3) ncclGetUniqueId drew a random magic before reading NCCL_COMM_ID, so each rank's id
 * differed and the bootstrap ignored the others ("wrong magic"): on those versions rank 0 must publish its id
 * through a rendezvous instead. Up to 2.15 the id had no magic, and from 2.22.3 it is the constant NCCL_MAGIC.
 */
public final class CommIdPolicy {

    private CommIdPolicy() {
    }

    /** @param version "2.21.5" style; anything unreadable is treated as unsafe */
    public static boolean commIdSafe(String version) {
        int[] v = parse(version);
        if (v == null) {
            return false;
        }
        int code = v[0] * 10000 + v[1] * 100 + v[2];
        return code < 21602 || code >= 22203; // 2.22.3 is the first release with the constant magic
    }

    /** One line for the report: how the id will be shared, and why. */
    public static String why(String version) {
        return commIdSafe(version)
                ? "NCCL " + version + " derives the same unique id from NCCL_COMM_ID on every rank"
                : "NCCL " + version + " draws a random magic before reading NCCL_COMM_ID (2.16.2 to 2.21.5), so every rank "
                        + "would get a different id; rank 0 publishes its id through the rendezvous instead";
    }

    private static int[] parse(String version) {
        String[] p = version.strip().split("[.+-]");
        if (p.length < 3) {
            return null;
        }
        try {
            return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2])};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
