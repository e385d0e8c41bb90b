package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * NCCL_DEBUG logs read together: one file per process (NCCL_DEBUG_FILE=dir/nccl.%h.%p.log writes them), each parsed
 * alone, and what differs between them where the processes of one job should agree: the NCCL version, the network
 * NCCL chose, and whether its network channels use GPUDirect RDMA. One process that fell back to sockets, or lost
 * GPUDirect RDMA, slows every collective of the job, and its log looks healthy on its own.
 *
 * @param logs        each file with NCCL lines, by its name as given, in the order given (a folder: its files by name)
 * @param skipped     the files without NCCL lines, with why
 * @param differences one line per thing that differs, naming the files that are not with the majority
 */
public record NcclLogSet(Map<String, NcclLog> logs, Map<String, String> skipped, List<String> differences) {

    /** Files and folders (their regular files, not hidden, not recursive); a file without NCCL lines is skipped. */
    public static NcclLogSet read(List<Path> paths) {
        Map<String, NcclLog> logs = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (Path file : files(paths)) {
            NcclLog.parseIfNccl(file).ifPresentOrElse(log -> logs.put(file.toString(), log),
                    () -> skipped.put(file.toString(), "no NCCL lines"));
        }
        if (logs.isEmpty()) {
            throw new InputException("parse nccl-log " + String.join(" ", paths.stream().map(Path::toString).toList())
                    + ": no NCCL debug log among " + skipped.size() + " file(s); run with NCCL_DEBUG=INFO "
                    + "(NCCL_DEBUG_FILE=dir/nccl.%h.%p.log writes one file per process)");
        }
        return of(logs, skipped);
    }

    /** The differences between logs already parsed. */
    public static NcclLogSet of(Map<String, NcclLog> logs, Map<String, String> skipped) {
        List<String> differences = new ArrayList<>();
        differs("the NCCL version", logs, log -> log.versions().isEmpty() ? Optional.empty() : Optional.of(String.join(", ", log.versions())),
                "Processes of one job must load the same libnccl.so.2: check LD_LIBRARY_PATH and the Python environment on "
                        + "those nodes").ifPresent(differences::add);
        differs("the network NCCL chose", logs, NcclLogSet::chosenNetwork,
                "A process on sockets (NET/Socket) moves every byte through the kernel's TCP stack and slows the whole job: "
                        + "NCCL_IB_DISABLE, NCCL_NET or an IB/RoCE device that did not come up on that node").ifPresent(differences::add);
        differs("GPUDirect RDMA on the network channels", logs, NcclLogSet::gdrOnNetwork,
                "Without it the NIC reads and writes host memory and each transfer is staged through a copy: nvidia-peermem "
                        + "or dma-buf missing, NCCL_NET_GDR_LEVEL, or a GPU too far from its NIC (see the GDR lines of those "
                        + "files)").ifPresent(differences::add);
        return new NcclLogSet(java.util.Collections.unmodifiableMap(new LinkedHashMap<>(logs)),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(skipped)), List.copyOf(differences));
    }

    /** "IB" from "Using network IB", the choice NCCL logs once per process. */
    static Optional<String> chosenNetwork(NcclLog log) {
        return log.networks().stream().filter(n -> n.startsWith("Using network ")).findFirst()
                .map(n -> n.substring("Using network ".length()).strip());
    }

    /** "used" or "not used" when the log has network channels; empty without any (a single-node job). */
    static Optional<String> gdrOnNetwork(NcclLog log) {
        List<String> net = log.transports().keySet().stream().filter(t -> t.startsWith("NET/")).toList();
        if (net.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(net.stream().anyMatch(t -> t.contains("/GDRDMA")) ? "used" : "not used");
    }

    /**
     * One line when the files with a value for {@code what} do not all agree: the majority's value and count, then each
     * other value with its files (the first five named).
     */
    private static Optional<String> differs(String what, Map<String, NcclLog> logs, Function<NcclLog, Optional<String>> value,
                                            String why) {
        Map<String, List<String>> byValue = new LinkedHashMap<>();
        logs.forEach((file, log) -> value.apply(log).ifPresent(v -> byValue.computeIfAbsent(v, k -> new ArrayList<>()).add(file)));
        if (byValue.size() < 2) {
            return Optional.empty();
        }
        List<Map.Entry<String, List<String>>> groups = new ArrayList<>(byValue.entrySet());
        groups.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size())); // stable: ties keep file order
        StringBuilder line = new StringBuilder(what + " differs: " + groups.get(0).getKey() + " in " + count(groups.get(0).getValue()));
        for (Map.Entry<String, List<String>> g : groups.subList(1, groups.size())) {
            List<String> files = g.getValue();
            line.append("; ").append(g.getKey()).append(" in ").append(String.join(", ", files.subList(0, Math.min(5, files.size()))));
            if (files.size() > 5) {
                line.append(" and ").append(files.size() - 5).append(" more");
            }
        }
        return Optional.of(line.append(". ").append(why).toString());
    }

    private static String count(List<String> files) {
        return files.size() == 1 ? files.get(0) : files.size() + " files";
    }

    private static List<Path> files(List<Path> paths) {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> in = Files.list(p)) {
                    in.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".")).sorted().forEach(files::add);
                } catch (IOException e) {
                    throw new InputException(p + ": cannot list the folder (" + e.getMessage() + ")", e);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new InputException("parse nccl-log " + p + ": no such file or folder");
            }
        }
        return files;
    }
}
