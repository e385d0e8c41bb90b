package io.nccldoctor.reports;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.compare.CompareThresholds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * configs/rules.yaml: per-site severity overrides, rules switched off, and thresholds. Every key is checked
 * against the registry, so a typo is an error naming the file rather than a silently ignored line.
 */
public record RulesConfig(Map<String, Severity> severity, List<String> disabled, Thresholds thresholds) {

    /**
     * @param ncclMinimumVersion the oldest NCCL this site accepts, e.g. "2.27.5"; unset: no minimum
     * @param roceMinMtu         the smallest netdev MTU for a RoCE port (default {@link Defaults#ROCE_MIN_MTU})
     * @param results            the pattern detectors over measured results
     * @param compare            when an A/B comparison calls a change real
     * @param counters           the counter rules' thresholds (unset keys: {@link CounterThresholds#DEFAULTS})
     */
    public record Thresholds(String ncclMinimumVersion, Integer roceMinMtu, ResultThresholds results, CompareThresholds compare,
                             CounterThresholds counters) {
        public Thresholds(String ncclMinimumVersion) {
            this(ncclMinimumVersion, null, null, null, null);
        }

        public Thresholds(String ncclMinimumVersion, Integer roceMinMtu) {
            this(ncclMinimumVersion, roceMinMtu, null, null, null);
        }

        public Thresholds(String ncclMinimumVersion, Integer roceMinMtu, ResultThresholds results) {
            this(ncclMinimumVersion, roceMinMtu, results, null, null);
        }

        public Thresholds {
            results = results == null ? ResultThresholds.DEFAULTS : results.withDefaults();
            compare = compare == null ? CompareThresholds.DEFAULTS : compare.withDefaults();
            counters = counters == null ? CounterThresholds.DEFAULTS : counters.withDefaults();
        }

        public Optional<String> ncclMinimum() {
            return Optional.ofNullable(ncclMinimumVersion);
        }

        public int roceMtu() {
            return roceMinMtu == null ? Defaults.ROCE_MIN_MTU : roceMinMtu;
        }
    }

    public RulesConfig {
        severity = severity == null ? Map.of() : Map.copyOf(new TreeMap<>(severity));
        disabled = disabled == null ? List.of() : List.copyOf(disabled);
        thresholds = thresholds == null ? new Thresholds(Defaults.NCCL_MINIMUM_VERSION) : thresholds;
    }

    public static RulesConfig defaults() {
        return new RulesConfig(Map.of(), List.of(), null);
    }

    /** Reads and validates {@code file} against the codes in {@code known}. */
    public static RulesConfig load(Path file, Set<String> known) {
        RulesConfig config;
        try {
            config = Json.yaml().readValue(file.toFile(), RulesConfig.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr();
            throw new InputException(file + where + ": " + e.getOriginalMessage()
                    + " (expected keys: severity, disabled, thresholds; see configs/rules.yaml)", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (config == null) {
            return defaults();
        }
        for (String code : config.severity().keySet()) {
            requireKnown(file, "severity", code, known);
        }
        for (String code : config.disabled()) {
            requireKnown(file, "disabled", code, known);
        }
        return config;
    }

    private static void requireKnown(Path file, String section, String code, Set<String> known) {
        if (!known.contains(code)) {
            throw new InputException(file + ": " + section + " names " + code
                    + ", which is no finding code; 'nccl-doctor explain --list' lists them");
        }
    }
}
