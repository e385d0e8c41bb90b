package io.nccldoctor.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.pcie.NcclPathTypes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** configs/known-issues.yaml: NCCL version ranges with a symptom, a workaround and a source. */
public record KnownIssues(List<Issue> issues) {

    /** @param from the first affected version (inclusive); @param before the first fixed one (exclusive) */
    public record Issue(String id, String from, String before, String symptom, String workaround, String source) {

        public boolean affects(String version) {
            return (from == null || NcclPathTypes.compareVersions(version, from) >= 0)
                    && (before == null || NcclPathTypes.compareVersions(version, before) < 0);
        }

        /** "2.18.0 to before 2.28.0" */
        public String range() {
            return (from == null ? "any version" : from) + (before == null ? " and later" : " to before " + before);
        }
    }

    public KnownIssues {
        issues = issues == null ? List.of() : List.copyOf(issues);
    }

    public List<Issue> affecting(String version) {
        return issues.stream().filter(i -> i.affects(version)).toList();
    }

    /**
     * The table in force: the repository's configs/known-issues.yaml, read at run time (the launcher passes
     * -Dnccldoctor.home), so that a site's edit counts without a rebuild; else the shipped table.
     */
    public static KnownIssues atRunTime() {
        String home = System.getProperty("nccldoctor.home");
        Path file = home == null ? null : Path.of(home, "configs", "known-issues.yaml");
        return file != null && Files.isRegularFile(file) ? load(file) : shipped();
    }

    /** The shipped table (inside the jar), for tests and when configs/ is not there. */
    public static KnownIssues shipped() {
        try (InputStream in = KnownIssues.class.getResourceAsStream("/configs/known-issues.yaml")) {
            if (in != null) {
                return validate(Json.yaml().readValue(in, KnownIssues.class), "known-issues.yaml (shipped)");
            }
        } catch (IOException e) {
            throw new IllegalStateException("the shipped known-issues.yaml does not parse", e);
        }
        Path repo = Path.of("configs/known-issues.yaml");
        return Files.isRegularFile(repo) ? load(repo) : Files.isRegularFile(Path.of("../configs/known-issues.yaml"))
                ? load(Path.of("../configs/known-issues.yaml")) : new KnownIssues(List.of());
    }

    public static KnownIssues load(Path file) {
        try {
            return validate(Json.yaml().readValue(file.toFile(), KnownIssues.class), file.toString());
        } catch (JsonProcessingException e) {
            throw new InputException(file + (e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr()) + ": "
                    + e.getOriginalMessage() + " (entries: id, from, before, symptom, workaround, source)", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static KnownIssues validate(KnownIssues k, String where) {
        Set<String> ids = new HashSet<>();
        for (Issue i : k.issues()) {
            if (i.id() == null || !ids.add(i.id())) {
                throw new InputException(where + ": every issue needs a unique id (" + i.id() + ")");
            }
            for (String v : new String[] {i.from(), i.before()}) {
                if (v != null && !v.matches("\\d+\\.\\d+\\.\\d+")) {
                    throw new InputException(where + ": issue " + i.id() + ": version '" + v + "' is not X.Y.Z");
                }
            }
        }
        return k;
    }
}
