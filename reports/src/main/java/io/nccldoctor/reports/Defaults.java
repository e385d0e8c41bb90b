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

    /**
     * A RoCE netdev needs an MTU that fits a 4096-byte RDMA path MTU plus RoCE v2 headers (the usual 4200, or 9000).
     * At 1500 the RDMA path MTU drops to 1024, which capped a 100G link at 83 Gbit/s in the field report.
     */
    public static final int ROCE_MIN_MTU = 4200;

    private Defaults() {
    }
}
