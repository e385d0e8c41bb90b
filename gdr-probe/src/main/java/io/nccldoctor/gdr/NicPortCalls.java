package io.nccldoctor.gdr;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The native edge of the port rates: libibverbs' device list, ibv_open_device and ibv_query_port. The exported
 * ibv_query_port (IBVERBS_1.1) fills rdma-core's struct _compat_ibv_port_attr (libibverbs/verbs.c): four 4-byte
 * enums and ints, four uint32, three uint16, then bytes lmc, max_vl_num, sm_sl, subnet_timeout, init_type_reply,
 * active_width at 43, active_speed at 44, phys_state, link_layer at 46, flags; 48 bytes. Codes: verbs.h
 * (IBV_PORT_*, IBV_LINK_LAYER_*) and rdma-core libibverbs/examples/devinfo.c (width_str, speed_str) at 691953d.
 */
final class NicPortCalls {

    private static final int ATTR_BYTES = 48;
    private static final int WIDTH_AT = 43;
    private static final int SPEED_AT = 44;
    private static final int LINK_LAYER_AT = 46;
    /** Ports are numbered from 1; an HCA has one or two (a port past the last answers EINVAL). */
    private static final int MAX_PORTS = 2;
    private static final String[] STATES = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

    private NicPortCalls() {
    }

    static Fact<List<NicPorts.Port>> query(String libibverbs) {
        NativeLibrary ibv;
        try {
            ibv = JnaLoader.open(libibverbs);
        } catch (LinkageError e) {
            return Fact.error("cannot load " + libibverbs + ": " + JnaLoader.reason(e));
        }
        try {
            IntByReference count = new IntByReference();
            Pointer list = ibv.getFunction("ibv_get_device_list").invokePointer(new Object[] {count});
            if (list == null) {
                return DeviceListFailure.of(Native.getLastError());
            }
            try {
                List<NicPorts.Port> ports = new ArrayList<>();
                for (int i = 0; i < count.getValue(); i++) {
                    Fact<List<NicPorts.Port>> one = device(ibv, list.getPointer((long) i * Native.POINTER_SIZE));
                    if (!one.isValue()) {
                        return one;
                    }
                    ports.addAll(one.get());
                }
                return ports.isEmpty() ? Fact.absent("ibv_get_device_list found no RDMA device") : Fact.of(List.copyOf(ports));
            } finally {
                ibv.getFunction("ibv_free_device_list").invokeVoid(new Object[] {list});
            }
        } catch (UnsatisfiedLinkError e) {
            return Fact.error("a libibverbs symbol is missing: " + JnaLoader.reason(e));
        }
    }

    private static Fact<List<NicPorts.Port>> device(NativeLibrary ibv, Pointer dev) {
        String name = ibv.getFunction("ibv_get_device_name").invokeString(new Object[] {dev}, false);
        Pointer ctx = ibv.getFunction("ibv_open_device").invokePointer(new Object[] {dev});
        if (ctx == null) {
            return Fact.error("ibv_open_device(" + name + ") failed, errno " + Native.getLastError());
        }
        try {
            List<NicPorts.Port> out = new ArrayList<>();
            for (int port = 1; port <= MAX_PORTS; port++) {
                Memory attr = new Memory(ATTR_BYTES);
                attr.clear();
                int rc = ibv.getFunction("ibv_query_port").invokeInt(new Object[] {ctx, (byte) port, attr});
                if (rc != 0) {
                    if (port == 1) {
                        return Fact.error("ibv_query_port(" + name + ", 1) returned " + rc);
                    }
                    break; // no such port
                }
                out.add(port(name, port, attr));
            }
            return Fact.of(out);
        } finally {
            ibv.getFunction("ibv_close_device").invokeInt(new Object[] {ctx});
        }
    }

    static NicPorts.Port port(String device, int port, Memory attr) {
        int state = attr.getInt(0);
        int width = attr.getByte(WIDTH_AT) & 0xff;
        int speed = attr.getByte(SPEED_AT) & 0xff;
        int layer = attr.getByte(LINK_LAYER_AT) & 0xff;
        int lanes = lanes(width);
        double lane = laneGbps(speed);
        return new NicPorts.Port(device, port, state >= 0 && state < STATES.length ? STATES[state] : "state " + state,
                layer == 2 ? "Ethernet" : layer == 1 ? "InfiniBand" : "link layer " + layer, lanes, speedName(speed), lanes * lane);
    }

    /** devinfo.c width_str: 1 → 1X, 2 → 4X, 4 → 8X, 8 → 12X, 16 → 2X; 0 for an unknown code. */
    static int lanes(int width) {
        return switch (width) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    /** devinfo.c speed_str, Gbps per lane: SDR 2.5, DDR 5, QDR and FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100. */
    static double laneGbps(int speed) {
        return switch (speed) {
            case 1 -> 2.5;
            case 2 -> 5.0;
            case 4, 8 -> 10.0;
            case 16 -> 14.0;
            case 32 -> 25.0;
            case 64 -> 50.0;
            case 128 -> 100.0;
            default -> 0.0;
        };
    }

    static String speedName(int speed) {
        return switch (speed) {
            case 1 -> "SDR";
            case 2 -> "DDR";
            case 4 -> "QDR";
            case 8 -> "FDR10";
            case 16 -> "FDR";
            case 32 -> "EDR";
            case 64 -> "HDR";
            case 128 -> "NDR";
            default -> "speed " + speed;
        };
    }
}
