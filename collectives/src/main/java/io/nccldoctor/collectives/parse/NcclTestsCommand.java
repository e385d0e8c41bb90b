package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line pasted above an nccl-tests output, read as the run's environment: the launcher (mpirun, srun,
 * torchrun …), the variables it sets ({@code NCCL_PROTO=LL128 ./build/all_reduce_perf}, {@code mpirun -x
 * NCCL_NET_GDR_LEVEL=4}, {@code -genv VAR value}, {@code srun --export=ALL,VAR=value}, {@code export VAR=value} lines
 * before it), the program it runs and, when that is an nccl-tests binary, its flags by their long names (the getopt
 * table of src/common.cu: -b is minbytes, -c check, -S report_timestamps, -I per_iter_timing …).
 *
 * @param text         the command as pasted, continuation lines joined, prompt left out
 * @param env          variables given a value on the command line (or by export lines before it)
 * @param envForwarded variables the launcher forwards from the caller's environment without a value on the line
 *                     ({@code -x LD_LIBRARY_PATH}, {@code -x ${HOST_VARS}}): their values are not in the paste
 * @param program      the program the command runs (an nccl-tests binary, or a wrapper script)
 * @param binary       the nccl-tests binary's name when the program is one ("all_reduce_perf")
 * @param flags        the binary's options by long name ("minbytes" → "8", "check" → "0"); an option nccl-tests does not
 *                     have keeps its spelling
 */
public record NcclTestsCommand(String text, Fact<String> launcher, Map<String, String> env, List<String> envForwarded,
                               Fact<String> program, Fact<String> binary, Map<String, String> flags) {

    /** Short option → long option, src/common.cu longopts (v2.19.6); every one of them takes an argument but -h. */
    static final Map<Character, String> OPTIONS = Map.ofEntries(Map.entry('t', "nthreads"), Map.entry('g', "ngpus"),
            Map.entry('b', "minbytes"), Map.entry('e', "maxbytes"), Map.entry('i', "stepbytes"), Map.entry('f', "stepfactor"),
            Map.entry('n', "iters"), Map.entry('m', "agg_iters"), Map.entry('w', "warmup_iters"), Map.entry('N', "run_cycles"),
            Map.entry('p', "parallel_init"), Map.entry('c', "check"), Map.entry('o', "op"), Map.entry('d', "datatype"),
            Map.entry('r', "root"), Map.entry('z', "blocking"), Map.entry('y', "stream_null"), Map.entry('T', "timeout"),
            Map.entry('G', "cudagraph"), Map.entry('C', "report_cputime"), Map.entry('S', "report_timestamps"),
            Map.entry('J', "output_file"), Map.entry('a', "average"), Map.entry('R', "local_register"), Map.entry('x', "cta_policy"),
            Map.entry('D', "device_implementation"), Map.entry('V', "device_cta_count"), Map.entry('M', "memory"),
            Map.entry('u', "unalign"), Map.entry('I', "per_iter_timing"), Map.entry('K', "per_iter_skip"), Map.entry('h', "help"));
    private static final Set<String> LAUNCHERS = Set.of("mpirun", "mpiexec", "orterun", "mpiexec.hydra", "srun", "torchrun",
            "aprun", "jsrun", "prun", "flux");
    private static final Set<String> PREFIXES = Set.of("sudo", "env", "time", "nohup", "exec", "stdbuf");
    /** all_reduce_perf, alltoallv_perf, hypercube_perf, all_reduce_perf_mpi … */
    private static final Pattern BINARY = Pattern.compile("\\w+_perf(?:_mpi)?");
    private static final Pattern ASSIGN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    /** Shell prompts: "user@host:~/dir$ ", "[root@host dir]# ", "(venv) ", "$ ", "# ", "> " (Markdown quote), "+ " (set -x). */
    private static final Pattern PROMPT = Pattern.compile("^\\s*(?:\\([^)\\s]+\\)\\s+)*(?:\\S+@\\S+?:\\S*[$#%]\\s*|\\[[^\\]]+\\][$#]\\s*|[$#>+%]\\s+)?");
    private static final Set<String> STOP = Set.of("|", ">", ">>", "2>&1", ";", "&&", "||", "&", "|&");

    /**
     * The command text when this line starts one: a prompt is left out, then the first word must be a launcher, a
     * variable assignment, sudo/env/time, or an nccl-tests binary. Null for any other line.
     */
    static String start(String line) {
        String rest = PROMPT.matcher(line).replaceFirst("");
        List<String> words = words(rest);
        if (words.isEmpty()) {
            return null;
        }
        String first = base(words.get(0));
        boolean launches = LAUNCHERS.contains(first) || PREFIXES.contains(first) || BINARY.matcher(first).matches();
        boolean assigns = ASSIGN.matcher(words.get(0)).matches() && words.size() > 1;
        return launches || assigns ? rest.strip() : null;
    }

    /** Reads a command (continuations already joined); {@code exports} are the export lines seen before it. */
    static NcclTestsCommand parse(String text, Map<String, String> exports) {
        List<String> words = words(text);
        Map<String, String> env = new LinkedHashMap<>(exports);
        List<String> forwarded = new ArrayList<>();
        Fact<String> launcher = Fact.absent("no launcher on the command line (the binary ran directly)");
        int i = 0;
        while (i < words.size() && !STOP.contains(words.get(i))) {
            String w = words.get(i);
            String b = base(w);
            if (ASSIGN.matcher(w).matches()) {
                put(env, w);
                i++;
            } else if (PREFIXES.contains(b)) {
                i++;
                while (i < words.size() && words.get(i).startsWith("-")) {
                    i++; // sudo -E, env -i: their options name no program
                }
            } else if (LAUNCHERS.contains(b) && !launcher.isValue()) {
                launcher = Fact.of(b);
                i = launcherOptions(words, i + 1, env, forwarded);
            } else {
                break;
            }
        }
        if (i >= words.size() || STOP.contains(words.get(i))) {
            return new NcclTestsCommand(text, launcher, env, forwarded, Fact.absent("the command names no program"),
                    Fact.absent("no nccl-tests binary on the command line"), Map.of());
        }
        String program = words.get(i);
        if (!BINARY.matcher(base(program)).matches()) {
            return new NcclTestsCommand(text, launcher, env, forwarded, Fact.of(program),
                    Fact.absent("the command runs " + program + ", not an nccl-tests binary; its flags are not read"), Map.of());
        }
        return new NcclTestsCommand(text, launcher, env, forwarded, Fact.of(program), Fact.of(base(program)),
                flags(words.subList(i + 1, words.size())));
    }

    /**
     * Finds the program the launcher runs and collects the environment its options pass: Open MPI -x VAR[=value],
     * MPICH/Intel MPI -genv/-env VAR value, Slurm --export=ALL,VAR=value. The program is the first *_perf word; without
     * one, the first script or path that is not an option's argument ("--hostfile ./hosts" is not a program).
     */
    private static int launcherOptions(List<String> words, int from, Map<String, String> env, List<String> forwarded) {
        int end = from;
        while (end < words.size() && !STOP.contains(words.get(end))) {
            end++;
        }
        int program = end;
        for (int j = from; j < end && program == end; j++) {
            if (BINARY.matcher(base(words.get(j))).matches()) {
                program = j;
            }
        }
        for (int j = from; j < end && program == end; j++) {
            String w = words.get(j);
            boolean argument = j > from && words.get(j - 1).startsWith("-");
            boolean path = w.startsWith("/") || w.startsWith("./") || w.startsWith("~/");
            if (!w.startsWith("-") && (w.endsWith(".sh") || w.endsWith(".py") || (path && !argument))) {
                program = j;
            }
        }
        for (int j = from; j < program; j++) {
            String w = words.get(j);
            if (w.equals("-x") && j + 1 < program) {
                forward(words.get(++j), env, forwarded);
            } else if ((w.equals("-genv") || w.equals("-env")) && j + 2 < program) {
                env.put(words.get(j + 1), words.get(j + 2));
                j += 2;
            } else if (w.startsWith("--export=")) {
                for (String part : w.substring("--export=".length()).split(",")) {
                    if (!part.equals("ALL") && !part.equals("NONE") && !part.isEmpty()) {
                        forward(part, env, forwarded);
                    }
                }
            }
        }
        return program;
    }

    private static void forward(String spec, Map<String, String> env, List<String> forwarded) {
        if (spec.contains("=") && !spec.startsWith("$")) {
            put(env, spec);
        } else {
            forwarded.add(spec);
        }
    }

    private static void put(Map<String, String> env, String assignment) {
        int eq = assignment.indexOf('=');
        env.put(assignment.substring(0, eq), assignment.substring(eq + 1));
    }

    private static final String NOT_AN_OPTION = "(not an option)";

    /** nccl-tests getopt_long: "-b 8", "-b8", "--minbytes 8", "--minbytes=8"; all options but -h take an argument. */
    static Map<String, String> flags(List<String> args) {
        Map<String, String> out = new LinkedHashMap<>();
        StringBuilder loose = new StringBuilder(); // joined once: a pasted line of millions of words stays linear
        for (int i = 0; i < args.size() && !STOP.contains(args.get(i)); i++) {
            String a = args.get(i);
            String name;
            String value = null;
            if (a.startsWith("--") && a.length() > 2) {
                int eq = a.indexOf('=');
                name = eq > 0 ? a.substring(2, eq) : a.substring(2);
                value = eq > 0 ? a.substring(eq + 1) : null;
            } else if (a.startsWith("-") && a.length() > 1) {
                String known = OPTIONS.get(a.charAt(1));
                name = known == null ? a.substring(0, 2) : known;
                value = a.length() > 2 ? a.substring(2) : null;
            } else {
                out.putIfAbsent(NOT_AN_OPTION, "");
                loose.append(loose.length() == 0 ? "" : " ").append(a);
                continue;
            }
            if (value == null && !name.equals("help") && i + 1 < args.size() && !STOP.contains(args.get(i + 1))) {
                value = args.get(++i);
            }
            out.put(name, value == null ? "" : value);
        }
        if (loose.length() > 0) {
            out.put(NOT_AN_OPTION, loose.toString());
        }
        return out;
    }

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d*)?)\\s*([KkMmGg]?)");

    /** A size flag as nccl-tests reads it (src/common.cu parsesize: a number, then K, M or G for 1024, 1024², 1024³). */
    static Fact<Long> size(String flag) {
        Matcher m = SIZE.matcher(flag.strip());
        if (!m.matches()) {
            return Fact.absent("'" + flag + "' is not a size nccl-tests reads");
        }
        double units = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "G" -> 1024.0 * 1024 * 1024;
            case "M" -> 1024.0 * 1024;
            case "K" -> 1024.0;
            default -> 1;
        };
        double v = Double.parseDouble(m.group(1)) * units;
        return v < 9.2e18 ? Fact.of((long) v) : Fact.absent("'" + flag + "' is past the 64-bit range");
    }

    private static String base(String word) {
        return word.substring(word.lastIndexOf('/') + 1);
    }

    /** Splits like a shell: whitespace separates words, quotes group them and are removed. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                w = w == null ? new StringBuilder() : w;
                quote = c;
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    out.add(w.toString());
                    w = null;
                }
            } else {
                w = w == null ? new StringBuilder() : w;
                w.append(c);
            }
        }
        if (w != null) {
            out.add(w.toString());
        }
        return out;
    }
}
