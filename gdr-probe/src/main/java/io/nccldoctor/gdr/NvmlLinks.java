package io.nccldoctor.gdr;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU's NVLinks through NVML: nvmlDeviceGetNvLinkState for links 0 to NVML_NVLINK_MAX_LINKS − 1, and for each link
 * that answers, nvmlDeviceGetNvLinkErrorCounter's five counters. A link that answers an error does not exist on this
 * GPU, as DCGM reads it (NVIDIA/DCGM dcgmlib/src/DcgmTopology.cpp UpdateNvLinkLinkStateFromNvml at 72fa3fe: "Treat
 * any error as NotSupported": Pascal answers INVALID_ARGUMENT for links Volta has).
 */
final class NvmlLinks {

    /** nvmlNvLinkErrorCounter_t. */
    private static final int DL_REPLAY = 0;
    private static final int DL_RECOVERY = 1;
    private static final int DL_CRC_FLIT = 2;
    private static final int DL_CRC_DATA = 3;
    private static final int DL_ECC_DATA = 4;

    private final NvmlHealthCalls.Caller nvml;

    NvmlLinks(NvmlHealthCalls.Caller nvml) {
        this.nvml = nvml;
    }

    /** The links this GPU has; absent with NVML's reason when it has none (a GPU without NVLink: NOT_SUPPORTED). */
    Fact<List<GpuHealth.NvLink>> links(Pointer h) {
        List<GpuHealth.NvLink> out = new ArrayList<>();
        int first = NvmlReturn.SUCCESS;
        for (int link = 0; link < NvmlHealthCalls.MAX_LINKS; link++) {
            IntByReference active = new IntByReference();
            int rc = nvml.call("nvmlDeviceGetNvLinkState", h, link, active);
            if (link == 0) {
                first = rc;
            }
            if (rc == Integer.MIN_VALUE) {
                break;
            }
            if (rc != NvmlReturn.SUCCESS) {
                continue;
            }
            out.add(new GpuHealth.NvLink(link, active.getValue() == 1, counter(h, link, DL_REPLAY), counter(h, link, DL_RECOVERY),
                    counter(h, link, DL_CRC_FLIT), counter(h, link, DL_CRC_DATA), counter(h, link, DL_ECC_DATA)));
        }
        if (out.isEmpty()) {
            return first == NvmlReturn.SUCCESS ? Fact.absent("no NVLink answered") : NvmlHealthCalls.failed("nvmlDeviceGetNvLinkState", first);
        }
        return Fact.of(List.copyOf(out));
    }

    private Fact<Long> counter(Pointer h, int link, int counter) {
        LongByReference v = new LongByReference();
        int rc = nvml.call("nvmlDeviceGetNvLinkErrorCounter", h, link, counter, v);
        return rc == NvmlReturn.SUCCESS ? Fact.of(v.getValue()) : NvmlHealthCalls.failed("nvmlDeviceGetNvLinkErrorCounter", rc);
    }
}
