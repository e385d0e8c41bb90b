package io.nccldoctor.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Builds a shared library from C source with gcc, for tests of the native edges (JNA) without the real library.
 * The test is skipped by assumption where gcc is missing or fails.
 */
public final class StubLibraries {

    private StubLibraries() {
    }

    public static Path build(Path dir, String fileName, String source) throws IOException, InterruptedException {
        Path c = Files.writeString(dir.resolve(fileName + ".c"), source);
        Path so = dir.resolve(fileName);
        Process p;
        try {
            p = new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", so.toString(), c.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "gcc not installed");
            return so;
        }
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc could not build " + fileName);
        return so;
    }
}
