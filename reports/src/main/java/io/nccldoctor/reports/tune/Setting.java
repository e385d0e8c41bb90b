package io.nccldoctor.reports.tune;

import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.compare.Comparison;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One environment of the measurements, read for what a tuner row can say: NCCL_ALGO and NCCL_PROTO pinned to one
 * algorithm or protocol, NCCL_MAX_NCHANNELS (with NCCL_MIN_NCHANNELS unset or equal) as the channel count. Any other
 * variable makes it something a tuner row cannot express.
 *
 * @param label         "default" (NCCL's own choices), or "NCCL_PROTO=LL128" as compare labels environments
 * @param algorithm     the CSV name NCCL_ALGO pins, or why it pins none
 * @param protocol      likewise for NCCL_PROTO
 * @param channels      the channel count, -1 when NCCL chooses
 * @param inexpressible why a tuner row cannot say what this environment does; empty when it can
 */
record Setting(String label, Map<String, String> env, Fact<String> algorithm, Fact<String> protocol, int channels,
               Optional<String> inexpressible) {

    static final String DEFAULT = Comparison.DEFAULT_ENV;

    private static final Set<String> TUNABLE = Set.of("NCCL_ALGO", "NCCL_PROTO", "NCCL_MAX_NCHANNELS", "NCCL_MIN_NCHANNELS");

    static Setting of(Map<String, String> env) {
        Map<String, String> e = new TreeMap<>(env);
        String label = Comparison.envLabel(e);
        List<String> other = e.keySet().stream().filter(k -> !TUNABLE.contains(k)).toList();
        Optional<String> why = other.isEmpty() ? Optional.empty()
                : Optional.of("sets " + String.join(", ", other) + ", which a tuner row cannot express");
        String max = e.get("NCCL_MAX_NCHANNELS");
        String min = e.get("NCCL_MIN_NCHANNELS");
        int channels = -1;
        if (why.isEmpty() && (max != null || min != null)) {
            if (max == null || !max.matches("[1-9]\\d{0,3}") || (min != null && !min.equals(max))) {
                why = Optional.of("NCCL_MIN_NCHANNELS=" + min + " NCCL_MAX_NCHANNELS=" + max + ": a tuner row gives one channel count, "
                        + "so only NCCL_MAX_NCHANNELS=N (NCCL_MIN_NCHANNELS unset or the same) can be written");
            } else {
                channels = Integer.parseInt(max);
            }
        }
        return new Setting(label, e, pin(e.get("NCCL_ALGO"), TunerNames.ALGORITHMS, "NCCL_ALGO"),
                pin(e.get("NCCL_PROTO"), TunerNames.PROTOCOLS, "NCCL_PROTO"), channels, why);
    }

    /** The one algorithm or protocol a value pins: a single token, not a list, an inversion or a per-function form. */
    private static Fact<String> pin(String value, List<TunerNames.Name> table, String name) {
        if (value == null) {
            return Fact.absent(name + " unset: NCCL chooses");
        }
        if (value.contains(",") || value.contains("^") || value.contains(";") || value.contains(":")) {
            return Fact.absent(name + "=" + value + " leaves NCCL a choice");
        }
        return TunerNames.fromToken(table, value).map(Fact::of).orElseGet(() -> Fact.absent(name + "=" + value + " is not a token NCCL knows"));
    }

    boolean isDefault() {
        return env.isEmpty();
    }

    /**
     * What runs under this setting at one size: NCCL's own word from the TUNING lines when the runs logged one (and all
     * the same), else the pins when both are set; the channel count from the setting.
     */
    Fact<Choice> choice(Fact<Choice> logged) {
        if (logged.isValue()) {
            return Fact.of(new Choice(logged.get().algorithm(), logged.get().protocol(), channels));
        }
        if (algorithm.isValue() && protocol.isValue()) {
            return Fact.of(new Choice(algorithm.get(), protocol.get(), channels));
        }
        return Fact.absent(logged.reason() + "; " + (algorithm.isValue() ? protocol.reason() : algorithm.reason()));
    }
}
