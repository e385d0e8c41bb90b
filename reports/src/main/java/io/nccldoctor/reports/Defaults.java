package io.nccldoctor.reports;

/**
 * The documented defaults at the end of the configuration chain: flag → configs/rules.yaml → here.
 */
public final class Defaults {

    /**
     * No site minimum for the NCCL version unless configs/rules.yaml sets {@code thresholds.ncclMinimumVersion}:
     * which version is acceptable is a site policy (known bad versions are a separate table).
     */
    public static final String NCCL_MINIMUM_VERSION = null;

    private Defaults() {
    }
}
