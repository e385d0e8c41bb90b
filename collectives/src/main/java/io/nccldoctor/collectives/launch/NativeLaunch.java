package io.nccldoctor.collectives.launch;

import io.nccldoctor.collectives.measure.Backend;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.core.Fact;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * How this process joins a native run: its libraries, its GPUs (-g of them, after those of lower local ranks;
 * CUDA_VISIBLE_DEVICES applies as usual) and how the NCCL unique id reaches every rank.
 *
 * @param share        the rendezvous rank 0 publishes the id through, when NCCL_COMM_ID cannot be used
 * @param commIdUsable whether NCCL_COMM_ID is set and safe with this NCCL (CommIdPolicy)
 * @param timeout      the limit of every wait for NCCL and for the rendezvous
 */
public record NativeLaunch(String libcuda, String libnccl, int gpusPerProcess, LaunchEnv launch, Optional<Rendezvous> share,
                           boolean commIdUsable, Duration timeout) {

    public int[] devices() {
        return IntStream.range(0, gpusPerProcess).map(i -> launch.localRank() * gpusPerProcess + i).toArray();
    }

    /** The highest device ordinal opened, plus one: the GPUs this node must have for this process. */
    public int devicesNeeded() {
        return (launch.localRank() + 1) * gpusPerProcess;
    }

    /** Opens the backend: one communicator over this process's GPUs, or this process's part of the job's. */
    public JnaBackend open() {
        if (!launch.multiProcess()) {
            return JnaBackend.singleProcess(libcuda, libnccl, devices(), timeout);
        }
        return JnaBackend.multiProcess(libcuda, libnccl, devices(), launch.worldSize() * gpusPerProcess, launch.rank(), timeout, b -> {
            if (commIdUsable) {
                return b.uniqueId();
            }
            Rendezvous r = share.orElseThrow(() -> new Backend.Failure("no way to share the NCCL unique id: set NCCL_COMM_ID or give "
                    + "--rendezvous"));
            if (launch.rank() == 0) {
                byte[] id = b.uniqueId();
                r.publish(id, launch.jobKey(), launch.worldSize() - 1, timeout);
                return id;
            }
            Fact<byte[]> id = r.fetch(launch.jobKey(), timeout);
            if (!id.isValue()) {
                throw new Backend.Failure(id.reason());
            }
            return id.get();
        });
    }
}
