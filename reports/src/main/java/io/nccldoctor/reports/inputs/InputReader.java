package io.nccldoctor.reports.inputs;

import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.inputs.Recognisers.Head;
import io.nccldoctor.reports.parsed.RdmaJudgement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reads one input as the kind it is, or as the kind named: the one entry `parse` uses. Detection looks at the head
 * only; the kind's parser then reads the rest (an NCCL log streamed, so a big log is read once, its head twice).
 */
public final class InputReader {

    private final Supplier<RuleContext> rdmaContext;
    private RuleContext loadedContext;

    /**
     * @param rdmaContext the rule configuration RDMA state text is judged with, as `parse rdma` and `report` do: asked
     *                    for only when an input is RDMA state text (loading the rules costs a tenth of a second)
     */
    public InputReader(Supplier<RuleContext> rdmaContext) {
        this.rdmaContext = rdmaContext;
    }

    /** The input read as the kind it is ('-': standard input); refused with the kinds tried when it is none of them. */
    public ParsedInput read(Path file) {
        InputText in = InputText.open(file);
        Recognition r = InputDetector.detect(in);
        return finish(in, r.kind(), r.complete() ? r.model() : null, r.evidence());
    }

    /** The input read as the named kind, whatever else it holds; refused in that kind's parser's words. */
    public ParsedInput read(Path file, InputKind kind) {
        InputText in = InputText.open(file);
        return finish(in, kind, null, "");
    }

    /**
     * Each input read as the kind it is. Several inputs that are all NCCL logs, or a folder, are read as one set of
     * logs (each file streamed once, after its head was looked at); any other mix one input after another.
     */
    public List<ParsedInput> readAll(List<Path> files) {
        if (files.stream().anyMatch(Files::isDirectory)) {
            return List.of(logs(files));
        }
        List<InputText> texts = new ArrayList<>();
        List<Recognition> kinds = new ArrayList<>();
        for (Path f : files) {
            InputText in = InputText.open(f);
            texts.add(in);
            kinds.add(InputDetector.detect(in));
        }
        if (files.size() > 1 && kinds.stream().allMatch(r -> r.kind() == InputKind.NCCL_LOG) && texts.stream().allMatch(t -> t.file() != null)) {
            ParsedInput set = logs(files);
            return List.of(new ParsedInput(set.kind(), set.source(), set.model(), "NCCL lines in each of the " + files.size() + " files"));
        }
        List<ParsedInput> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            Recognition r = kinds.get(i);
            out.add(finish(texts.get(i), r.kind(), r.complete() ? r.model() : null, r.evidence()));
        }
        return out;
    }

    /** Several NCCL logs, or a folder of them (one file per process): each read, and what differs between them. */
    public static ParsedInput logs(List<Path> files) {
        NcclLogSet set = NcclLogSet.read(files);
        return new ParsedInput(InputKind.NCCL_LOG, String.join(", ", files.stream().map(Path::toString).toList()), set, "");
    }

    /** The model of the whole input: the detection's when the head was all of it, else the kind's parser on the rest. */
    static Object model(InputText in, InputKind kind, Object fromHead) {
        if (fromHead != null) {
            return fromHead;
        }
        return kind == InputKind.NCCL_LOG ? in.ncclLog() : Recognisers.read(kind, Head.of(in.text(), in.source())).model();
    }

    private ParsedInput finish(InputText in, InputKind kind, Object fromHead, String evidence) {
        Object model = model(in, kind, fromHead);
        if (model instanceof RdmaPaste paste) {
            model = RdmaJudgement.of(paste, rdmaContext());
        }
        String replaced = in.replacedNote().map(n -> n.substring(in.source().length() + 2)).orElse("");
        return new ParsedInput(kind, in.source(), model, evidence.isEmpty() || replaced.isEmpty() ? evidence + replaced
                : evidence + "; " + replaced);
    }

    private RuleContext rdmaContext() {
        if (loadedContext == null) {
            loadedContext = rdmaContext.get();
        }
        return loadedContext;
    }
}
