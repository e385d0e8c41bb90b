package io.nccldoctor.gdr;

import java.util.List;

/**
 * The figures a run's counter deltas are read as, and the counters each comes from: the one table of counter names
 * (reference/peers-and-platform.md B4: kernel sysfs.c for counters/, NVIDIA's "Understanding mlx5 Linux Counters" for
 * hw_counters/, the kernel's mlx5 counters.rst for ethtool -S). Keys are the JSON field names, units in the name.
 * A figure from several counters is their sum; PFC pauses per priority are {@link CounterDelta.PriorityPauses}.
 */
public enum CounterFigure {

    /** port_xmit_data counts octets divided by 4, whatever the link width (IBA PortCounters; sysfs.c). */
    TX_BYTES("txBytes", 4, "counters/port_xmit_data"),
    RX_BYTES("rxBytes", 4, "counters/port_rcv_data"),
    TX_PACKETS("txPackets", 1, "counters/port_xmit_packets"),
    RX_PACKETS("rxPackets", 1, "counters/port_rcv_packets"),
    /** IEEE 802.3x pause frames received (the link partner stopped all our traffic), sent, and their durations in µs. */
    RX_GLOBAL_PAUSES("rxGlobalPauses", 1, "ethtool/rx_global_pause"),
    TX_GLOBAL_PAUSES("txGlobalPauses", 1, "ethtool/tx_global_pause"),
    RX_GLOBAL_PAUSE_US("rxGlobalPauseUs", 1, "ethtool/rx_global_pause_duration"),
    TX_GLOBAL_PAUSE_US("txGlobalPauseUs", 1, "ethtool/tx_global_pause_duration"),
    /** The NIC kept sending pauses past its stall watermarks (device_stall_minor/critical_watermark, mlx5). */
    PAUSE_STORM_WARNINGS("pauseStormWarnings", 1, "ethtool/tx_pause_storm_warning_events"),
    PAUSE_STORM_ERRORS("pauseStormErrors", 1, "ethtool/tx_pause_storm_error_events"),
    /** Notification point: RoCE packets that arrived with ECN CE set, and the CNPs this port sent back for them. */
    ECN_MARKED("ecnMarkedPackets", 1, "hw_counters/np_ecn_marked_roce_packets"),
    CNP_SENT("cnpSent", 1, "hw_counters/np_cnp_sent"),
    /** Reaction point: CNPs that made this port slow down, and CNPs it received and ignored. */
    CNP_HANDLED("cnpHandled", 1, "hw_counters/rp_cnp_handled"),
    CNP_IGNORED("cnpIgnored", 1, "hw_counters/rp_cnp_ignored"),
    /** Packets that arrived with a PSN beyond the expected one (the responder NAKs them and the sender goes back). */
    OUT_OF_SEQUENCE("outOfSequence", 1, "hw_counters/out_of_sequence"),
    /** NAK sequence errors received: the peer saw a gap, this port retransmits from the missing PSN. */
    PACKET_SEQ_ERRORS("packetSeqErrors", 1, "hw_counters/packet_seq_err"),
    /** The QP's ACK timer expired: at least 4.096 µs × 2^timeout without an answer (NCCL_IB_TIMEOUT). */
    ACK_TIMEOUTS("localAckTimeouts", 1, "hw_counters/local_ack_timeout_err"),
    RETRANSMISSIONS("retransmissions", 1, "hw_counters/roce_adp_retrans"),
    RETRANSMISSION_TIMEOUTS("retransmissionTimeouts", 1, "hw_counters/roce_adp_retrans_to"),
    RNR_NAK_RETRIES("rnrNakRetryErrors", 1, "hw_counters/rnr_nak_retry_err"),
    /** Packets dropped because the receive queue had no WQE posted. */
    OUT_OF_BUFFER("outOfBuffer", 1, "hw_counters/out_of_buffer"),
    /** Received packets dropped for lack of NIC buffer (the NIC could not absorb what the network sent). */
    RX_DISCARDS_PHY("rxDiscardsPhy", 1, "ethtool/rx_discards_phy"),
    /** Packets discarded on transmission: link down, head-of-line drop, pause from the network. */
    TX_DISCARDS_PHY("txDiscardsPhy", 1, "ethtool/tx_discards_phy"),
    XMIT_DISCARDS("xmitDiscards", 1, "counters/port_xmit_discards"),
    SYMBOL_ERRORS("symbolErrors", 1, "counters/symbol_error"),
    PCS_SYMBOL_ERRORS("pcsSymbolErrors", 1, "ethtool/rx_pcs_symbol_err_phy"),
    LINK_ERROR_RECOVERIES("linkErrorRecoveries", 1, "counters/link_error_recovery"),
    LINK_DOWNED("linkDowned", 1, "counters/link_downed"),
    LINK_DOWN_EVENTS("linkDownEvents", 1, "ethtool/link_down_events_phy");

    private final String key;
    private final long scale;
    private final List<String> counters;

    CounterFigure(String key, long scale, String... counters) {
        this.key = key;
        this.scale = scale;
        this.counters = List.of(counters);
    }

    /** The JSON name, unit in the name where it has one: txBytes, rxGlobalPauseUs. */
    public String key() {
        return key;
    }

    /** What one count of the source counters is worth: 4 bytes for port_xmit_data. */
    public long scale() {
        return scale;
    }

    /** Source counters as {@link CounterDelta.PortDelta#counters()} names them: "counters/port_xmit_data". */
    public List<String> counters() {
        return counters;
    }
}
