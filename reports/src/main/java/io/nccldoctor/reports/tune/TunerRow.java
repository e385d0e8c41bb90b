package io.nccldoctor.reports.tune;

import java.util.List;

/**
 * One line of the example tuner's CSV (plugins/tuner/example/README.md and plugin.c loadConfig):
 * {@code collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff}. The byte
 * range is inclusive at both ends and counts as the tuner's nBytes does (the nccl-tests size); numPipeOps and regBuff
 * are -1 (any): the measurements ran one operation per group without registered buffers, and a job's other cases get
 * the same choice.
 *
 * @param channels -1 for NCCL's channel count (see {@link TunerFile} on what NVIDIA's example makes of it)
 */
public record TunerRow(String collective, long minBytes, long maxBytes, String algorithm, String protocol, int channels, int nNodes,
                       int nRanks) {

    /** The column header of NCCL's example, for the file's comment. */
    static final String COLUMNS = "collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff";

    public TunerRow {
        if (!TunerNames.COLLECTIVES.contains(collective)) {
            // plugin.c parseCollType reads any other name as allreduce
            throw new IllegalArgumentException("NCCL's example tuner has no collective '" + collective + "'");
        }
        if (minBytes < 0 || maxBytes < minBytes || nNodes < 1 || nRanks < 1) {
            throw new IllegalArgumentException("a row needs 0 <= min <= max bytes and known node and rank counts: " + this);
        }
        new Choice(algorithm, protocol, channels); // the names and the count, checked once
    }

    /** The CSV line, without blanks (strtok on ',' then trimmed: blanks would be harmless, none is simpler to check). */
    String csv() {
        return String.join(",", List.of(collective, Long.toString(minBytes), Long.toString(maxBytes), algorithm, protocol,
                Integer.toString(channels), Integer.toString(nNodes), Integer.toString(nRanks), "-1", "-1"));
    }
}
