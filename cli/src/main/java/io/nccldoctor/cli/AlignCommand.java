package io.nccldoctor.cli;

import io.nccldoctor.collectives.coll.Alignment;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.JsonDocument;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "align", mixinStandardHelpOptions = true,
        description = {
            "Checks a collective's buffer sizing against NCCL's 16-byte rule and suggests a fix.",
            "",
            "Prints the per-rank or per-peer chunk a caller gets from COUNT elements over RANKS, whether every chunk "
                + "starts on a 16-byte boundary (NCCL's vectorised path needs it; misaligned chunks ran 5x slower in "
                + "the field report), the count nccl-tests would use instead, and the nearest aligned counts."},
        footer = {"",
            "Examples:",
            "  nccl-doctor align --collective alltoall --dtype float --count 134217726 --ranks 3",
            "  nccl-doctor align --collective allgather --dtype bfloat16 --shape 8191x4096 --ranks 24 --json",
            "",
            "Exit codes: 0 aligned, 1 a chunk is misaligned, 2 bad usage."})
final class AlignCommand implements Callable<Integer> {

    @Option(names = "--collective", required = true, paramLabel = "C", description = "allreduce, allgather, alltoall, reducescatter, broadcast, reduce, sendrecv")
    String collective;

    @Option(names = "--dtype", required = true, paramLabel = "T", description = "int8 uint8 int32 uint32 int64 uint64 half float double bfloat16 f8e4m3 f8e5m2")
    String dtype;

    @ArgGroup(multiplicity = "1")
    Size size;

    static final class Size {
        @Option(names = "--count", paramLabel = "N", description = "Elements in the whole buffer.")
        Long count;

        @Option(names = "--shape", paramLabel = "AxBx…", description = "A tensor shape whose product is the element count.")
        String shape;

        long elements() {
            if (count != null) {
                return count;
            }
            long n = 1;
            for (String d : shape.toLowerCase(Locale.ROOT).split("[x,*]", -1)) {
                long dim;
                try {
                    dim = Long.parseLong(d.strip());
                    n = Math.multiplyExact(n, dim);
                } catch (NumberFormatException | ArithmeticException e) {
                    throw new InputException("--shape " + shape + ": give dimensions as AxBxC with whole numbers");
                }
                if (dim < 0) {
                    throw new InputException("--shape " + shape + ": a dimension is 0 or more");
                }
            }
            return n;
        }
    }

    @Option(names = "--ranks", required = true, paramLabel = "R", description = "World size.")
    int ranks;

    @Option(names = "--json", description = "Print the analysis as JSON (kind \"align\").")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (ranks < 1) {
            throw new InputException("--ranks " + ranks + ": the world size is 1 or more");
        }
        long count = size.elements();
        if (count < 0) {
            throw new InputException("--count " + count + ": an element count is 0 or more");
        }
        Alignment a = Alignment.of(Collective.parse(collective), DataType.parse(dtype), count, ranks);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? JsonDocument.write("align", 1, a) : Terminal.show(AlignText.render(a)));
        out.flush();
        return a.misalignedChunks().isEmpty() && (a.chunked() || a.chunkBytesAligned()) ? 0 : 1;
    }
}
