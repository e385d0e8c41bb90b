package io.nccldoctor.reports;

/**
 * What {@code nccl-doctor explain CODE} prints: the story behind a finding, the evidence it reads and the remedy.
 *
 * @param severity the default severity; configs/rules.yaml may override it per site
 */
public record RuleInfo(String code, Severity severity, String title, String story, String evidence, String remedy) {
}
