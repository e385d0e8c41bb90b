package io.nccldoctor.gdr;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * perftest's report of a failed work completion (linux-rdma/perftest src/perftest_resources.h NOTIFY_COMP_ERROR_SEND
 * and _RECV at 00b55b6): " Completion with error at client" (or server), then " Failed status-%s (%d): wr_id %d syndrom
 * 0x%x" with ibv_wc_status_str (since commit c7f9e40, 2025-08-31), before it " Failed status %d: qp_num %d wr_id %d
 * syndrom 0x%x" or, older still, " Failed status %d: wr_id %d syndrom 0x%x", then "scnt=%lu, ccnt=%lu" (client:
 * posted, completed) or "rcnt=%lu" (server: received). The status number is libibverbs' enum ibv_wc_status
 * (linux-rdma/rdma-core libibverbs/verbs.h at 691953d8d), decoded here with the string ibv_wc_status_str prints for it
 * (libibverbs/enum_strs.c); the syndrome is the NIC vendor's own code (wc.vendor_err) and is quoted, not decoded.
 */
final class PerftestCompletion {

    private static final Pattern AT = Pattern.compile("^Completion with (error|wc_flags mismatch) at (client|server)$");
    private static final Pattern STATUS = Pattern.compile(
            "^Failed status(?:-(.+?) \\((\\d+)\\)| (\\d+)):(?: qp_num (\\d+))? wr_id (\\d+) syndrom 0x([0-9a-fA-F]+)\\s*$");
    private static final Pattern COUNTS = Pattern.compile("^(?:scnt=(\\d+), ccnt=(\\d+)|rcnt=(\\d+))\\s*$");
    private static final Pattern FLAGS = Pattern.compile("^Failed wr_id \\d+ flag: 0x[0-9a-fA-F]+ \\(should contain 0x[0-9a-fA-F]+\\)$");

    /** enum ibv_wc_status in order (verbs.h), each with ibv_wc_status_str's words (enum_strs.c). */
    private static final List<String[]> STATUSES = List.of(
            new String[] {"IBV_WC_SUCCESS", "success"},
            new String[] {"IBV_WC_LOC_LEN_ERR", "local length error"},
            new String[] {"IBV_WC_LOC_QP_OP_ERR", "local QP operation error"},
            new String[] {"IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error"},
            new String[] {"IBV_WC_LOC_PROT_ERR", "local protection error"},
            new String[] {"IBV_WC_WR_FLUSH_ERR", "Work Request Flushed Error"},
            new String[] {"IBV_WC_MW_BIND_ERR", "memory management operation error"},
            new String[] {"IBV_WC_BAD_RESP_ERR", "bad response error"},
            new String[] {"IBV_WC_LOC_ACCESS_ERR", "local access error"},
            new String[] {"IBV_WC_REM_INV_REQ_ERR", "remote invalid request error"},
            new String[] {"IBV_WC_REM_ACCESS_ERR", "remote access error"},
            new String[] {"IBV_WC_REM_OP_ERR", "remote operation error"},
            new String[] {"IBV_WC_RETRY_EXC_ERR", "transport retry counter exceeded"},
            new String[] {"IBV_WC_RNR_RETRY_EXC_ERR", "RNR retry counter exceeded"},
            new String[] {"IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation error"},
            new String[] {"IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request"},
            new String[] {"IBV_WC_REM_ABORT_ERR", "aborted error"},
            new String[] {"IBV_WC_INV_EECN_ERR", "invalid EE context number"},
            new String[] {"IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state"},
            new String[] {"IBV_WC_FATAL_ERR", "fatal error"},
            new String[] {"IBV_WC_RESP_TIMEOUT_ERR", "response timeout error"},
            new String[] {"IBV_WC_GENERAL_ERR", "general error"},
            new String[] {"IBV_WC_TM_ERR", "TM error"},
            new String[] {"IBV_WC_TM_RNDV_INCOMPLETE", "TM software rendezvous"});

    /** Index in the errors of the report this reader is completing, or -1 after a line that is none of its. */
    private int open = -1;

    /** Takes one stripped line of a completion report into {@code errors}; false when the line is none of it. */
    boolean line(String s, List<String> errors) {
        Matcher m;
        if ((m = AT.matcher(s)).matches()) {
            errors.add("a work completion " + (m.group(1).equals("error") ? "failed" : "had unexpected flags") + " at the " + m.group(2)
                    + " ('" + s + "')");
            open = errors.size() - 1;
            return true;
        }
        if ((m = STATUS.matcher(s)).matches()) {
            String decoded = status(Integer.parseInt(m.group(2) != null ? m.group(2) : m.group(3)));
            String what = decoded + (m.group(4) == null ? "" : ", QP number " + m.group(4)) + ", wr_id " + m.group(5)
                    + ", vendor syndrome 0x" + m.group(6) + " (the NIC vendor's code, not decoded)";
            extend(errors, "status " + what, "a work completion failed: status " + what);
            return true;
        }
        if ((m = COUNTS.matcher(s)).matches() && open >= 0) {
            extend(errors, m.group(3) != null ? m.group(3) + " received (rcnt)" : m.group(1) + " posted (scnt), " + m.group(2)
                    + " completed (ccnt)", null);
            return true;
        }
        if (FLAGS.matcher(s).matches() && open >= 0) {
            extend(errors, s, null);
            return true;
        }
        open = -1;
        return false;
    }

    /** Adds to the report being read, or starts one when the lines before it were not pasted (null: nothing to start). */
    private void extend(List<String> errors, String more, String alone) {
        if (open >= 0 && open < errors.size()) {
            errors.set(open, errors.get(open) + "; " + more);
        } else if (alone != null) {
            errors.add(alone);
            open = errors.size() - 1;
        }
    }

    /** "4 = IBV_WC_LOC_PROT_ERR, 'local protection error'". */
    static String status(int n) {
        if (n < 0 || n >= STATUSES.size()) {
            return n + ", a number libibverbs' enum ibv_wc_status does not have (ibv_wc_status_str prints 'unknown')";
        }
        return n + " = " + STATUSES.get(n)[0] + ", '" + STATUSES.get(n)[1] + "'";
    }
}
