package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.libs.NativeCalls;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What the loaded NCCL offers, by version and by symbol: the one table of API availability the native path reads
 * (sources: src/nccl.h.in of NVIDIA/nccl at the tags named).
 *
 * @param nonBlockingInit ncclCommInitRankConfig with ncclConfig_t.blocking (v2.14.3-1) and ncclCommGetAsyncError:
 *                        initialisation that returns at once and can be aborted at a deadline
 * @param alltoAll        ncclAlltoAll (first in v2.28.3-1); before it, alltoall is grouped ncclSend/ncclRecv
 * @param fp8             ncclFloat8e4m3 and ncclFloat8e5m2 (first in v2.24.3-1); an older NCCL answers them with
 *                        ncclInvalidArgument
 */
public record NcclApi(String version, boolean nonBlockingInit, boolean alltoAll, boolean fp8) {

    static final int NON_BLOCKING_SINCE = 21400;
    static final int FP8_SINCE = 22400;
    static final int ALLTOALL_SINCE = 22800;

    /** @param hasSymbol whether the library exports a function of that name */
    public static NcclApi of(int versionCode, Predicate<String> hasSymbol) {
        return new NcclApi(NativeCalls.ncclVersion(versionCode),
                versionCode >= NON_BLOCKING_SINCE && hasSymbol.test("ncclCommInitRankConfig") && hasSymbol.test("ncclCommGetAsyncError"),
                versionCode >= ALLTOALL_SINCE && hasSymbol.test("ncclAlltoAll"), versionCode >= FP8_SINCE);
    }

    /** Asks the library at a path; empty when it does not load or has no ncclGetVersion. */
    public static Optional<NcclApi> of(String libnccl) {
        var code = NativeCalls.intOut(libnccl, "ncclGetVersion");
        if (!code.isValue()) {
            return Optional.empty();
        }
        return Optional.of(of(code.get(), s -> NativeCalls.hasSymbol(libnccl, s).orElse(false)));
    }

    /** Why this NCCL cannot run a data type, if it cannot. */
    public Optional<String> unsupported(DataType type) {
        if ((type == DataType.FP8_E4M3 || type == DataType.FP8_E5M2) && !fp8) {
            return Optional.of(type.ncclTestsName() + " needs NCCL 2.24 or later (ncclFloat8e4m3 and ncclFloat8e5m2 first appear in "
                    + "nccl.h 2.24.3); this NCCL is " + version);
        }
        return Optional.empty();
    }
}
