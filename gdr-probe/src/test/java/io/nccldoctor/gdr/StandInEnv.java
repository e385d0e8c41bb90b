package io.nccldoctor.gdr;

import com.sun.jna.Function;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.Map;
import java.util.function.Supplier;

/** The stand-ins read their switches with getenv: set in this process (libc setenv) for one call, then unset. */
final class StandInEnv {

    private StandInEnv() {
    }

    static <T> T with(Map<String, String> vars, Supplier<T> body) {
        Function setenv = JnaLoader.libc("setenv");
        Function unsetenv = JnaLoader.libc("unsetenv");
        vars.forEach((k, v) -> setenv.invokeInt(new Object[] {k, v, 1}));
        try {
            return body.get();
        } finally {
            vars.keySet().forEach(k -> unsetenv.invokeInt(new Object[] {k}));
        }
    }
}
