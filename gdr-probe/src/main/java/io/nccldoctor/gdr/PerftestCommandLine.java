package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A perftest command line pasted above its output ("# raw_ethernet_lat … --server", "$ ./ib_write_bw … HOST",
 * "./ib_write_bw … -p 50001"), read the way perftest's parser reads it, for the side it ran on.
 *
 * <p>linux-rdma/perftest src/perftest_parameters.c (at 00b55b6): getopt_long with the short options
 * "w:y:p:d:i:m:s:n:t:u:S:x:c:q:I:o:M:r:Q:A:l:D:f:B:T:L:E:J:j:K:k:X:W:aFegzRvhbNVCHUOZP" (:3295) and the long options
 * of :3100-3294; one word left over is the server's address (:4382), more is "Invalid Command line" (:4385). An
 * ib_* test is the client with an address and the server without (:4390); a raw_ethernet test has no address rule
 * and takes the side from -Z/--server or -P/--client only (:3569-3570); --reversed swaps the two (:4394).
 *
 * @param program the perftest program named ("ib_write_bw", "raw_ethernet_lat")
 * @param side    "server" or "client" as perftest decides it from these words, or why these words do not tell
 * @param options what the words ask, in their order, by perftest's long option name ("ib-dev" for -d, "gid-index" for
 *                -x, "use_cuda", "use_cuda_dmabuf"): the value given, "on" for an option without one, and "server
 *                address" for the word left over; empty when the words are not all perftest's (the side says which)
 */
record PerftestCommandLine(String program, Fact<String> side, Map<String, String> options) {

    /**
     * The short options by their long names (the .val of each long option, perftest_parameters.c:3104-3141); one
     * without a long name keeps its letter ("-w").
     */
    private static final Map<Character, String> SHORT_NAMES = Map.ofEntries(Map.entry('p', "port"), Map.entry('d', "ib-dev"),
            Map.entry('i', "ib-port"), Map.entry('m', "mtu"), Map.entry('s', "size"), Map.entry('n', "iters"), Map.entry('t', "tx-depth"),
            Map.entry('u', "qp-timeout"), Map.entry('S', "sl"), Map.entry('x', "gid-index"), Map.entry('a', "all"), Map.entry('F', "CPU-freq"),
            Map.entry('c', "connection"), Map.entry('q', "qp"), Map.entry('e', "events"), Map.entry('X', "vector"), Map.entry('I', "inline_size"),
            Map.entry('o', "outs"), Map.entry('g', "mcg"), Map.entry('z', "comm_rdma_cm"), Map.entry('R', "rdma_cm"), Map.entry('T', "tos"),
            Map.entry('L', "hop_limit"), Map.entry('h', "help"), Map.entry('M', "MGID"), Map.entry('r', "rx-depth"), Map.entry('b', "bidirectional"),
            Map.entry('Q', "cq-mod"), Map.entry('N', "noPeak"), Map.entry('V', "version"), Map.entry('C', "report-cycles"),
            Map.entry('H', "report-histogrm"), Map.entry('U', "report-unsorted"), Map.entry('A', "atomic_type"), Map.entry('O', "dualport"),
            Map.entry('l', "post_list"));

    /** Makefile.am bin_PROGRAMS (:77, :115). */
    private static final Pattern PROGRAM = Pattern.compile("(?:.*/)?(ib_(?:send|write|read|atomic)_(?:bw|lat)|raw_ethernet_(?:bw|lat|burst_lat|fs_rate))");
    /**
     * What stands before the command: a shell prompt ("#", "$", ">", "user@host:~$", "(venv) user@host:~$", a RHEL
     * prompt whose brackets hold a blank, "[root@localhost perftest-master]# "), or the mark `bash -x` puts before each
     * traced command ("+ ", "++ ").
     */
    private static final Pattern PROMPT = Pattern.compile("^(?:\\([^)]*\\)\\s*)?(?:\\[[^\\]]*\\]\\s?[$#]\\s*|\\S*[$#>]\\s+|[$#>]|\\+{1,3}\\s+)");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=\\S*");
    /**
     * Programs that run the command after their own words, and their options that take the next word as a value
     * ("" for none): sudo (sudo(8): -u user, -g group, -C num, -D dir, -p prompt, -r role, -t type, -U user), env
     * (-u name, -C dir, then NAME=value words), taskset (util-linux taskset(1): options, then the mask or, with -c, the
     * CPU list, then the command), numactl (numactl(8): -N/-m/-C/-i/-p/-w take nodes or CPUs; "--cpunodebind=0" is
     * one word), timeout (coreutils timeout(1): -k duration, -s signal, then the duration), nohup, time, nice (-n).
     * A word taken after the options: taskset's mask, timeout's duration.
     */
    private static final Map<String, String> WRAPPER_OPTIONS = Map.of("sudo", "ugCDprtU", "env", "uC", "taskset", "", "numactl",
            "NmCipwfLMy", "timeout", "ks", "nohup", "", "time", "", "nice", "n");
    private static final Set<String> WRAPPER_TAKES_A_WORD = Set.of("taskset", "timeout");
    /** The short options that take a value (the letters before ':' in the getopt string, :3295). */
    private static final String SHORT_WITH_VALUE = "wypdimsntuSxcqIoMrQAlDfBTLEJjKkXW";
    private static final String SHORT_FLAGS = "aFegzRvhbNVCHUOZP";
    /** The long options with .has_arg = 1 (perftest_parameters.c:3100-3294). */
    private static final Set<String> LONG_WITH_VALUE = Set.of("MGID", "aes_block_size", "atomic_type", "bind_source_ip", "burst_size",
            "congest_type", "connection", "cpu_id", "cq-mod", "cqe_poll", "credentials_path", "cuda_mem_type", "data_enc_key_app_path",
            "data_enc_keys_number", "dest_ip", "dest_mac", "dest_port", "dlid", "duration", "ethertype", "flow_label", "flows", "flows_burst",
            "force-link", "gid-index", "gpu_touch", "hop_limit", "ib-dev", "ib-port", "inline_size", "iters", "kek_path", "latency_gap",
            "limit_bw", "limit_msgrate", "local_ip", "local_mac", "local_port", "log_active_dci_streams", "log_dci_streams", "margin", "mmap",
            "mmap-offset", "mtu", "numa_node", "opencl_platform_id", "out_json_file", "output", "outs", "payload_file_path", "ph",
            "pin_cores", "pkey_index", "port", "post_list", "qp", "qp-timeout", "rate_limit", "rate_limit_type", "rate_units",
            "recv_post_list", "remote_ip", "remote_mac", "remote_port", "reply_every", "report-counters", "retry_count", "rx-depth", "size",
            "sl", "source_ip", "source_mac", "source_port", "tclass", "tos", "tph_mem", "tx-depth", "typical_pkt_size", "use_cuda",
            "use_cuda_bus_id", "use_hl", "use_ib_dm_dmabuf", "use_mlu", "use_musa", "use_musa_bus_id", "use_neuron", "use_opencl",
            "use_rocm", "vector", "vlan_pcp", "wait_destroy");

    /** The long options with .has_arg = 0 (perftest_parameters.c:3100-3294). */
    private static final Set<String> LONG_FLAGS = Set.of("CPU-freq", "aes_xts", "all", "bidirectional", "client", "comm_rdma_cm",
            "connectionless", "cpu_util", "data_validation", "data_validation_debug", "disable_dynamic_polling", "disable_numa",
            "disable_pcie_relaxed", "dont_xchg_versions", "dualport", "encrypt_on_tx", "events", "help", "ipv6", "ipv6-addr", "mac_fwd",
            "mcg", "mr_per_qp", "noPeak", "no_enhanced_reorder", "no_lock", "odp", "out_json", "perform_warm_up", "promiscuous",
            "raw_ipv6", "raw_mcast", "rdma_cm", "report-both", "report-cycles", "report-histogrm", "report-per-port", "report-unsorted",
            "report_gbits", "reversed", "run_infinitely", "send_with_imm", "server", "sig_before", "sig_offload", "sniffer", "tcp",
            "unsolicited_write", "use-null-mr", "use-srq", "use_cuda_dmabuf", "use_cuda_pcie_mapping", "use_data_direct", "use_hugepages",
            "use_mlu_dmabuf", "use_musa_dmabuf", "use_musa_pcie_mapping", "use_neuron_dmabuf", "use_old_post_send", "use_ooo",
            "use_rocm_dmabuf", "use_rss", "version", "vlan_en", "write_with_imm");

    /** The command on this line, or null when the line names no perftest program as its command. */
    static PerftestCommandLine of(String line) {
        List<String> words = List.of(PROMPT.matcher(line.strip()).replaceFirst("").strip().split("\\s+"));
        int at = programAt(words);
        if (at >= words.size() || !PROGRAM.matcher(words.get(at)).matches()) {
            return null;
        }
        String program = words.get(at).substring(words.get(at).lastIndexOf('/') + 1);
        List<String> args = words.subList(at + 1, words.size());
        return new PerftestCommandLine(program, side(program, args), options(args));
    }

    /**
     * The options as perftest's parser takes them; empty when a word is none of its options or more than one word is
     * left over (side() says which), for then what each word means is not known.
     */
    private static Map<String, String> options(List<String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                String[] nameValue = a.substring(2).split("=", 2);
                boolean valued = LONG_WITH_VALUE.contains(nameValue[0]);
                if (!valued && !LONG_FLAGS.contains(nameValue[0])) {
                    return Map.of();
                }
                out.put(nameValue[0], nameValue.length == 2 ? nameValue[1] : valued && i + 1 < args.size() ? args.get(++i) : "on");
            } else if (a.startsWith("-") && a.length() > 1) {
                for (int c = 1; c < a.length(); c++) {
                    char o = a.charAt(c);
                    String name = SHORT_NAMES.getOrDefault(o, "-" + o);
                    if (SHORT_WITH_VALUE.indexOf(o) >= 0) {
                        out.put(name, c < a.length() - 1 ? a.substring(c + 1) : i + 1 < args.size() ? args.get(++i) : "");
                        break;
                    }
                    if (SHORT_FLAGS.indexOf(o) < 0) {
                        return Map.of();
                    }
                    out.put(name, "on");
                }
            } else if (out.putIfAbsent("server address", a) != null) {
                return Map.of();
            }
        }
        return out;
    }

    /**
     * The index of the first word after the wrappers people put before perftest ("sudo taskset -c 17 ib_send_bw …",
     * "numactl --cpunodebind=0 --membind=0 ib_write_bw …", "timeout 60 ib_read_bw …", "NCCL_X=1 ib_write_bw").
     */
    private static int programAt(List<String> words) {
        int at = 0;
        while (at < words.size()) {
            String w = words.get(at);
            if (ENV.matcher(w).matches()) {
                at++;
                continue;
            }
            String valued = WRAPPER_OPTIONS.get(w);
            if (valued == null) {
                return at;
            }
            at++;
            while (at < words.size() && words.get(at).startsWith("-") && words.get(at).length() > 1) {
                String o = words.get(at++);
                boolean shortWithValue = !o.startsWith("--") && o.length() == 2 && valued.indexOf(o.charAt(1)) >= 0;
                boolean longWithValue = o.startsWith("--") && !o.contains("=") && !o.equals("--") && valued.length() > 0
                        && !LONG_WRAPPER_FLAGS.contains(o);
                if (o.equals("--")) {
                    break;
                }
                at += shortWithValue || longWithValue ? 1 : 0;
            }
            at += WRAPPER_TAKES_A_WORD.contains(w) ? 1 : 0;
        }
        return at;
    }

    /** The long options of sudo, env, numactl and timeout that take no value ("--preserve-status", "--localalloc"). */
    private static final Set<String> LONG_WRAPPER_FLAGS = Set.of("--preserve-env", "--login", "--non-interactive", "--background",
            "--ignore-environment", "--localalloc", "--all", "--hardware", "--show", "--strict", "--preserve-status", "--foreground",
            "--verbose", "--set-home", "--shell");

    private static Fact<String> side(String program, List<String> args) {
        boolean raw = program.startsWith("raw_ethernet");
        String chosen = null; // -Z / -P
        boolean reversed = false;
        int addresses = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                String name = a.substring(2).split("=", 2)[0];
                chosen = name.equals("server") ? "server" : name.equals("client") ? "client" : chosen;
                reversed |= name.equals("reversed");
                if (LONG_WITH_VALUE.contains(name) && !a.contains("=")) {
                    i++;
                } else if (!a.contains("=") && !LONG_WITH_VALUE.contains(name) && !LONG_FLAGS.contains(name)) {
                    return Fact.absent("the command line has --" + name + ", an option perftest's parser does not list "
                            + "(perftest_parameters.c:3100-3294): whether it takes the next word decides if a server address was given");
                }
            } else if (a.startsWith("-") && a.length() > 1) {
                for (int c = 1; c < a.length(); c++) {
                    char o = a.charAt(c);
                    if (SHORT_WITH_VALUE.indexOf(o) >= 0) {
                        i += c == a.length() - 1 ? 1 : 0; // "-d mlx5_0" or "-dmlx5_0"
                        break;
                    }
                    if (SHORT_FLAGS.indexOf(o) < 0) {
                        return Fact.absent("the command line has -" + o + ", an option perftest's getopt string does not list");
                    }
                    chosen = o == 'Z' ? "server" : o == 'P' ? "client" : chosen;
                }
            } else {
                addresses++;
            }
        }
        if (addresses > 1) {
            return Fact.absent("the command line leaves " + addresses + " words that are no option; perftest takes one, the server's "
                    + "address, and stops at more ('Invalid Command line', perftest_parameters.c:4385)");
        }
        String side = raw ? chosen : addresses == 1 ? "client" : "server";
        if (side == null) {
            return Fact.absent(program + " takes its side from --server or --client only (perftest_parameters.c:3569), and the "
                    + "command line has neither");
        }
        return Fact.of(reversed ? (side.equals("server") ? "client" : "server") : side);
    }
}
