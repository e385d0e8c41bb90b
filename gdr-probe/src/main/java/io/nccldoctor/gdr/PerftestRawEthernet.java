package io.nccldoctor.gdr;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packet the raw_ethernet tests build, as they print it with --full-verbosity and on the server's side
 * (linux-rdma/perftest src/raw_ethernet_resources.c at 00b55b6): the flow spec lines of print_spec ("spec_info - dst_ip
 * : %s", :278-298), the Ethernet header table of print_ethernet_header (:331-354, "| Dest MAC | Src MAC | Packet Type
 * |" then one row) or print_ethernet_vlan_header (:381-407, with a "vlan tag" cell "0x%08x"), and the boxes of
 * print_ip_header (:425-444), print_ip6_header (:460-473), print_udp_header (:485-491) and print_tcp_header
 * (:503-509), each a "**NAME header****" line and "|Field |value|" rows. Each value goes into the header fields under
 * its box's name ("Dest MAC", "IP Source IP", "UDP Dest Port", "spec_info dst_ip"); a field printed twice with
 * different values (one box per flow or QP) keeps both, joined, never the last alone.
 */
final class PerftestRawEthernet {

    private static final Pattern BOX = Pattern.compile("^\\*+\\s*(raw ethernet|IP|IPv6|UDP|TCP) header\\s*\\*+$");
    private static final Pattern MAC_COLUMNS = Pattern.compile("^\\|\\s*Dest MAC\\s*\\|\\s*Src MAC\\s*\\|(?:\\s*vlan tag\\s*\\|)?\\s*Packet Type\\s*\\|$");
    private static final String MAC = "((?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2})";
    private static final Pattern MAC_ROW = Pattern.compile("^\\|\\s*" + MAC + "\\s*\\|\\s*" + MAC + "\\s*\\|(?:\\s*(0x[0-9a-fA-F]+)\\s*\\|)?\\s*(\\S+)\\s*\\|$");
    private static final Pattern FIELD = Pattern.compile("^\\|([A-Za-z][A-Za-z ]*?)\\s*\\|\\s*(\\S+)\\s*\\|$");
    private static final Pattern SPEC = Pattern.compile("^spec_info - (dst_ip|src_ip|dst_port|src_port)\\s*:\\s*(\\S+)$");

    /** The box whose rows come next: "IP", "UDP" …, or null before the first box. */
    private String box;

    /** True when the line is one of the raw_ethernet packet lines; its values go into header. */
    boolean line(String s, Map<String, String> header) {
        Matcher m;
        if ((m = BOX.matcher(s)).matches()) {
            box = m.group(1).equals("raw ethernet") ? null : m.group(1);
            return true;
        }
        if (MAC_COLUMNS.matcher(s).matches()) {
            return true;
        }
        if ((m = MAC_ROW.matcher(s)).matches()) {
            put(header, "Dest MAC", m.group(1).toUpperCase(Locale.ROOT));
            put(header, "Src MAC", m.group(2).toUpperCase(Locale.ROOT));
            if (m.group(3) != null) {
                put(header, "vlan tag", m.group(3));
            }
            put(header, "Packet Type", m.group(4));
            return true;
        }
        if ((m = SPEC.matcher(s)).matches()) {
            put(header, "spec_info " + m.group(1), m.group(2));
            return true;
        }
        if (box != null && (m = FIELD.matcher(s)).matches()) {
            put(header, box + " " + m.group(1).replaceAll("\\s+", " "), m.group(2));
            return true;
        }
        return false;
    }

    private static void put(Map<String, String> header, String key, String value) {
        String before = header.get(key);
        if (before == null) {
            header.put(key, value);
        } else if (!List.of(before.split(", ")).contains(value)) {
            header.put(key, before + ", " + value);
        }
    }
}
