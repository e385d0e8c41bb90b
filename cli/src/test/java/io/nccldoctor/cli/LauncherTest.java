package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The `nccl-doctor` launcher in a copy of the repository's shape, with a stand-in java (JAVA_HOME) and, where a test
 * wants one, a stand-in mvn; PATH holds only the few tools the script uses, so "no Maven" is really no Maven. Editing
 * configs/ must never rebuild (on a node without Maven that turned every run, and every Slurm prolog, into exit 3).
 */
class LauncherTest {

    @TempDir
    Path root;

    Path bin;
    Path log;
    final long t0 = System.currentTimeMillis() - 3_600_000;

    record Ran(int code, String err) {
    }

    @BeforeEach
    void repository() throws IOException {
        Files.copy(Path.of("../nccl-doctor"), root.resolve("nccl-doctor"));
        log = root.resolve("calls.txt");
        bin = Files.createDirectories(root.resolve("bin"));
        for (String tool : List.of("readlink", "dirname", "find", "tail", "rm", "mv", "timeout")) {
            Files.createSymbolicLink(bin.resolve(tool), onPath(tool));
        }
        executable(root.resolve("jdk/bin/java"), "echo \"java $*\" >> " + log + "\nexit 7");
        for (String f : List.of("pom.xml", "core/pom.xml", "core/src/main/java/A.java", "configs/rules.yaml", "cli/target/nccl-doctor.jar")) {
            Files.createDirectories(root.resolve(f).getParent());
            Files.writeString(root.resolve(f), "x\n");
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(p -> !Files.isSymbolicLink(p)).toList()) {
                // folders too: a folder's time changes when a source is added or removed, which find -newer sees
                Files.setLastModifiedTime(p, FileTime.fromMillis(t0));
            }
        }
    }

    static Path onPath(String tool) {
        return Arrays.stream(System.getenv("PATH").split(File.pathSeparator)).map(d -> Path.of(d, tool)).filter(Files::isExecutable)
                .findFirst().orElseThrow(() -> new AssertionError(tool + " is not on PATH"));
    }

    void executable(Path p, String body) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Sets a file's time to t0 plus {@code seconds}. */
    void age(String file, int seconds) throws IOException {
        Files.setLastModifiedTime(root.resolve(file), FileTime.fromMillis(t0 + seconds * 1000L));
    }

    Ran launch() throws Exception {
        return launch(true);
    }

    Ran launch(boolean noCds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/bash", root.resolve("nccl-doctor").toString(), "preflight"))
                .redirectError(root.resolve("err.txt").toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("PATH", bin.toString());
        pb.environment().put("JAVA_HOME", root.resolve("jdk").toString());
        if (noCds) {
            pb.environment().put("NCCL_DOCTOR_NO_CDS", "1");
        }
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), Files.readString(root.resolve("err.txt")));
    }

    String calls() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Test
    void anEditedConfigNeverRebuilds() throws Exception {
        executable(bin.resolve("mvn"), "echo \"mvn $*\" >> " + log);
        age("configs/rules.yaml", 60);
        Ran r = launch();
        assertThat(calls()).as("configs/ are read at run time, not built in").doesNotContain("mvn").contains("java ");
        assertThat(r.code()).as("the jar's own exit code").isEqualTo(7);
        assertThat(calls()).contains("-Dnccldoctor.home=" + root)
                .endsWith("-cp " + root.resolve("cli/target/nccl-doctor.jar") + " " + Main.class.getName() + " preflight\n");
    }

    @Test
    void aChangedSourceRebuildsWhereMavenIsThere() throws Exception {
        executable(bin.resolve("mvn"), "echo \"mvn $*\" >> " + log);
        age("core/src/main/java/A.java", 60);
        Ran r = launch();
        assertThat(calls()).startsWith("mvn -q -B -ntp -DskipTests package\njava ");
        assertThat(r.err()).contains("building the jar");
    }

    @Test
    void aChangedPomOrADeepSourceRebuilds() throws Exception {
        executable(bin.resolve("mvn"), "echo \"mvn $*\" >> " + log);
        age("core/pom.xml", 60);
        launch();
        assertThat(calls()).as("a module's pom").startsWith("mvn ");
        Files.delete(log);
        age("core/pom.xml", 0);
        Path deep = root.resolve("core/src/main/java/io/x/y/B.java");
        Files.createDirectories(deep.getParent());
        Files.writeString(deep, "x\n");
        for (Path d = deep.getParent(); !d.equals(root); d = d.getParent()) { // only the source itself is new
            Files.setLastModifiedTime(d, FileTime.fromMillis(t0));
        }
        Files.setLastModifiedTime(deep, FileTime.fromMillis(t0 + 60_000));
        launch();
        assertThat(calls()).as("a source five folders down").startsWith("mvn ");
    }

    @Test
    void aSourceAddedWithAnOldTimeRebuildsByItsFolder() throws Exception {
        executable(bin.resolve("mvn"), "echo \"mvn $*\" >> " + log);
        Path moved = root.resolve("core/src/main/java/C.java"); // as `mv` or `git checkout` may leave it: an old time
        Files.writeString(moved, "x\n");
        Files.setLastModifiedTime(moved, FileTime.fromMillis(t0));
        Files.setLastModifiedTime(moved.getParent(), FileTime.fromMillis(t0 + 60_000));
        launch();
        assertThat(calls()).startsWith("mvn ");
    }

    @Test
    void aStaleJarWithoutMavenRunsAsBuiltWithAWarning() throws Exception {
        age("core/src/main/java/A.java", 60);
        Ran r = launch();
        assertThat(r.code()).as("the jar ran: its exit code, not 3").isEqualTo(7);
        assertThat(r.err()).contains("warning: " + root.resolve("cli/target/nccl-doctor.jar")
                + " is older than the sources and Maven (mvn) is not installed; running the jar as built");
    }

    @Test
    void noJarAndNoMavenIsExit3() throws Exception {
        Files.delete(root.resolve("cli/target/nccl-doctor.jar"));
        Ran r = launch();
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("is missing, and Maven (mvn) is not installed to build it");
        assertThat(calls()).isEmpty();
    }

    /**
     * A stand-in java that, asked to list the classes it loads ({@code -XX:DumpLoadedClassList=F}), writes F and exits with
     * {@code trainingCode}; asked to dump an archive ({@code -Xshare:dump … -XX:SharedArchiveFile=F}), writes F when
     * {@code dumps}; any other run exits 7.
     */
    void javaThatArchives(boolean dumps, int trainingCode) throws IOException {
        executable(root.resolve("jdk/bin/java"), "echo \"java $*\" >> " + log + "\n"
                + "for a in \"$@\"; do case \"$a\" in -XX:DumpLoadedClassList=*) echo list > \"${a#*=}\"; exit " + trainingCode + ";; esac; done\n"
                + "case \"$*\" in *-Xshare:dump*) for a in \"$@\"; do case \"$a\" in -XX:SharedArchiveFile=*) "
                + (dumps ? "echo classes > \"${a#*=}\"; " : "") + "exit 0;; esac; done;; esac\nexit 7");
    }

    @Test
    void theFirstRunAfterABuildTrainsTheClassArchiveThenUsesIt() throws Exception {
        javaThatArchives(true, 0);
        Ran r = launch(false);
        Path archive = root.resolve("cli/target/nccl-doctor.jsa");
        List<String> calls = calls().lines().toList();
        assertThat(calls).hasSize(3);
        assertThat(calls.get(0)).as("the training run, before the user's command").contains("-XX:DumpLoadedClassList=" + archive + ".")
                .endsWith("-cp " + root.resolve("cli/target/nccl-doctor.jar") + " " + CdsTraining.class.getName());
        assertThat(calls.get(1)).as("the archive dumped from the classes it listed").contains("-Xshare:dump", "-XX:SharedClassListFile="
                + archive + ".", "-XX:SharedArchiveFile=" + archive + ".");
        assertThat(calls.get(2)).contains("-XX:SharedArchiveFile=" + archive).endsWith(" preflight");
        assertThat(r.code()).as("the user's command's exit code").isEqualTo(7);
        assertThat(archive).hasContent("classes");
        try (Stream<Path> left = Files.list(archive.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary archive left")
                    .containsExactlyInAnyOrder("nccl-doctor.jar", "nccl-doctor.jsa");
        }

        Files.delete(log);
        launch(false);
        assertThat(calls().lines().toList()).as("a fresh archive is not trained again").hasSize(1).allMatch(c -> c.contains("-XX:SharedArchiveFile="));
    }

    @Test
    void aFailedTrainingLeavesTheArchiveOutAndTheCommandRuns() throws Exception {
        javaThatArchives(true, 1);
        Ran r = launch(false);
        List<String> calls = calls().lines().toList();
        assertThat(calls).as("no dump after a failed training").hasSize(2);
        assertThat(calls.get(1)).doesNotContain("SharedArchiveFile").endsWith(" preflight");
        assertThat(r.code()).isEqualTo(7);
        assertThat(r.err()).isEmpty();
        try (Stream<Path> left = Files.list(root.resolve("cli/target"))) {
            assertThat(left.map(p -> p.getFileName().toString())).as("neither the archive nor its temporary files")
                    .containsExactly("nccl-doctor.jar");
        }
    }

    @Test
    void aDumpThatWritesNoArchiveLeavesItOut() throws Exception {
        javaThatArchives(false, 0);
        Ran r = launch(false);
        List<String> calls = calls().lines().toList();
        assertThat(calls).hasSize(3);
        assertThat(calls.get(2)).doesNotContain("SharedArchiveFile").endsWith(" preflight");
        assertThat(r.code()).isEqualTo(7);
        try (Stream<Path> left = Files.list(root.resolve("cli/target"))) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no class list left").containsExactly("nccl-doctor.jar");
        }
    }
}
