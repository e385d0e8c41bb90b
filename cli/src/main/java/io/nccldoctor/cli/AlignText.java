package io.nccldoctor.cli;

import io.nccldoctor.collectives.coll.Alignment;
import java.util.Locale;

/** The human form of `align`. */
final class AlignText {

    private AlignText() {
    }

    static String render(Alignment a) {
        StringBuilder out = new StringBuilder();
        String unit = a.collective().equals("alltoall") ? "per-peer" : "per-rank";
        out.append(String.format(Locale.ROOT, "%s of %,d %s elements over %d ranks%n", a.collective(), a.count(), a.dtype(), a.ranks()));
        if (!a.chunked()) {
            out.append(String.format(Locale.ROOT, "  %s does not split the buffer per rank in the caller; buffer %,d bytes%s%n",
                    a.collective(), a.chunkBytes(), a.chunkBytesAligned() ? " (a multiple of 16)" : " (not a multiple of 16: keep the base pointer 16-byte aligned)"));
            return out.toString();
        }
        out.append(String.format(Locale.ROOT, "  %s chunk: %,d elements = %,d bytes, %s%n", unit, a.chunkElements(), a.chunkBytes(),
                a.chunkBytesAligned() ? "a multiple of 16" : "NOT a multiple of 16 (" + a.chunkBytes() % 16 + " bytes over)"));
        if (a.remainder() != 0) {
            out.append(String.format(Locale.ROOT, "  %,d elements do not divide by %d ranks (the last %d are dropped or mis-assigned)%n",
                    a.count(), a.ranks(), a.remainder()));
        }
        if (a.misalignedChunks().isEmpty()) {
            out.append("  every chunk starts on a 16-byte boundary: NCCL keeps its vectorised path\n");
        } else {
            out.append("  chunks starting off a 16-byte boundary: " + a.misalignedChunks()
                    + " -> NCCL falls back to element-wise copies for them (5x slower in the field report)\n");
        }
        out.append(String.format(Locale.ROOT, "  nccl-tests would use %,d elements (%,d per %s)%n", a.ncclTestsCount(),
                a.ncclTestsCount() / a.ranks(), unit.replace("per-", "")));
        if (!a.misalignedChunks().isEmpty() || !a.chunkBytesAligned()) {
            out.append(String.format(Locale.ROOT, "  nearest aligned counts: %,d below, %,d above (multiples of %d ranks x %d elements)%n",
                    a.alignedBelow(), a.alignedAbove(), a.ranks(), (a.alignedAbove() - a.alignedBelow()) / Math.max(1, a.ranks())));
        }
        return out.toString();
    }
}
