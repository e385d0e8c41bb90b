package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Map;

/**
 * The counters of every RDMA port at one instant, as the kernel and the driver count them: cumulative since the
 * driver loaded or the counters were last cleared. One snapshot says little; two around a run say what the run did
 * ({@link CounterDelta}).
 *
 * @param monotonicNs a monotonic clock (System.nanoTime) when reading began; only the difference between two
 *                    snapshots of one process means anything
 * @param takenAt     the wall clock when reading began, ISO-8601 UTC, for people
 * @param readingMs   how long reading every file and `ethtool -S` took: the snapshot is smeared over that long
 * @param ports       every port of every RDMA device (or those selected), or why there are none
 */
public record CounterSnapshot(long monotonicNs, String takenAt, long readingMs, Fact<List<Port>> ports) {

    /**
     * One port.
     *
     * @param state      "4: ACTIVE" → ACTIVE
     * @param linkLayer  InfiniBand or Ethernet (RoCE)
     * @param rateGbps   "100 Gb/sec (4X EDR)" → 100
     * @param counters   every file of ports/N/counters (the IBA PortCounters through the PMA: symbol_error,
     *                   port_xmit_data …), name → value, or why that file gave none ("N/A (no PMA)", permission denied)
     * @param hwCounters every file of ports/N/hw_counters (the driver's own: mlx5 np_cnp_sent, out_of_sequence …)
     * @param netdevs    the port's net devices, each with its `ethtool -S` statistics
     * @param driver     the kernel driver of the device's PCI function (device/driver): mlx5_core, bnxt_en (whose
     *                   RDMA driver is bnxt_re), ice or i40e (irdma), efa; which counter names to expect
     *                   ({@link DriverCounters})
     */
    public record Port(String device, int port, Fact<String> state, Fact<String> linkLayer, Fact<Double> rateGbps,
                       Fact<Map<String, Fact<Long>>> counters, Fact<Map<String, Fact<Long>>> hwCounters,
                       Fact<List<Netdev>> netdevs, Fact<String> driver) {

        public Port {
            driver = driver == null ? Fact.absent(RdmaDevices.NOT_RECORDED) : driver;
        }

        public Port(String device, int port, Fact<String> state, Fact<String> linkLayer, Fact<Double> rateGbps,
                    Fact<Map<String, Fact<Long>>> counters, Fact<Map<String, Fact<Long>>> hwCounters, Fact<List<Netdev>> netdevs) {
            this(device, port, state, linkLayer, rateGbps, counters, hwCounters, netdevs, Fact.absent("not read"));
        }

        /** "mlx5_0 port 1", as the other RDMA findings name a port. */
        public String label() {
            return device + " port " + port;
        }
    }

    /**
     * @param ethtool `ethtool -S NAME`: statistic → value (mlx5: rx_prio3_pause, tx_pause_storm_error_events …), or why
     *                there is none (ethtool missing, not run for an InfiniBand port, failed)
     */
    public record Netdev(String name, Fact<Map<String, Long>> ethtool) {
    }
}
