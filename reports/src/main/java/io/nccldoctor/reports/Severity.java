package io.nccldoctor.reports;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How bad a finding is. Only {@link #ERROR} fails a run (exit code 1). */
public enum Severity {
    INFO, WARN, ERROR;

    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Severity parse(String s) {
        for (Severity v : values()) {
            if (v.label().equalsIgnoreCase(s) || (v == WARN && "warning".equalsIgnoreCase(s))) {
                return v;
            }
        }
        throw new IllegalArgumentException("severity is one of info, warn, error; got '" + s + "'");
    }
}
