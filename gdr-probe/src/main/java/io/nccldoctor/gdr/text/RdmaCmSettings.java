package io.nccldoctor.gdr.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * rdma_cm's per-port defaults in configfs (drivers/infiniband/core/cma_configfs.c, present once `mkdir
 * /sys/kernel/config/rdma_cm/DEV` made the device's folder): default_roce_mode, the GID type rdma_cm gives the
 * connections it makes on the port unless they choose one, and default_roce_tos. A paste may read a file, write it
 * (`echo "RoCE v1" > …`) and read it again: every value is kept in order, the last reading is the setting. NCCL's IB
 * transport does not use rdma_cm (no rdma_cm call in NVIDIA/nccl src at 5067397c): it picks its GID itself.
 */
final class RdmaCmSettings {

    private final List<String> notes;

    RdmaCmSettings(List<String> notes) {
        this.notes = notes;
    }

    /** One value of an rdma_cm default, read from its file or written to it by a command. */
    private record CmValue(String value, Slot.Line at, boolean written) {
        @Override
        public String toString() {
            return (written ? "written " + value + " (line " + at.number() + ")" : value + " (" + at + ")");
        }
    }

    /** rdma_cm's defaults per "device/port/setting", every value in the order the input shows them. */
    private final Map<String, List<CmValue>> values = new LinkedHashMap<>();

    /**
     * A value of rdma_cm's default_roce_mode or default_roce_tos, read (false when it is none the file holds) or written.
     * cma_configfs.c prints the mode with ib_cache_gid_type_str (drivers/infiniband/core/cache.c: "IB/RoCE v1" or "RoCE
     * v2"; a RHEL 7 guide shows "RoCE v1") and the ToS as a number.
     */
    boolean put(String device, int port, String setting, String value, Slot.Line at, boolean written) {
        boolean mode = setting.equals("default_roce_mode");
        boolean readable = mode ? value.matches("(?:IB/)?RoCE v[12]") : value.matches("\\d{1,3}");
        if (!readable && !written) {
            notes.add(device + " port " + port + " " + setting + ": '" + value + "' (" + at + ") is no value rdma_cm prints; not read");
            return false;
        }
        values.computeIfAbsent(device + "/" + port + "/" + setting, k -> new ArrayList<>()).add(new CmValue(value, at, written));
        return true;
    }

    /** The last value read of each rdma_cm default, with notes on what changed and what the mode means. */
    List<RdmaPaste.RdmaCmDefault> settings() {
        List<RdmaPaste.RdmaCmDefault> out = new ArrayList<>();
        values.forEach((key, list) -> {
            String[] k = key.split("/");
            String label = k[0] + " port " + k[1] + " " + k[2];
            List<CmValue> read = list.stream().filter(v -> !v.written()).toList();
            if (list.size() > 1) {
                notes.add(label + ": " + String.join(", then ", list.stream().map(CmValue::toString).toList())
                        + (read.isEmpty() ? "; no reading after it" : "; the last reading is taken"));
            }
            if (read.isEmpty()) {
                return;
            }
            CmValue last = read.get(read.size() - 1);
            out.add(new RdmaPaste.RdmaCmDefault(k[0], Integer.parseInt(k[1]), k[2], last.value(), last.at().number()));
            if (k[2].equals("default_roce_mode")) {
                notes.add(k[0] + " port " + k[1] + ": rdma_cm gives its connections " + (last.value().endsWith("v1") ? "RoCE v1 "
                        + "(an Ethernet frame, not IP: it does not cross a router)" : "RoCE v2 (UDP/IP, routable)") + " unless they "
                        + "choose a GID type (" + last.at() + "); this is rdma_cm's default only: NCCL does not use rdma_cm and "
                        + "picks its GID itself (NCCL_IB_GID_INDEX, NCCL_IB_ROCE_VERSION_NUM)");
            }
        });
        return out;
    }
}
