package io.nccldoctor.reports.tune;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.NcclPathTypes;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One table per NCCL enum, with the three spellings it has: the NCCL_ALGO / NCCL_PROTO token (src/graph/tuning.cc,
 * ncclAlgoStr and ncclProtoStr, case-insensitive), the name the TUNING line logs (src/collectives.cc,
 * ncclAlgoToString and ncclProtoToString, upper case) and the name the example tuner's CSV takes (plugin.c,
 * parseAlgorithm and parseProtocol, compared with strcmp, lower case). NVIDIA/nccl at 5067397c, the same since the CSV
 * reader appeared in ext-tuner/example of v2.27.5-1. The example reads an unknown collective as allreduce, an unknown
 * algorithm as ring and an unknown protocol as simple, so a name outside these tables must never reach the file.
 */
final class TunerNames {

    private TunerNames() {
    }

    /** One algorithm or protocol: its NCCL_ALGO/NCCL_PROTO token, its TUNING-line name and its CSV name. */
    record Name(String token, String logged, String csv) {
    }

    /** NCCL_ALGO_TREE … NCCL_ALGO_PAT, in NCCL's order. */
    static final List<Name> ALGORITHMS = List.of(new Name("Tree", "TREE", "tree"), new Name("Ring", "RING", "ring"),
            new Name("CollNetDirect", "COLLNET_DIRECT", "collnet_direct"), new Name("CollNetChain", "COLLNET_CHAIN", "collnet_chain"),
            new Name("NVLS", "NVLS", "nvls"), new Name("NVLSTree", "NVLS_TREE", "nvls_tree"), new Name("PAT", "PAT", "pat"));

    /** NCCL_PROTO_LL, NCCL_PROTO_LL128, NCCL_PROTO_SIMPLE. */
    static final List<Name> PROTOCOLS = List.of(new Name("LL", "LL", "ll"), new Name("LL128", "LL128", "ll128"),
            new Name("Simple", "SIMPLE", "simple"));

    /** The collectives a row can name (plugin.c parseCollType), as nccl-doctor names them too; alltoall and sendrecv are not among them. */
    static final List<String> COLLECTIVES = List.of("broadcast", "reduce", "allgather", "reducescatter", "allreduce");

    /** The CSV name of an NCCL_ALGO/NCCL_PROTO token ("CollNetDirect" → "collnet_direct"). */
    static Optional<String> fromToken(List<Name> table, String token) {
        return table.stream().filter(n -> n.token().equalsIgnoreCase(token.strip())).map(Name::csv).findFirst();
    }

    /** The CSV name of a TUNING-line name ("NVLS_TREE" → "nvls_tree"). */
    static Optional<String> fromLogged(List<Name> table, String logged) {
        return table.stream().filter(n -> n.logged().equals(logged)).map(Name::csv).findFirst();
    }

    static boolean isCsvName(List<Name> table, String csv) {
        return table.stream().anyMatch(n -> n.csv().equals(csv));
    }

    /** NCCL's name of a collective in TUNING lines (ncclFuncToString): "AllReduce" for allreduce. */
    static boolean logs(String collective, String logged) {
        return logged.toLowerCase(Locale.ROOT).equals(collective);
    }

    /**
     * The bytes a TUNING line gives for a size as nccl-tests and the tuner count it (the tuner's nBytes is
     * ncclFuncMaxSendRecvCount: nRanks times the count for allgather and reducescatter, the nccl-tests size). From 2.24
     * the line logs the call's count times the type's size (enqueue.cc, the launch), one rank's share for those two;
     * 2.23, the first to name the function, logged nBytes itself (enqueue.cc ncclGetAlgoInfo).
     */
    static Fact<Long> loggedBytes(String collective, long sizeBytes, int ranks, Fact<String> version) {
        if (!collective.equals("allgather") && !collective.equals("reducescatter")) {
            return Fact.of(sizeBytes);
        }
        return version.fold(v -> Fact.of(NcclPathTypes.compareVersions(v, "2.24.0") >= 0 ? sizeBytes / ranks : sizeBytes),
                why -> Fact.absent("the NCCL version is not recorded, and its TUNING lines count " + collective + " per rank from 2.24, "
                        + "whole before"));
    }
}
