package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.List;

/**
 * One measurement under suspicion: a collective at one size, from a harness of one's own (a table, or `nccl-doctor run
 * --json --conditioning none`).
 *
 * @param collective nccl-tests' name: allreduce, allgather, alltoall, reducescatter, broadcast, reduce, sendrecv
 * @param dtype      nccl-tests' name of the element type: float, half, bfloat16, …
 * @param count      elements in the whole buffer as the harness sized it (for allgather the gathered output, for
 *                   reducescatter the input), the count `nccl-doctor align --count` takes; not nccl-tests' per-rank
 *                   count column
 * @param bytes      the size nccl-tests' size column would show for this count split untrimmed: max(send, receive) bytes
 * @param ranks      the world size, 2 or more (bus bandwidth is 0 by definition on one rank)
 * @param busBw      GB/s (1e9 bytes), as measured, or computed from the time or the algbw with the collective's factor
 * @param timeUs     microseconds per call, when the input gives it
 * @param source     where it came from: FILE:LINE for a table, FILE and size for a run
 */
public record SuspectRow(String collective, String dtype, long count, long bytes, int ranks, Fact<Double> busBw, Fact<Double> timeUs,
                         String source) {

    public SuspectRow {
        collective = Collective.parse(collective).name();
        dtype = DataType.parse(dtype).ncclTestsName();
        if (ranks < 2 || count < 1 || bytes < 1) {
            throw new IllegalArgumentException(source + ": " + ranks + " ranks, " + count + " elements, " + bytes
                    + " bytes: a comparison needs 2 or more ranks and a buffer of at least one element");
        }
        if (!busBw.isValue() && timeUs.isValue()) {
            busBw = Fact.of(busBwFromTime(Collective.parse(collective), bytes, ranks, timeUs.get()));
        }
        if (!busBw.isValue()) {
            throw new IllegalArgumentException(source + ": a suspect row needs its busbw, or the time to compute it from");
        }
        if (!Double.isFinite(busBw.get()) || busBw.get() < 0) {
            throw new IllegalArgumentException(source + ": busbw " + busBw.get() + " GB/s is no measurement");
        }
    }

    /** nccl-tests' rule: algbw = size / time (GB = 1e9 bytes), busbw = algbw × the collective's factor. */
    static double busBwFromTime(Collective c, long bytes, int ranks, double timeUs) {
        return bytes / 1e9 / (timeUs * 1e-6) * c.busBwFactor(ranks);
    }

    /**
     * The rows of a run (`nccl-doctor run --json`, usually with --conditioning none): each size's out-of-place busbw and
     * time. The count is the size over the element size (for the split collectives, the chunk × ranks the run moved).
     */
    public static List<SuspectRow> of(Sweep s) {
        if (!s.collective().isValue() || !s.ranks().isValue()) {
            throw new InputException(s.source() + ": the run does not say its collective and world size ("
                    + (s.collective().isValue() ? s.ranks().reason() : s.collective().reason()) + ")");
        }
        if (s.ranks().get() < 2) {
            throw new InputException(s.source() + ": a run on one rank; bus bandwidth is 0 by definition there, compare runs on 2 or more");
        }
        List<SuspectRow> out = new ArrayList<>();
        for (NcclTestsOutput.Row r : s.rows()) {
            if (r.sizeBytes() == 0) {
                continue; // nccl-tests' empty sizes: nothing moved, nothing to compare
            }
            if (!Double.isFinite(r.outOfPlace().busBwGBps()) || r.outOfPlace().busBwGBps() < 0) {
                throw new InputException(s.source() + ": size " + r.sizeBytes() + " B has busbw " + r.outOfPlace().busBwGBps());
            }
            DataType t;
            try {
                t = DataType.parse(r.type());
            } catch (InputException e) {
                throw new InputException(s.source() + ": size " + r.sizeBytes() + " B: " + e.getMessage(), e);
            }
            out.add(new SuspectRow(s.collective().get(), t.ncclTestsName(), r.sizeBytes() / t.size(), r.sizeBytes(), s.ranks().get(),
                    Fact.of(r.outOfPlace().busBwGBps()), Fact.of(r.outOfPlace().timeUs()), s.source() + ", " + r.sizeBytes() + " B"));
        }
        return out;
    }

    Collective coll() {
        return Collective.parse(collective);
    }

    DataType type() {
        return DataType.parse(dtype);
    }
}
