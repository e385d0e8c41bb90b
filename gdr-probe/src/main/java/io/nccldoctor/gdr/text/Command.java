package io.nccldoctor.gdr.text;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command line in a paste: after a shell prompt ("$ ", "root@node:~# ", "[root@node ~]# ", "bash-5.1# "), shell
 * trace ("+ mlnx_qos -i eth4"), or bare when it starts with a tool people run to show RDMA state; also written as
 * Markdown inline code on a line of its own ("`ethtool -S enp178s0f0 |grep prio`", as issue threads quote it, the
 * output then in a fence below). It tells which
 * interface an `mlnx_qos -i` or `ethtool -S` output belongs to, and which folder `=== ./file ===` blocks are in.
 *
 * @param text  the command as typed, without the prompt
 * @param words the command split on blanks, after `sudo`
 * @param cwd   the folder the prompt shows, when it shows an absolute one ("/sys/class/infiniband/mlx5_1/ports/1/counters$ …")
 */
record Command(String text, List<String> words, Optional<String> cwd) {

    /** Tools whose name alone at the start of a line makes it a command, not output. */
    private static final Set<String> TOOLS = Set.of("ibv_devinfo", "ibv_devices", "ibstat", "ibstatus", "show_gids",
            "ibdev2netdev", "rdma", "mlnx_qos", "ethtool", "show_counters", "ls", "grep", "cat", "for", "echo", "sudo", "cd",
            "ip", "ifconfig", "lspci", "lsmod", "dmesg", "kubectl", "docker", "ssh", "nvidia-smi", "mst", "mlxconfig",
            "mlxfwreset", "mlxfwmanager", "ibportstate", "cma_roce_tos", "sysctl", "ofed_info", "talosctl", "find", "done");
    /**
     * A prompt: optional "(env) ", then "user@host:dir", "[user@host dir]", "bash-5.1", or a path, then "$" or "#" and
     * a blank. A line that is only "# words" is a prompt too (a root shell, or a comment: both are not output).
     */
    private static final Pattern PROMPT = Pattern.compile(
            "^\\s*(?:\\([\\w.-]+\\)\\s*)?(\\[[^\\]]*\\]|[\\w.-]+@[^\\s:#$\\]]+(?::\\S*?)?|[\\w.-]+-\\d[\\d.]*|(/\\S*?)|~\\S*?)?\\s?[$#]\\s+(\\S.*)$");
    /** A prompt with nothing typed after it ("[root@node75 ~]# ", "user@host:~$"): an Enter pressed, neither command nor output. */
    private static final Pattern EMPTY_PROMPT = Pattern.compile(
            "^\\s*(?:\\([\\w.-]+\\)\\s*)?(?:\\[[^\\]]*\\]|[\\w.-]+@[^\\s:#$\\]]+(?::\\S*)?)\\s?[$#]\\s*$");
    /** A line that is only Markdown inline code: one to three backticks around text without a backtick. */
    private static final Pattern INLINE_CODE = Pattern.compile("^\\s*(`{1,3})([^`]+)\\1\\s*$");
    private static final Pattern TRACE = Pattern.compile("^\\+{1,3} (\\S.*)$");

    /** The command on this line, or empty when the line is output. */
    static Optional<Command> of(String line) {
        Matcher code = INLINE_CODE.matcher(line);
        String text = code.matches() ? code.group(2) : line;
        Matcher m = PROMPT.matcher(text);
        if (m.matches()) {
            return Optional.of(command(m.group(3), Optional.ofNullable(m.group(2))));
        }
        m = TRACE.matcher(text);
        if (m.matches()) {
            return Optional.of(command(m.group(1), Optional.empty()));
        }
        String t = text.strip();
        // "#ibv_devinfo": a root prompt with no blank before the command, as some guides print it
        String bare = t.matches("[#$][a-z].*") ? t.substring(1) : t;
        String first = bare.split("\\s+", 2)[0];
        return TOOLS.contains(first) ? Optional.of(command(bare, Optional.empty())) : Optional.empty();
    }

    static boolean emptyPrompt(String line) {
        return EMPTY_PROMPT.matcher(line).matches();
    }

    private static Command command(String text, Optional<String> cwd) {
        List<String> w = List.of(text.strip().split("\\s+"));
        while (!w.isEmpty() && w.get(0).equals("sudo")) {
            w = w.subList(1, w.size());
        }
        return new Command(text.strip(), w, cwd);
    }

    String tool() {
        return words.isEmpty() ? "" : words.get(0);
    }

    /** The word after an option: "-i eth4", "-i=eth4", "--interface eth4" → eth4. */
    Optional<String> option(String... names) {
        for (int i = 0; i < words.size(); i++) {
            for (String n : names) {
                if (words.get(i).equals(n) && i + 1 < words.size()) {
                    return Optional.of(words.get(i + 1));
                }
                if (words.get(i).startsWith(n + "=")) {
                    return Optional.of(words.get(i).substring(n.length() + 1));
                }
            }
        }
        return Optional.empty();
    }

    /** The first word after the tool that is not an option: `show_counters mlx5_0` → mlx5_0. */
    Optional<String> argument() {
        return words.stream().skip(1).filter(w -> !w.startsWith("-")).findFirst();
    }

    /** A shell loop whose body follows on the next lines ("for f in …; do", without its "done"). */
    boolean opensLoop() {
        return text.matches(".*\\bdo\\s*$") && !text.matches(".*\\bdone\\b.*");
    }

    boolean mentions(String s) {
        return text.contains(s);
    }
}
