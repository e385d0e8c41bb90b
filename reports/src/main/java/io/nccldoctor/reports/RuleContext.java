package io.nccldoctor.reports;

/** What a rule may consult besides the snapshot: the site configuration and the expected node shape. */
public record RuleContext(RulesConfig config, NodeShape expected) {

    public static RuleContext defaults() {
        return new RuleContext(RulesConfig.defaults(), NodeShape.none());
    }
}
