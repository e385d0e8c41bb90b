package io.nccldoctor.reports;

import java.util.Optional;

/**
 * What a rule may consult besides the snapshot: the site configuration, the expected node shape, and the NCCL
 * version whose behaviour to predict when the user names one (--nccl-version).
 */
public record RuleContext(RulesConfig config, NodeShape expected, Optional<String> ncclVersion) {

    public RuleContext(RulesConfig config, NodeShape expected) {
        this(config, expected, Optional.empty());
    }

    public static RuleContext defaults() {
        return new RuleContext(RulesConfig.defaults(), NodeShape.none());
    }
}
