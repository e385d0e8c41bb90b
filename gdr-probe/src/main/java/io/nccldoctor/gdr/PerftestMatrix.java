package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * `gdr --active --perftest-peer HOST`: per GPU and HCA, perftest with the GPU's memory on this side, in both
 * directions. ib_write_bw makes this NIC <b>read</b> GPU memory (it sends from it); ib_read_bw makes it <b>write</b>
 * into GPU memory (the responses land there). On platforms whose root complex drops peer-to-peer reads the first
 * fails or crawls while the second runs at line rate.
 */
public record PerftestMatrix(Fact<List<Cell>> cells) {

    public enum Direction { NIC_READS_GPU, NIC_WRITES_GPU }

    /**
     * @param averageGbps the average bandwidth perftest reported at the tested size
     * @param problem     why there is no bandwidth (the run failed, timed out, or printed an error); absent when it ran
     */
    public record Cell(int gpu, String gpuBusId, String hca, Direction direction, List<String> argv, Fact<Double> averageGbps,
                       Fact<String> problem) {
    }
}
