package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.util.List;
import java.util.Map;

/**
 * How to judge a cluster: the outlier factor, and the site's severity overrides and disabled codes (configs/rules.yaml;
 * e.g. {@code CLUSTER_DRIFT: error} makes any drift fail the run).
 *
 * @param outlierK k in median − k × MAD
 */
public record ClusterOptions(double outlierK, Map<String, Severity> severity, List<String> disabled) {

    public ClusterOptions {
        if (!Double.isFinite(outlierK) || outlierK <= 0) {
            throw new InputException("--outlier-k " + outlierK + ": give a positive number of MADs, e.g. " + ClusterDefaults.OUTLIER_K);
        }
        severity = Map.copyOf(severity);
        disabled = List.copyOf(disabled);
    }

    public static ClusterOptions defaults() {
        return new ClusterOptions(ClusterDefaults.OUTLIER_K, Map.of(), List.of());
    }

    /** The flag's k (default when null) with the site's rule configuration. */
    public static ClusterOptions of(Double outlierK, RulesConfig config) {
        return new ClusterOptions(outlierK == null ? ClusterDefaults.OUTLIER_K : outlierK, config.severity(), config.disabled());
    }
}
