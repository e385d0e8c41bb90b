package io.nccldoctor.collectives.sweep;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.util.List;

/**
 * What a child writes to its result file, one JSON line per collective as it finishes (and flushes): the rows, or
 * why there are none, and which NCCL it really loaded.
 */
public record ChildLine(String collective, String ncclVersion, String ncclLibrary, Integer worldSize, List<NcclTestsOutput.Row> rows,
                        String failure) {
}
