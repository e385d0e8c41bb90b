package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Locale;

/**
 * The RDMA ports libibverbs opens, as NCCL's IB transport sees them (ibv_query_port), with their line rate.
 *
 * @param ports every port of every device ibv_get_device_list lists
 */
public record NicPorts(Fact<List<Port>> ports) {

    /**
     * @param state     IBV_PORT_* name: ACTIVE, DOWN, INIT, ARMED …
     * @param linkLayer InfiniBand or Ethernet (RoCE)
     * @param lanes     active_width as a lane count (1X, 2X, 4X, 8X, 12X)
     * @param speed     active_speed as ibv_devinfo names it: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR
     * @param rateGbps  lanes × the lane rate ibv_devinfo prints (2.5, 5, 10, 10, 14, 25, 50, 100 Gbps), the figure the
     *                  kernel's sysfs "rate" shows ("400 Gb/sec (4X NDR)")
     */
    public record Port(String device, int port, String state, String linkLayer, int lanes, String speed, double rateGbps) {

        public boolean active() {
            return "ACTIVE".equals(state);
        }

        /** "mlx5_0 port 1 (4X NDR, 400 Gb/s)". */
        public String describe() {
            return device + " port " + port + " (" + lanes + "X " + speed + ", " + gbps(rateGbps) + " Gb/s)";
        }
    }

    /** A rate as the kernel prints it: "400", "2.5". */
    public static String gbps(double rate) {
        return rate == Math.rint(rate) ? String.format(Locale.ROOT, "%.0f", rate) : String.format(Locale.ROOT, "%.1f", rate);
    }
}
