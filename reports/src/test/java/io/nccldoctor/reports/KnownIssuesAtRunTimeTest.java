package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** configs/known-issues.yaml is read from the repository at run time (-Dnccldoctor.home), not from the jar's copy. */
class KnownIssuesAtRunTimeTest {

    @TempDir
    Path home;

    @AfterEach
    void clear() {
        System.clearProperty("nccldoctor.home");
    }

    @Test
    void aSitesEditCountsWithoutARebuild() throws Exception {
        Files.createDirectories(home.resolve("configs"));
        Files.writeString(home.resolve("configs/known-issues.yaml"), """
                issues:
                  - id: SITE_ONLY
                    from: 2.21.0
                    before: 2.21.5
                    symptom: hangs at start on our fabric
                    workaround: NCCL_IB_GID_INDEX=3
                    source: our ticket 17
                """);
        System.setProperty("nccldoctor.home", home.toString());
        assertThat(KnownIssues.atRunTime().issues()).extracting(KnownIssues.Issue::id).containsExactly("SITE_ONLY");
        assertThat(KnownIssues.atRunTime().affecting("2.21.3")).hasSize(1);
    }

    @Test
    void withoutTheFolderTheShippedTableIsUsed() {
        System.setProperty("nccldoctor.home", home.toString());
        assertThat(KnownIssues.atRunTime()).isEqualTo(KnownIssues.shipped());
        assertThat(KnownIssues.shipped().issues()).as("the jar's copy is not empty").isNotEmpty();
    }
}
