package io.nccldoctor.reports.rulezero;

/** What one suspect size says about "the hardware or our harness", in the order an overall verdict picks them. */
public enum Verdict {
    /** Below cliffFraction of nccl-tests on the same ranks and size: the reference shows the hardware can do more. */
    HARNESS_ARTIFACT,
    /** Not a harness artifact, and the suspect and nccl-tests both below farBelowFraction of the ceiling. */
    FABRIC,
    /**
     * No nccl-tests run: below the low end of the published figure for the hardware given (configs/baselines.yaml). Not
     * yet harness or hardware: run nccl-tests on the same ranks to tell.
     */
    BELOW_BASELINE,
    /** Neither: the suspect keeps up with nccl-tests (how close, and against the ceiling when one is known). */
    CONSISTENT,
    /** No nccl-tests run: within the published range for the hardware given. */
    AT_BASELINE,
    /** No nccl-tests row near enough to compare: another collective or world size, or outside its sizes. */
    NO_REFERENCE
}
