package io.nccldoctor.cli;

import io.nccldoctor.collectives.reference.NcclTestsFlags;
import picocli.CommandLine.Option;

/** nccl-tests' own options, passed through by `run --reference nccl-tests` (their meaning: nccl-tests' usage text). */
final class NcclTestsOptions {

    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", description = "nccl-tests -G: N CUDA graph launches per iteration.")
    Integer cudaGraph;

    @Option(names = {"-R", "--local_register"}, paramLabel = "0-2", description = "nccl-tests -R: 1 local, 2 symmetric buffer registration.")
    Integer localRegister;

    @Option(names = {"-z", "--blocking"}, paramLabel = "0-3", description = "nccl-tests -z: how collectives are waited for.")
    Integer blocking;

    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", description = "nccl-tests -m: operations aggregated per iteration.")
    Integer aggIters;

    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", description = "nccl-tests -N: repeat the sweep N times (0: for ever).")
    Integer runCycles;

    @Option(names = {"-C", "--report_cputime"}, paramLabel = "0|1", description = "nccl-tests -C: report CPU time.")
    Integer reportCpuTime;

    @Option(names = {"-u", "--unalign"}, paramLabel = "N", description = "nccl-tests -u: misalign the buffers by N elements.")
    Integer unalign;

    @Option(names = {"-D", "--device_implementation"}, paramLabel = "N", description = "nccl-tests -D (NCCL 2.28, with -R 2).")
    Integer deviceImpl;

    @Option(names = {"-S", "--report_timestamps"}, paramLabel = "0|1", description = "nccl-tests -S: timestamps per line.")
    Integer reportTimestamps;

    @Option(names = {"-M", "--memory"}, paramLabel = "0|1", description = "nccl-tests -M: memory usage report.")
    Integer memory;

    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", description = "nccl-tests -t: threads per process.")
    Integer threads;

    @Option(names = {"-p", "--parallel_init"}, paramLabel = "0|1", description = "nccl-tests -p: initialise in parallel.")
    Integer parallelInit;

    NcclTestsFlags flags() {
        return new NcclTestsFlags(cudaGraph, localRegister, blocking, aggIters, runCycles, reportCpuTime, unalign, deviceImpl,
                reportTimestamps, memory, threads, parallelInit);
    }
}
