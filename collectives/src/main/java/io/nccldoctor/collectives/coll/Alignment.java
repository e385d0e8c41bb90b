package io.nccldoctor.collectives.coll;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a caller's buffer sizing keeps every per-rank or per-peer chunk on a 16-byte boundary. NCCL's vectorised
 * copy path needs 16-byte aligned chunks; a misaligned chunk falls back to element-wise copies, about 5× slower in the
 * field report's 3-node alltoall. nccl-tests never shows it because it trims counts to multiples of 16 bytes.
 *
 * @param chunkElements   elements per rank (allgather, reducescatter) or per peer (alltoall) as the caller sizes
 *                        them: count / ranks, with the remainder the caller drops or keeps
 * @param misalignedChunks indexes of chunks whose byte offset in the buffer is not a multiple of 16
 * @param ncclTestsCount  the total count nccl-tests would use for the same request
 * @param alignedBelow    the largest count ≤ the given one whose chunks are all 16-byte aligned
 * @param alignedAbove    the smallest count ≥ the given one whose chunks are all 16-byte aligned
 */
public record Alignment(String collective, String dtype, long count, int ranks, boolean chunked, long remainder,
                        long chunkElements, long chunkBytes, boolean chunkBytesAligned, List<Integer> misalignedChunks,
                        long ncclTestsCount, long alignedBelow, long alignedAbove) {

    public static final int ALIGN_BYTES = 16;

    public static Alignment of(Collective c, DataType t, long count, int ranks) {
        if (!c.chunked()) {
            boolean ok = count * t.size() % ALIGN_BYTES == 0;
            return new Alignment(c.name(), t.ncclTestsName(), count, ranks, false, 0, count, count * t.size(), ok,
                    List.of(), count, count, count);
        }
        long chunk = count / ranks;
        long bytes = chunk * t.size();
        List<Integer> bad = new ArrayList<>();
        for (int k = 0; k < ranks; k++) {
            if (k * bytes % ALIGN_BYTES != 0) { // chunk k starts k × chunkBytes after a 16-byte aligned base
                bad.add(k);
            }
        }
        long step = (long) ranks * (ALIGN_BYTES / gcd(ALIGN_BYTES, t.size()));
        long below = count / step * step;
        long above = below == count ? count : below + step;
        long ncclTests = c.sizing(count, t.size(), ranks).paramCount() * ranks;
        return new Alignment(c.name(), t.ncclTestsName(), count, ranks, true, count % ranks, chunk, bytes,
                bytes % ALIGN_BYTES == 0, bad, ncclTests, below, above);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
