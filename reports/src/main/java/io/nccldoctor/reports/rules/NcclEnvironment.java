package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Environment sanity: NCCL variables that NCCL ignores or rejects, global pins, devices that do not exist. */
public final class NcclEnvironment {

    private NcclEnvironment() {
    }

    /** The NCCL version the node loads, else the newest known. */
    static String version(Snapshot s) {
        return Sections.libraries(s).map(Libraries::nccl).flatMap(n -> n.version().isValue() ? Optional.of(n.version().get())
                : Optional.empty()).orElse(NcclPathTypes.NEWEST);
    }

    /** NCCL_PROTO, NCCL_ALGO, NCCL_NET_GDR_READ with a value NCCL ignores or rejects (GDR level: NCCL_GDR_LEVEL_IGNORED). */
    public static final class Ignored implements Rule {
        static final RuleInfo INFO = new RuleInfo("NCCL_ENV_IGNORED", Severity.ERROR,
                "an NCCL variable has a value NCCL ignores or rejects",
                "NCCL_PROTO and NCCL_ALGO are lists of tokens: before 2.24 one comma list whose unknown tokens are "
                        + "silently dropped, from 2.24 per-function entries ('^LL128;allreduce:LL128') whose unknown "
                        + "tokens fail communicator creation with ncclInvalidUsage. NCCL_NET_GDR_READ is 0 or 1. A value "
                        + "NCCL ignores means the job runs the default while everyone believes it runs the setting; one "
                        + "it rejects means every job fails at init.",
                "NCCL_PROTO, NCCL_ALGO and NCCL_NET_GDR_READ in the environment, read as the NCCL this node loads reads them",
                "Fix the value (tokens: LL, LL128, Simple; Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT from "
                        + "2.23), or unset it.");

        @Override
        public RuleInfo info() {
            return INFO;
        }

        @Override
        public Outcome check(Snapshot s, RuleContext ctx) {
            String v = version(s);
            List<Finding> out = new ArrayList<>();
            for (String name : List.of("NCCL_PROTO", "NCCL_ALGO", "NCCL_NET_GDR_READ")) {
                String value = s.env().get(name);
                if (value != null) {
                    PlanValidator.why(name, value, v).ifPresent(why -> out.add(finding(name, name + "=" + value + " is not what NCCL " + v
                            + " will use", List.of(why))));
                }
            }
            return Outcome.flag(out);
        }
    }

    /** NCCL_PROTO or NCCL_ALGO set for everything that runs on the node: a per-job tool left global. */
    public static final class GlobalPin implements Rule {
        static final RuleInfo INFO = new RuleInfo("NCCL_GLOBAL_PIN", Severity.WARN,
                "NCCL_PROTO or NCCL_ALGO is pinned for every job",
                "A protocol or algorithm pin is a per-job tool: it fixes one collective on one node count and costs "
                        + "the others. In the field report NCCL_PROTO=LL128 lifted 3-node allgather 3.5-fold and, pinned "
                        + "globally, cost 20-30 % on almost everything else; the fix in NCCL 2.30.7 then made it "
                        + "unnecessary. Set in the node's environment (a profile script, a container default) it "
                        + "outlives the reason it was set for.",
                "NCCL_PROTO and NCCL_ALGO in the environment preflight runs in",
                "Move the pin into the job that needs it, and re-test it against every new NCCL version.");

        @Override
        public RuleInfo info() {
            return INFO;
        }

        @Override
        public Outcome check(Snapshot s, RuleContext ctx) {
            List<Finding> out = new ArrayList<>();
            for (String name : List.of("NCCL_PROTO", "NCCL_ALGO")) {
                String value = s.env().get(name);
                if (value != null) {
                    out.add(finding(name, name + "=" + value + " is set for every job on this node", List.of(
                            "environment: " + name + "=" + value)));
                }
            }
            return out.isEmpty() ? Outcome.pass() : Outcome.flag(out);
        }
    }

    /** NCCL_IB_HCA naming RDMA devices this node does not have. */
    public static final class IbHcaUnknown implements Rule {
        static final RuleInfo INFO = new RuleInfo("NCCL_IB_HCA_UNKNOWN", Severity.ERROR,
                "NCCL_IB_HCA names RDMA devices this node does not have",
                "NCCL_IB_HCA selects the HCAs NCCL may use: a comma list of names, each a prefix unless the list starts "
                        + "with '=' (exact), optionally ':port'; a leading '^' excludes instead. A name that matches no "
                        + "device selects nothing: NCCL falls back to other HCAs, or to sockets, and the job runs at a "
                        + "fraction of the fabric. Renamed devices (mlx5_0 became mlx5_bond_0, or udev names such as "
                        + "rocep1s0f0) are the usual cause.",
                "NCCL_IB_HCA in the environment against the RDMA devices in /sys/class/infiniband",
                "Name devices that exist (`ibv_devices` or `ls /sys/class/infiniband`), or unset NCCL_IB_HCA to let NCCL choose.");

        @Override
        public RuleInfo info() {
            return INFO;
        }

        @Override
        public Outcome check(Snapshot s, RuleContext ctx) {
            String raw = s.env().get("NCCL_IB_HCA");
            if (raw == null) {
                return Outcome.waived("NCCL_IB_HCA is not set");
            }
            var rdma = Sections.rdma(s);
            if (rdma.isEmpty() || !rdma.get().devices().isValue()) {
                return Outcome.waived("the RDMA devices were not read");
            }
            List<String> names = rdma.get().devices().get().stream().map(d -> d.name()).toList();
            String list = raw.startsWith("^") ? raw.substring(1) : raw;
            boolean exact = list.startsWith("=");
            if (exact) {
                list = list.substring(1);
            }
            List<String> unknown = new ArrayList<>();
            for (String entry : list.split(",")) {
                String name = entry.strip().replaceFirst(":\\d+$", "");
                if (name.isEmpty()) {
                    continue;
                }
                boolean matches = names.stream().anyMatch(n -> exact ? n.equals(name) : n.startsWith(name));
                if (!matches) {
                    unknown.add(name);
                }
            }
            if (unknown.isEmpty()) {
                return Outcome.pass();
            }
            return Outcome.flag(finding("NCCL_IB_HCA", "NCCL_IB_HCA=" + raw + " names " + String.join(", ", unknown)
                    + (raw.startsWith("^") ? ", which this node does not have (the exclusion excludes nothing)"
                    : ", which this node does not have"), List.of("RDMA devices here: " + (names.isEmpty() ? "none" : String.join(", ", names)),
                    "matching: " + (exact ? "exact names ('=')" : "name prefixes"))));
        }
    }

    /** CUDA's lazy loading with a driver library set that does not match the running kernel driver. */
    public static final class LazyLoadingIncomplete implements Rule {
        static final RuleInfo INFO = new RuleInfo("CUDA_LAZY_DRIVER_MISMATCH", Severity.WARN,
                "CUDA lazy loading with a driver library that does not match the kernel driver",
                "With CUDA_MODULE_LOADING=LAZY (NGC containers' default, and CUDA's own from 12.2) kernels load at their "
                        + "first launch, so a driver user-space library set that does not match the running kernel "
                        + "module fails late and 'sometimes': in the field report dist.barrier() crashed with 'CUDA "
                        + "unknown error' after an InfiniBand collective, because barrier() is zeros(1) plus an allreduce "
                        + "and the first kernel launch came after NCCL init. Containers that mount the host's driver "
                        + "libraries by hand are the usual cause.",
                "CUDA_MODULE_LOADING, the version of the libcuda.so found on the loader path, and /proc/driver/nvidia/version",
                "Use the NVIDIA container toolkit (it mounts the matching set), or install the user-space driver package of "
                        + "the kernel module's version; CUDA_MODULE_LOADING=EAGER makes the failure immediate while you fix it.");

        @Override
        public RuleInfo info() {
            return INFO;
        }

        @Override
        public Outcome check(Snapshot s, RuleContext ctx) {
            String loading = s.env().getOrDefault("CUDA_MODULE_LOADING", "");
            if (loading.toUpperCase(Locale.ROOT).equals("EAGER")) {
                return Outcome.waived("CUDA_MODULE_LOADING=EAGER: a mismatch fails at once, not late");
            }
            var driver = Sections.nvidiaDriver(s).map(d -> d.version());
            var lib = Sections.libraries(s).map(Libraries::cudaDriver).flatMap(l -> l.loaded().isValue() ? Optional.of(l.loaded().get())
                    : Optional.empty());
            if (driver.isEmpty() || !driver.get().isValue() || lib.isEmpty() || !lib.get().fileVersion().isValue()) {
                return Outcome.waived("needs the kernel driver's version and the libcuda.so file's version");
            }
            String kernel = driver.get().get();
            String user = lib.get().fileVersion().get();
            if (kernel.equals(user)) {
                return Outcome.pass();
            }
            return Outcome.flag(finding("libcuda.so", "libcuda.so " + user + " on the loader path, kernel driver " + kernel
                    + (loading.isEmpty() ? " (lazy loading is CUDA's default from 12.2)" : ", CUDA_MODULE_LOADING=" + loading),
                    List.of("libcuda: " + lib.get().realPath() + " (" + user + ")", "kernel module: " + kernel + " (/proc/driver/nvidia/version)")));
        }
    }

}
