package io.nccldoctor.reports;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * What one rule concluded: passed, flagged findings, or waived because it does not apply here (with why, so
 * the report can say what was not checked).
 */
public record Outcome(List<Finding> findings, String waivedBecause) {

    public static Outcome pass() {
        return new Outcome(List.of(), null);
    }

    public static Outcome waived(String reason) {
        return new Outcome(List.of(), reason);
    }

    public static Outcome flag(Finding... findings) {
        return new Outcome(List.of(findings), null);
    }

    public static Outcome flag(List<Finding> findings) {
        return new Outcome(List.copyOf(findings), null);
    }

    @JsonIgnore
    public boolean isWaived() {
        return waivedBecause != null;
    }
}
