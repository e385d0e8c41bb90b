package io.nccldoctor.collectives.measure;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.coll.Sizing;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.DoubleStream;

/**
 * A size sweep measured as nccl-tests measures it (reference/nccl-internals.md §2.3): per size, the counts from the
 * collective's conditioning (or as given), warm-up launches, then iterations × one launch per local rank timed by
 * the host clock around a stream synchronise, averaged over ranks, out-of-place and then in-place; algbw = size /
 * time (GB = 1e9), busbw by the collective's factor; with validation, one more run per placement on known data
 * whose wrong elements are counted.
 */
public final class Measurement {

    /** How a requested size becomes counts. */
    public enum Conditioning {
        /** As nccl-tests: per-rank and per-peer counts trimmed to multiples of 16 bytes. */
        NCCL_TESTS,
        /** As given: count / ranks, untrimmed, like a harness that sizes its tensor itself. */
        NONE
    }

    /** How the time of every rank becomes the one time of a row: nccl-tests' {@code -a 0|1|2|3}. */
    public enum Aggregate {
        /** No reduction: each process reports its own time (nccl-tests -a 0). */
        OWN,
        /** The mean over all ranks (the default, -a 1). */
        AVG,
        /** The fastest rank (-a 2). */
        MIN,
        /** The slowest rank (-a 3): the time the job waits for. */
        MAX;

        /** nccl-tests' number for it. */
        public int ncclTestsFlag() {
            return ordinal();
        }

        public static Aggregate ofNcclTestsFlag(int a) {
            if (a < 0 || a > 3) {
                throw new InputException("-a " + a + ": use 0 (each process its own time), 1 (average over ranks, the default), "
                        + "2 (minimum) or 3 (maximum), as nccl-tests does");
            }
            return values()[a];
        }
    }

    /**
     * @param offsetBytes added to every base pointer, to misalign the buffers on purpose
     * @param timeout     for each wait on NCCL (a group's launch, a stream); past it the communicators are aborted and the run
     *                     ends as a hang
     * @param aggregate   how rank times are combined
     * @param perIteration time every iteration with CUDA events as well (nccl-tests -I): min, max, p99, CV
     */
    public record Plan(@JsonIgnore Collective collective, DataType type, String op, int root, long minBytes, long maxBytes,
                       int stepFactor, int warmup, int iters, boolean check, Conditioning conditioning, long offsetBytes,
                       @JsonIgnore Duration timeout, Aggregate aggregate, boolean perIteration) {

        public Plan(Collective collective, DataType type, String op, int root, long minBytes, long maxBytes, int stepFactor, int warmup,
                    int iters, boolean check, Conditioning conditioning, long offsetBytes, Duration timeout, Aggregate aggregate) {
            this(collective, type, op, root, minBytes, maxBytes, stepFactor, warmup, iters, check, conditioning, offsetBytes, timeout,
                    aggregate, false);
        }

        /** With rank times averaged, as nccl-tests does by default. */
        public Plan(Collective collective, DataType type, String op, int root, long minBytes, long maxBytes, int stepFactor, int warmup,
                    int iters, boolean check, Conditioning conditioning, long offsetBytes, Duration timeout) {
            this(collective, type, op, root, minBytes, maxBytes, stepFactor, warmup, iters, check, conditioning, offsetBytes, timeout,
                    Aggregate.AVG);
        }

        public Plan {
            if (minBytes < 0 || maxBytes < minBytes) {
                throw new InputException("-b " + minBytes + " -e " + maxBytes + ": the largest size must be at least the smallest");
            }
            if (stepFactor < 2 || warmup < 0 || iters < 1 || offsetBytes < 0) {
                throw new InputException("-f " + stepFactor + " -w " + warmup + " -n " + iters + " --offset-bytes " + offsetBytes
                        + ": the factor must be 2 or more, -n at least 1, -w and the offset not negative");
            }
        }

        @JsonProperty("collective")
        public String collectiveName() {
            return collective.name();
        }

        @JsonProperty("timeoutSeconds")
        public long timeoutSeconds() {
            return timeout.toSeconds();
        }

        @JsonIgnore
        public List<Long> sizes() {
            List<Long> s = new ArrayList<>();
            for (long size = minBytes; size <= maxBytes; size = size == 0 ? 1 : size * stepFactor) {
                s.add(size);
            }
            return s;
        }
    }

    /**
     * One size: the row as nccl-tests prints it, and the chunk a caller got.
     *
     * @param chunkBytes   per-rank or per-peer bytes for the split collectives, the whole buffer otherwise
     * @param chunksAligned whether every chunk (and the base, with --offset-bytes) starts on a 16-byte boundary
     */
    public record SizeResult(NcclTestsOutput.Row row, long chunkBytes, boolean chunksAligned, Fact<IterationStats> outOfPlaceIterations,
                             Fact<IterationStats> inPlaceIterations) {

        public SizeResult(NcclTestsOutput.Row row, long chunkBytes, boolean chunksAligned) {
            this(row, chunkBytes, chunksAligned, Fact.absent("not asked (-I)"), Fact.absent("not asked (-I)"));
        }
    }

    /**
     * Per-iteration times from CUDA events (nccl-tests -I): each iteration's time is the slowest GPU's, and across
     * processes the slowest process's, as nccl-tests does.
     *
     * @param cvPercent population standard deviation / mean, in percent
     */
    public record IterationStats(int iterations, double minUs, double maxUs, double p99Us, double cvPercent) {

        static IterationStats of(double[] us) {
            double[] s = us.clone();
            Arrays.sort(s);
            double mean = Arrays.stream(s).average().orElse(0);
            double var = Arrays.stream(s).map(x -> (x - mean) * (x - mean)).sum() / s.length;
            int p99 = (int) Math.ceil(0.99 * s.length) - 1; // nearest rank
            return new IterationStats(s.length, s[0], s[s.length - 1], s[Math.max(0, p99)], mean == 0 ? 0 : 100 * Math.sqrt(var) / mean);
        }
    }

    /** One placement's measurement, and its per-iteration statistics when asked. */
    private record Timed(NcclTestsOutput.Placement placement, Fact<IterationStats> iterations) {
    }

    /** @param failure why the sweep stopped early (an NCCL error or a hang); absent when it completed */
    public record Result(String ncclVersion, int worldSize, Plan plan, List<SizeResult> sizes, Fact<String> failure) {

        /** The same model as a parsed nccl-tests run, for the shared table and failure rules. */
        @JsonIgnore
        public NcclTestsOutput asNcclTestsOutput() {
            // nccl-tests averages busbw over every timed call: all sizes, out-of-place and in-place (§2.2)
            double avg = sizes.stream().flatMapToDouble(s -> DoubleStream.of(s.row().outOfPlace().busBwGBps(),
                    s.row().inPlace().map(NcclTestsOutput.Placement::busBwGBps).orElse(s.row().outOfPlace().busBwGBps())))
                    .average().orElse(Double.NaN);
            return new NcclTestsOutput(Fact.absent("measured by nccl-doctor, not nccl-tests"), Fact.absent("not applicable"),
                    Fact.of(ncclVersion), Fact.of(plan.collective().name()), List.of(), false, sizes.stream().map(SizeResult::row).toList(),
                    Fact.absent("no out-of-bounds check"), Fact.absent("no out-of-bounds check"),
                    sizes.isEmpty() ? Fact.absent("no size completed") : Fact.of(avg), Fact.absent("no minimum bandwidth set"), 0,
                    List.of());
        }
    }

    /** Results are read back to the host in blocks of this many bytes. */
    static final long READ_BLOCK = 64L << 20;

    private final Backend backend;
    private final Consumer<String> progress;

    public Measurement(Backend backend) {
        this(backend, step -> { });
    }

    /** @param progress told of each step before it starts (a watching parent takes silence for a hang) */
    public Measurement(Backend backend, Consumer<String> progress) {
        this.backend = backend;
        this.progress = progress;
    }

    public Result run(Plan plan) {
        int world = backend.worldSize();
        int elt = plan.type().size();
        List<SizeResult> done = new ArrayList<>();
        List<Sizing> sizings = new ArrayList<>();
        long most = 0;
        for (long size : plan.sizes()) {
            Sizing s = plan.conditioning() == Conditioning.NCCL_TESTS ? plan.collective().sizing(size / elt, elt, world)
                    : plan.collective().sizingUntrimmed(size / elt, elt, world);
            sizings.add(s);
            most = Math.max(most, Math.max(s.sendBytes(), s.recvBytes()));
        }
        int locals = backend.localRanks();
        long[] send = new long[locals];
        long[] recv = new long[locals];
        try {
            for (int l = 0; l < locals; l++) {
                send[l] = backend.alloc(l, most + plan.offsetBytes() + 16) + plan.offsetBytes();
                recv[l] = backend.alloc(l, most + plan.offsetBytes() + 16) + plan.offsetBytes();
            }
            for (Sizing s : sizings) {
                progress.accept(s.sizeBytes() + " bytes out-of-place");
                Timed out = placement(plan, s, send, recv, false);
                progress.accept(s.sizeBytes() + " bytes in-place");
                Timed in = placement(plan, s, send, recv, true);
                long chunk = (plan.collective().chunked() ? s.paramCount() : Math.max(s.sendCount(), s.recvCount())) * elt;
                boolean aligned = plan.offsetBytes() % 16 == 0 && (!plan.collective().chunked() || chunk % 16 == 0);
                done.add(new SizeResult(new NcclTestsOutput.Row(s.sizeBytes(), s.paramCount(), plan.type().ncclTestsName(),
                        redop(plan), Fact.of(rootColumn(plan)), out.placement(), Fact.of(in.placement())), chunk, aligned, out.iterations(),
                        in.iterations()));
            }
            return new Result(backend.ncclVersion(), world, plan, done, Fact.absent("the sweep completed"));
        } catch (Backend.Failure f) {
            backend.abort();
            return new Result(backend.ncclVersion(), world, plan, done, Fact.of(f.getMessage()));
        }
    }

    private static Fact<String> redop(Plan plan) {
        return switch (plan.collective().name()) {
            case "allreduce", "reducescatter", "reduce" -> Fact.of(plan.op());
            default -> Fact.of("none");
        };
    }

    private static int rootColumn(Plan plan) {
        return plan.collective().name().equals("broadcast") || plan.collective().name().equals("reduce") ? plan.root() : -1;
    }

    private Timed placement(Plan plan, Sizing s, long[] send, long[] recv, boolean inPlace) {
        int elt = plan.type().size();
        int locals = backend.localRanks();
        Backend.Call[] calls = new Backend.Call[locals];
        for (int l = 0; l < locals; l++) {
            int rank = backend.rank(l);
            long r = recv[l] + (inPlace ? rank * s.recvInplaceOffset() * elt : 0);
            long sp = inPlace ? recv[l] + rank * s.sendInplaceOffset() * elt : send[l];
            calls[l] = new Backend.Call(plan.collective(), sp, r, s.paramCount(), plan.type(), plan.op(), plan.root());
        }
        for (int i = 0; i < plan.warmup(); i++) {
            launchAll(plan, calls);
        }
        syncAll(plan);
        long[][] events = plan.perIteration() ? new long[plan.iters() + 1][locals] : null;
        long start = System.nanoTime();
        for (int i = 0; i < plan.iters(); i++) {
            if (events != null && i == 0) {
                for (int l = 0; l < locals; l++) {
                    events[0][l] = backend.recordEvent(l);
                }
            }
            launchAll(plan, calls);
            if (events != null) { // the end of iteration i is the start of i + 1, as nccl-tests records them
                for (int l = 0; l < locals; l++) {
                    events[i + 1][l] = backend.recordEvent(l);
                }
            }
        }
        syncAll(plan);
        double seconds = backend.combine((System.nanoTime() - start) / 1e9 / plan.iters(), plan.aggregate());
        Fact<IterationStats> iterations = Fact.absent("not asked (-I)");
        if (events != null) {
            double[] us = new double[plan.iters()];
            for (int i = 0; i < plan.iters(); i++) {
                double slowest = 0;
                for (int l = 0; l < locals; l++) {
                    slowest = Math.max(slowest, backend.elapsedMs(l, events[i][l], events[i + 1][l]) * 1000);
                }
                us[i] = backend.combine(slowest, Aggregate.MAX);
            }
            iterations = Fact.of(IterationStats.of(us));
        }
        double algBw = s.sizeBytes() / 1e9 / seconds;
        Fact<Long> wrong = plan.check() ? check(plan, s, send, recv, calls, inPlace)
                : Fact.absent("N/A: validation off");
        return new Timed(new NcclTestsOutput.Placement(seconds * 1e6, algBw, algBw * plan.collective().busBwFactor(backend.worldSize()),
                wrong, Fact.absent("the #wrong layout counts wrong elements instead")), iterations);
    }

    private Fact<Long> check(Plan plan, Sizing s, long[] send, long[] recv, Backend.Call[] calls, boolean inPlace) {
        if (!Pattern.supported(plan.type(), plan.op())) {
            return Fact.absent(Pattern.unsupportedReason(plan.type(), plan.op()));
        }
        if (inPlace && !plan.collective().checkedInPlace()) {
            return Fact.absent("N/A: in-place " + plan.collective().name() + " is not checked, as nccl-tests does not check it: a "
                    + "peer's write into chunk p races this rank's send of chunk p");
        }
        int elt = plan.type().size();
        Pattern pattern = Pattern.of(plan.type(), plan.op(), backend.worldSize());
        long region = Math.max(s.sendBytes(), s.recvBytes()); // in-place pointers lie inside the receive buffer
        for (int l = 0; l < calls.length; l++) {
            backend.fill(l, recv[l], region, Pattern.element(plan.type(), 0));
            backend.fill(l, calls[l].send(), s.sendBytes(), pattern.sendPattern(backend.rank(l)));
        }
        launchAll(plan, calls);
        syncAll(plan);
        long wrong = 0;
        boolean any = false;
        long block = (READ_BLOCK / elt) * elt;
        String name = plan.collective().name();
        long perChunk = Math.max(1, s.paramCount());
        for (int l = 0; l < calls.length; l++) {
            int rank = backend.rank(l);
            if (!pattern.receives(name, rank, plan.root())) {
                continue;
            }
            any = true;
            for (long from = 0; from < s.recvBytes(); from += block) {
                ByteBuffer got = ByteBuffer.wrap(backend.read(l, calls[l].recv() + from, Math.min(block, s.recvBytes() - from)))
                        .order(ByteOrder.LITTLE_ENDIAN);
                for (int at = 0; at < got.capacity(); at += elt) {
                    if (!Pattern.matches(plan.type(), got, at, pattern.expected(name, rank, plan.root(), perChunk, (from + at) / elt))) {
                        wrong++;
                    }
                }
            }
        }
        return any || s.recvCount() == 0 ? Fact.of(wrong) : Fact.absent("no rank here receives a defined result");
    }

    private void launchAll(Plan plan, Backend.Call[] calls) {
        backend.groupStart();
        for (int l = 0; l < calls.length; l++) {
            backend.launch(l, calls[l]);
        }
        backend.groupEnd(System.nanoTime() + plan.timeout().toNanos());
    }

    private void syncAll(Plan plan) {
        long deadline = System.nanoTime() + plan.timeout().toNanos();
        for (int l = 0; l < backend.localRanks(); l++) {
            backend.sync(l, deadline);
        }
    }
}
