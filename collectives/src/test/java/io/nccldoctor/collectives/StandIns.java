package io.nccldoctor.collectives;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import io.nccldoctor.core.StandInBuild;
import io.nccldoctor.core.libs.JnaLoader;
import java.nio.file.Path;
import java.util.Map;

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
            built = StandInBuild.make(Path.of("src/test/c"), Path.of("target/standins"));
        }
        return built;
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
