package io.nccldoctor.reports.tune;

/**
 * What a tuner row selects: an algorithm and a protocol by their CSV names ("ring", "ll128"), and a channel count, -1
 * for NCCL's own (which NCCL's example tuner turns into one channel: see {@link TunerFile}).
 */
public record Choice(String algorithm, String protocol, int channels) {

    public Choice {
        if (!TunerNames.isCsvName(TunerNames.ALGORITHMS, algorithm) || !TunerNames.isCsvName(TunerNames.PROTOCOLS, protocol)) {
            throw new IllegalArgumentException("not an algorithm and protocol of NCCL's example tuner: " + algorithm + "/" + protocol);
        }
        if (channels == 0 || channels < -1) {
            throw new IllegalArgumentException("channels is a positive count or -1, got " + channels);
        }
    }

    /** "ring/ll128", with ", 4 channels" when a count is given. */
    public String label() {
        return algorithm + "/" + protocol + (channels > 0 ? ", " + channels + " channels" : "");
    }

    /** Whether a row with this choice changes anything where NCCL runs {@code ncclRun}: another algorithm or protocol, or a channel count. */
    boolean changes(Choice ncclRun) {
        return !sameRun(ncclRun) || channels > 0;
    }

    /** The same algorithm and protocol (what NCCL's TUNING line shows; it does not say how many channels were asked for). */
    boolean sameRun(Choice o) {
        return algorithm.equals(o.algorithm) && protocol.equals(o.protocol);
    }
}
