package io.nccldoctor.core.libs;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import com.sun.jna.ptr.IntByReference;
import io.nccldoctor.core.Fact;

/**
 * The thin native edge for version questions: one {@code int f(int *out)} call by JNA into a library given by
 * its path. JNA rather than the JavaCPP presets here, because the presets' nccl class cannot load without
 * libcuda.so.1 (reference/java-deps.md §2), and a node whose driver is broken is exactly one whose NCCL
 * version we still need to report. Every failure is a fact, never a crash: {@link LinkageError} is caught.
 */
public final class NativeCalls {

    private NativeCalls() {
    }

    /** Calls {@code function(&out)} in the library at {@code path}; a non-zero return code is an error fact. */
    public static Fact<Integer> intOut(String path, String function) {
        try {
            NativeLibrary lib = JnaLoader.open(path);
            Function f = lib.getFunction(function);
            IntByReference out = new IntByReference();
            int rc = f.invokeInt(new Object[] {out});
            if (rc != 0) {
                return Fact.error(function + " returned " + rc + " in " + path);
            }
            return Fact.of(out.getValue());
        } catch (LinkageError e) {
            return Fact.error("cannot load " + path + ": " + JnaLoader.reason(e));
        }
    }

    /** Whether the library at {@code path} exports {@code symbol} (a lookup only: nothing is called). */
    public static Fact<Boolean> hasSymbol(String path, String symbol) {
        try {
            NativeLibrary lib = JnaLoader.open(path);
            try {
                lib.getFunction(symbol);
                return Fact.of(true);
            } catch (UnsatisfiedLinkError missing) {
                return Fact.of(false);
            }
        } catch (LinkageError e) {
            return Fact.error("cannot load " + path + ": " + JnaLoader.reason(e));
        }
    }

    /**
     * NCCL's version code: {@code NCCL_VERSION(X,Y,Z)} is X*1000+Y*100+Z up to 2.8 and X*10000+Y*100+Z from 2.9
     * (nccl.h); 23007 is 2.30.7, 2705 is 2.7.5.
     */
    public static String ncclVersion(int code) {
        if (code >= 10000) {
            return code / 10000 + "." + code % 10000 / 100 + "." + code % 100;
        }
        return code / 1000 + "." + code % 1000 / 100 + "." + code % 100;
    }

    /** CUDA's version code: 1000*major + 10*minor, e.g. 12040 is 12.4 and 13000 is 13.0. */
    public static String cudaVersion(int code) {
        return code / 1000 + "." + code % 1000 / 10;
    }
}
