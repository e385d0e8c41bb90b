package io.nccldoctor.collectives;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import io.nccldoctor.core.libs.JnaLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The host-memory stand-ins for libcuda, libnccl, NVML and libibverbs (src/test/c, README there), built once per
 * test JVM with make and gcc into target/standins, one folder per variant. Test doubles: nothing here ships.
 */
public final class StandIns {

    private static Path built;

    private StandIns() {
    }

    /** The folder holding cuda13/, cuda12/, nccl-2.28.3/, nccl-2.21.5/, nccl-2.13.4/, nvml/, ibverbs/, broken/. */
    public static synchronized Path dir() {
        if (built == null) {
            built = build(Path.of("src/test/c"), Path.of("target/standins"));
        }
        return built;
    }

    /**
     * Runs make in the sources folder with a time limit; a missing compiler fails the test with what to install.
     */
    static Path build(Path sources, Path out) {
        Path abs = out.toAbsolutePath();
        try {
            Files.createDirectories(abs);
            Path log = abs.resolve("build.log");
            ProcessBuilder pb = new ProcessBuilder(List.of("make", "-s", "-C", sources.toAbsolutePath().toString(), "OUT=" + abs))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("LC_ALL", "C");
            Process p = pb.start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("building the stand-ins took over 180 s; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("building the stand-ins failed (make and gcc are needed): "
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return abs;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run make to build the stand-ins (install make and gcc): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static String libcuda() {
        return dir().resolve("cuda13/libcuda.so.1").toString();
    }

    /** @param version 2.28.3, 2.21.5 or 2.13.4 */
    public static String libnccl(String version) {
        return dir().resolve("nccl-" + version + "/libnccl.so." + version).toString();
    }

    /** An int-returning counter the stand-in exports for tests (standin_nccl_live_comms ...). */
    public static int counter(String library, String function) {
        NativeLibrary lib = JnaLoader.open(library);
        Function f = lib.getFunction(function);
        return f.invokeInt(new Object[0]);
    }

    /** Sets the stand-ins' switches in this process's C environment, where they read them, for the run. */
    public static void withSwitches(Map<String, String> switches, Runnable run) {
        Function setenv = JnaLoader.libc("setenv");
        Function unsetenv = JnaLoader.libc("unsetenv");
        switches.forEach((k, v) -> setenv.invokeInt(new Object[] {k, v, 1}));
        try {
            run.run();
        } finally {
            switches.keySet().forEach(k -> unsetenv.invokeInt(new Object[] {k}));
        }
    }
}
