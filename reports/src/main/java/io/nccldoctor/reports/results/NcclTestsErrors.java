package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of nccl-tests that printed an error: a CUDA or NCCL call failed and nccl-tests stopped there (CUDACHECK and
 * NCCLCHECK in src/common.h print "HOST: Test CUDA failure FILE:LINE 'REASON'", then each TESTCHECK frame on the way out
 * " .. HOST pid PID: Test failure FILE:LINE"), or NCCL's last error ("# error:"). Its rows, if any, are what it
 * measured before; without this rule a run that stopped after its header passed with "no rows".
 */
public final class NcclTestsErrors implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("TESTS_ERROR", Severity.ERROR,
            "nccl-tests printed an error: the run stopped, or NCCL reported a failure",
            "nccl-tests checks every CUDA and NCCL call it makes; when one fails it prints the call's error with the host, "
                    + "file and line ('Test CUDA failure common.cu:502 'an illegal memory access was encountered''), then "
                    + "one 'Test failure' line per function it unwinds through, and exits without the rest of the sweep or "
                    + "its footer. The sizes printed before the error, if any, are all the run measured; an illegal memory "
                    + "access or an 'unhandled system error' inside NCCL usually points at the library build, the driver, "
                    + "or a network or peer-to-peer path that failed, not at nccl-tests.",
            "the error lines in the given nccl-tests output, as nccl-tests printed them",
            "Rerun the same command with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET) and read the NCCL WARN lines before the "
                    + "failure (`nccl-doctor parse nccl-log` on them); check that nccl-tests was built against the NCCL it loads "
                    + "(the header's nccl-headers and nccl-library), and try the NCCL release the failing one is not.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            if (s.errors().isEmpty()) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            s.errors().forEach(e -> evidence.add("error: " + e));
            evidence.add("rows measured before it: " + s.rows().size() + " (" + s.source() + ")");
            found.add(finding(s.label(), SweepMath.describe(s) + " printed an error: " + s.errors().get(0), evidence));
        }
        return Outcome.flag(found);
    }
}
