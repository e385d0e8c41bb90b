package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * libfabric's own warnings in an NCCL log. aws-ofi-nccl, NCCL's network plugin for libfabric (EFA and other providers),
 * runs on libfabric, which writes each log line to standard error as "libfabric:PID:TIME:PREFIX:PROVIDER:SUBSYSTEM:
 * FUNCTION():LINE&lt;LEVEL&gt; MESSAGE" (ofi_log in src/log.c of ofiwg/libfabric; the levels warn, trace, info, debug), without
 * NCCL's prefix and without the word "NCCL". The block scanner hands over the lines without "NCCL " that hold a '&lt;'
 * byte; those that hold libfabric's word and "&lt;warn&gt; " are read here, counted per provider, function and message (the
 * first 64 such groups), the first of each kept as written. A log collector that repeats the line after " | " (CloudWatch)
 * is read once.
 * <p>
 * What libfabric warns about for what the plugin does on purpose is counted apart, as harmless:
 * "FI_OPT_SHARED_MEMORY_PERMITTED set to false" (efa_rdm_ep_set_shared_memory_permitted in
 * prov/efa/src/rdm/efa_rdm_ep_fiops.c: the application turned libfabric's shared-memory transfers off, as aws-ofi-nccl
 * does, NCCL moving a node's own traffic itself; a warning in earlier libfabric releases, an INFO line in later ones).
 */
final class LibfabricLines {

    static final String WORD = "libfabric:";
    static final String TAG = "<warn> ";
    /** Groups kept: a log's distinct libfabric warnings are few; more are counted, not kept. */
    private static final int GROUPS = 64;
    private static final List<String> HARMLESS = List.of("FI_OPT_SHARED_MEMORY_PERMITTED set to false");

    /** One provider's warning from one function with one message, as counted. */
    private static final class Group {
        final String provider;
        final String function;
        final String message;
        final String first;
        long count;

        Group(String provider, String function, String message, String first) {
            this.provider = provider;
            this.function = function;
            this.message = message;
            this.first = first;
        }
    }

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private long count;

    /**
     * Reads a line that holds no "NCCL " (as written); false when it is not a libfabric warning. Once per such line.
     */
    boolean read(String line) {
        int at = line.indexOf(WORD);
        int tag = at < 0 ? -1 : line.indexOf(TAG, at);
        if (tag < 0) {
            return false;
        }
        String[] fields = line.substring(at + WORD.length(), tag).split(":", -1); // PID, TIME, PREFIX, PROVIDER, SUBSYSTEM, FUNCTION(), LINE
        if (fields.length < 7) {
            return false;
        }
        String message = line.substring(tag + TAG.length());
        int again = message.indexOf(WORD); // a collector's copy of the same line after " | "
        if (again >= 0) {
            message = message.substring(0, again);
            message = message.endsWith(" | ") || message.endsWith(" |") ? message.substring(0, message.lastIndexOf('|')) : message;
        }
        message = message.strip();
        String provider = fields[fields.length - 4];
        String function = fields[fields.length - 2].replace("()", "");
        count++;
        String key = provider + '\n' + function + '\n' + message;
        Group g = groups.get(key);
        if (g == null && groups.size() < GROUPS) {
            g = new Group(provider, function, message, line.strip());
            groups.put(key, g);
        }
        if (g != null) {
            g.count++;
        }
        return true;
    }

    /** Adds what a later range of the same file counted. */
    void absorb(LibfabricLines o) {
        count += o.count;
        for (Group theirs : o.groups.values()) {
            String key = theirs.provider + '\n' + theirs.function + '\n' + theirs.message;
            Group mine = groups.get(key);
            if (mine == null && groups.size() < GROUPS) {
                groups.put(key, theirs);
            } else if (mine != null) {
                mine.count += theirs.count;
            }
        }
    }

    NcclLog.LibfabricWarnings build() {
        List<NcclLog.LibfabricWarning> list = new ArrayList<>();
        for (Group g : groups.values()) {
            list.add(new NcclLog.LibfabricWarning(g.provider, g.function, g.message, HARMLESS.contains(g.message), g.count, g.first));
        }
        return new NcclLog.LibfabricWarnings(List.copyOf(list), count);
    }
}
