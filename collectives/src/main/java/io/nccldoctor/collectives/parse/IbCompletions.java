package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.Fact;
import java.util.Optional;

/**
 * NCCL's warning for a failed IB work completion, in every wording it has used (src/transport/net_ib.cc, and since 2.29
 * src/transport/net_ib/p2p.cc and gin.cc; the numbers are rdma-core's ibv_wc fields):
 * <ul>
 * <li>2.3 to 2.9: "NET/IB : Got completion with error %d, opcode %d, len %d, vendor err %d" (no peer);
 * <li>2.10 to 2.19: "NET/IB : Got completion from peer %s with error %d, opcode %d, len %d, vendor err %d", since 2.18
 * followed by " (%s)" (Send/Recv) and " localGid %s remoteGid %s" on RoCE;
 * <li>2.20 to 2.28.3: "… from peer %s with status=%d opcode=%d len=%d vendor err %d (%s)…", since 2.22 "NET/IB:" and a
 * trailing " hca %s"; "NET/IB/GIN:" prints the same since 2.28.7;
 * <li>2.28.7 to 2.28.9: "… with status=%s(%d) opcode=%s(%d) reqSize=%d vendor_err=%u req_type=%s…", the status by
 * name then number ("status=IBV_WC_LOC_PROT_ERR(4)");
 * <li>2.29 on: "… with status=%s(%d) opcode=%s(%d) vendor_err=%u …hca %s".
 * </ul>
 * External plugins copy one of these (NVIDIA/nccl#1405's ib_plugin.c prints the 2.20 wording). The status is read
 * after "with error " or "status=" (its number, or the number in parentheses after its name); the vendor error after
 * "vendor err " or "vendor_err=".
 */
final class IbCompletions {

    private IbCompletions() {
    }

    /** The error a WARN line states, the line kept as given; empty when it is no completion error or its status is damaged. */
    static Optional<NcclLog.IbError> read(String line, String kept) {
        int got = line.indexOf("Got completion ");
        if (got < 0) {
            return Optional.empty();
        }
        int status = statusAt(line, got);
        if (status < 0) {
            return Optional.empty();
        }
        int statusEnd = digitsEnd(line, status);
        if (statusEnd == status || statusEnd - status > 9) { // ibv_wc_status is an enum: more digits is a damaged line
            return Optional.empty();
        }
        Fact<Integer> vendor = vendorErr(line, statusEnd);
        return Optional.of(new NcclLog.IbError(Integer.parseInt(line.substring(status, statusEnd)), vendor, kept));
    }

    /** Where the status's digits start: after "with error ", after "status=", or inside "status=NAME(…)"; -1 if none. */
    private static int statusAt(String line, int from) {
        int error = line.indexOf("with error ", from);
        int equals = line.indexOf("status=", from);
        if (error >= 0 && (equals < 0 || error < equals)) {
            return error + "with error ".length();
        }
        if (equals < 0) {
            return -1;
        }
        int p = equals + "status=".length();
        if (p < line.length() && MessageKinds.digit(line.charAt(p))) {
            return p;
        }
        int open = p;
        while (open < line.length() && (SystemDumps.wordChar(line.charAt(open)))) {
            open++;
        }
        return open > p && open < line.length() && line.charAt(open) == '(' ? open + 1 : -1;
    }

    private static Fact<Integer> vendorErr(String line, int from) {
        int at = line.indexOf("vendor err ", from);
        int p = at >= 0 ? at + "vendor err ".length() : -1;
        if (at < 0 && (at = line.indexOf("vendor_err=", from)) >= 0) {
            p = at + "vendor_err=".length();
        }
        if (p < 0) {
            return Fact.absent("no vendor err on this line (wrapped?)");
        }
        int end = digitsEnd(line, p);
        if (end == p) {
            return Fact.absent("no number after vendor err (wrapped?)");
        }
        long v = end - p <= 10 ? Long.parseLong(line.substring(p, end)) : Long.MAX_VALUE;
        return v <= Integer.MAX_VALUE ? Fact.of((int) v)
                : Fact.absent("vendor err " + line.substring(p, end) + " is above an int (a damaged line?)");
    }

    private static int digitsEnd(String line, int from) {
        int k = from;
        while (k < line.length() && MessageKinds.digit(line.charAt(k))) {
            k++;
        }
        return k;
    }
}
