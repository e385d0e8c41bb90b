package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * One perftest output given to `report`, as the node snapshot holds it: what ran, on which side, the errors perftest
 * printed and whether a result came of it. The PERFTEST_FAILED rule reads it.
 *
 * @param source  the file the output came from
 * @param errors  perftest's error lines with what they mean (PerftestOutput.errors)
 * @param outcome "N result rows", or "no result: " and why (PerftestOutput.outcome)
 */
public record PerftestRun(String source, Fact<String> test, Fact<String> role, List<String> errors, String outcome) {

    /** The snapshot section's key. */
    public static final String KEY = "perftestRun";

    public PerftestRun {
        errors = List.copyOf(errors);
    }

    public static PerftestRun of(PerftestOutput p, String source) {
        return new PerftestRun(source, p.test(), p.role(), p.errors(), p.outcome());
    }
}
