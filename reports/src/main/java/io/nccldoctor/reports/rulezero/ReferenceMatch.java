package io.nccldoctor.reports.rulezero;

import java.util.List;

/**
 * The nccl-tests busbw a suspect size is held against.
 *
 * @param kind      how it was found
 * @param label     the reference sweep's label
 * @param source    its file
 * @param type      the element type of the reference rows (nccl-tests' -d)
 * @param busBwGBps out-of-place busbw, GB/s; interpolated values to 4 decimals
 * @param peakBusBwGBps the reference sweep's highest out-of-place busbw: what nccl-tests gets out of these ranks at all
 * @param rowBytes  the size of the reference row used, or of the two rows interpolated between
 * @param how       one line: which rows, and why those
 */
public record ReferenceMatch(Kind kind, String label, String source, String type, double busBwGBps, double peakBusBwGBps,
                             List<Long> rowBytes, String how) {

    public ReferenceMatch {
        rowBytes = List.copyOf(rowBytes);
    }

    public enum Kind {
        /** A reference row at the suspect's byte size. */
        SAME_SIZE,
        /** The row nccl-tests runs for the suspect's count once it has trimmed it (its size differs by the trim). */
        SAME_REQUEST,
        /** Between the neighbouring rows below and above, linear in log2(size). */
        INTERPOLATED
    }
}
