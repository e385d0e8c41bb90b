package io.nccldoctor.gdr;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.nccldoctor.core.Fact;

/**
 * The GPU's NVLink fabric registration (nvmlDeviceGetGpuFabricInfoV, Hopper and newer): on NVSwitch systems the Fabric
 * Manager registers each GPU, and only then is peer-to-peer over NVLink possible (nvml.h). Asked with the v3 struct,
 * then v2 when the driver answers ARGUMENT_VERSION_MISMATCH, then the unversioned nvmlDeviceGetGpuFabricInfo of drivers
 * without the V call. Layouts (nvml.h, offsets checked with offsetof): v3 40 bytes {version, clusterUuid[16], status
 * at 20, cliqueId, state (unsigned char) at 28, healthMask at 32, healthSummary (unsigned char) at 36}; v2 36 bytes
 * without healthSummary; the unversioned 28 bytes {clusterUuid[16], status at 16, cliqueId, state at 24}. The version
 * word is NVML_STRUCT_VERSION: sizeof | version << 24.
 */
final class NvmlFabric {

    /** NVML_GPU_FABRIC_STATE_*. */
    static final String[] STATES = {"NOT_SUPPORTED", "NOT_STARTED", "IN_PROGRESS", "COMPLETED"};
    /** NVML_GPU_FABRIC_HEALTH_SUMMARY_*. */
    static final String[] SUMMARIES = {"NOT_SUPPORTED", "HEALTHY", "UNHEALTHY", "LIMITED_CAPACITY"};

    private NvmlFabric() {
    }

    static Fact<GpuHealth.Fabric> of(NvmlHealthCalls.Caller nvml, Pointer h) {
        Memory m = new Memory(40);
        int version = 3;
        int rc = versioned(nvml, h, m, 40, 3);
        if (rc == NvmlReturn.ERROR_ARGUMENT_VERSION_MISMATCH) {
            version = 2;
            rc = versioned(nvml, h, m, 36, 2);
        }
        if (rc == Integer.MIN_VALUE) {
            m.clear();
            rc = nvml.call("nvmlDeviceGetGpuFabricInfo", h, m);
            return rc == NvmlReturn.SUCCESS ? read(m, 16, 24, -1, -1) : NvmlHealthCalls.failed("nvmlDeviceGetGpuFabricInfo", rc);
        }
        if (rc != NvmlReturn.SUCCESS) {
            return NvmlHealthCalls.failed("nvmlDeviceGetGpuFabricInfoV", rc);
        }
        return read(m, 20, 28, 32, version == 3 ? 36 : -1);
    }

    private static int versioned(NvmlHealthCalls.Caller nvml, Pointer h, Memory m, int size, int version) {
        m.clear();
        m.setInt(0, size | version << 24);
        return nvml.call("nvmlDeviceGetGpuFabricInfoV", h, m);
    }

    private static Fact<GpuHealth.Fabric> read(Memory m, int statusAt, int stateAt, int maskAt, int summaryAt) {
        int state = m.getByte(stateAt) & 0xff;
        if (state == 0) {
            return Fact.absent("not supported on this GPU (fabric probe state NVML_GPU_FABRIC_STATE_NOT_SUPPORTED: no NVLink fabric)");
        }
        String name = state < STATES.length ? STATES[state] : "state " + state;
        // the status "must be checked only if state returns complete" (nvml.h)
        Fact<String> status = state == 3 ? Fact.of(NvmlReturn.shortName(m.getInt(statusAt)))
                : Fact.absent("the registration has not completed (" + name + ")");
        Fact<Long> mask = maskAt < 0 ? Fact.absent("the unversioned fabric info has no health mask")
                : Fact.of(Integer.toUnsignedLong(m.getInt(maskAt)));
        Fact<String> summary = summaryAt < 0 ? Fact.absent("this driver answers the v2 fabric info, without a health summary")
                : Fact.of(summary(m.getByte(summaryAt) & 0xff));
        return Fact.of(new GpuHealth.Fabric(name, status, mask, summary));
    }

    private static String summary(int s) {
        return s < SUMMARIES.length ? SUMMARIES[s] : "summary " + s;
    }
}
