package io.nccldoctor.collectives.reference;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * nccl-tests' options that `run --reference` passes through unchanged (src/common.cu of NVIDIA/nccl-tests 2.19:
 * getopt "t:g:b:e:i:f:n:m:w:N:p:I:K:c:o:d:r:z:y:T:hG:C:a:R:x:D:V:J:S:M:u:"); null means not given, nccl-tests'
 * default. Values are checked against the ranges nccl-tests' usage text gives, so a typo fails here with one line
 * instead of being ignored or misread there.
 *
 * @param cudaGraph       -G: CUDA graph launches per timed iteration (NCCL 2.9 and CUDA 11.3 or later)
 * @param localRegister   -R: 0 none, 1 local, 2 symmetric buffer registration (NCCL 2.19, symmetric 2.27)
 * @param blocking        -z: 0 to 3, how collectives are waited for
 * @param aggIters        -m: operations aggregated per iteration
 * @param runCycles       -N: repetitions of the whole sweep, 0 for ever
 * @param reportCpuTime   -C: 0 or 1
 * @param unalign         -u: misalign the buffers by this many elements
 * @param deviceImpl      -D: NCCL device implementation (NCCL 2.28; needs -R 2 when above 0)
 * @param reportTimestamps -S: 0 or 1
 * @param memoryReport    -M: 0 or 1
 * @param threads         -t: threads per process
 * @param parallelInit    -p: 0 or 1
 */
public record NcclTestsFlags(Integer cudaGraph, Integer localRegister, Integer blocking, Integer aggIters, Integer runCycles,
                             Integer reportCpuTime, Integer unalign, Integer deviceImpl, Integer reportTimestamps, Integer memoryReport,
                             Integer threads, Integer parallelInit) {

    public static NcclTestsFlags none() {
        return new NcclTestsFlags(null, null, null, null, null, null, null, null, null, null, null, null);
    }

    public NcclTestsFlags {
        range("-G", cudaGraph, 0, Integer.MAX_VALUE);
        range("-R", localRegister, 0, 2);
        range("-z", blocking, 0, 3);
        range("-m", aggIters, 1, Integer.MAX_VALUE);
        range("-N", runCycles, 0, Integer.MAX_VALUE);
        range("-C", reportCpuTime, 0, 1);
        range("-u", unalign, 0, Integer.MAX_VALUE);
        range("-D", deviceImpl, 0, Integer.MAX_VALUE);
        range("-S", reportTimestamps, 0, 1);
        range("-M", memoryReport, 0, 1);
        range("-t", threads, 1, Integer.MAX_VALUE);
        range("-p", parallelInit, 0, 1);
        if (deviceImpl != null && deviceImpl > 0 && (localRegister == null || localRegister != 2)) {
            throw new InputException("-D " + deviceImpl + ": nccl-tests' device implementation needs symmetric registration, -R 2");
        }
    }

    private static void range(String flag, Integer v, int min, int max) {
        if (v != null && (v < min || v > max)) {
            throw new InputException(flag + " " + v + ": nccl-tests takes " + (max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max));
        }
    }

    /** Whether any is given (they mean something only to nccl-tests). */
    public boolean any() {
        return !argv().isEmpty();
    }

    /** The flags given, in nccl-tests' spelling, e.g. ["-G", "10", "-R", "1"]. */
    public List<String> argv() {
        List<String> a = new ArrayList<>();
        add(a, "-t", threads);
        add(a, "-m", aggIters);
        add(a, "-N", runCycles);
        add(a, "-p", parallelInit);
        add(a, "-z", blocking);
        add(a, "-G", cudaGraph);
        add(a, "-C", reportCpuTime);
        add(a, "-S", reportTimestamps);
        add(a, "-R", localRegister);
        add(a, "-D", deviceImpl);
        add(a, "-M", memoryReport);
        add(a, "-u", unalign);
        return a;
    }

    private static void add(List<String> a, String flag, Integer v) {
        if (v != null) {
            a.add(flag);
            a.add(String.valueOf(v));
        }
    }
}
