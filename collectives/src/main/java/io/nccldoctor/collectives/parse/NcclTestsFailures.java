package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nccl-tests' own failure lines (src/common.h): CUDACHECK prints "%s: Test CUDA failure %s:%d '%s'" (host, file, line,
 * cudaGetErrorString) and NCCLCHECK "%s: Test NCCL failure %s:%d '%s / %s'" (ncclGetErrorString, ncclGetLastError;
 * older: one message), then each TESTCHECK the error passes through prints " .. %s pid %d: Test failure %s:%d" (before
 * 2.13 without the pid) as the test unwinds and stops. The first line says why; the relay lines only trace it.
 */
final class NcclTestsFailures {

    private static final Pattern CAUSE = Pattern.compile("^(\\S+): Test (CUDA|NCCL) failure (\\S+:\\d+) '(.*)'\\s*$");
    private static final Pattern RELAY = Pattern.compile("^\\.\\. (\\S+)(?: pid (\\d+))?: Test failure (\\S+:\\d+)(?: \\d+)?\\s*$");

    private final List<String> causes = new ArrayList<>();
    private final List<String> relays = new ArrayList<>();

    /** True when the line is one of these; its meaning is kept. */
    boolean line(String t) {
        Matcher m;
        if ((m = CAUSE.matcher(t)).matches()) {
            causes.add("nccl-tests stopped on a " + m.group(2) + " error on " + m.group(1) + ": '" + m.group(4) + "' (" + m.group(3) + ")");
            return true;
        }
        if ((m = RELAY.matcher(t)).matches()) {
            relays.add(m.group(3));
            return true;
        }
        return false;
    }

    /** One line per failure, the relay frames after the last cause; empty when the text holds none. */
    List<String> errors() {
        List<String> out = new ArrayList<>(causes);
        if (!relays.isEmpty()) {
            String trace = relays.size() + " 'Test failure' relay lines (TESTCHECK, " + String.join(" < ", relays) + ")";
            if (out.isEmpty()) {
                out.add("nccl-tests stopped on an error whose first line is not in the text: " + trace);
            } else {
                out.set(out.size() - 1, out.get(out.size() - 1) + "; then " + trace);
            }
        }
        return out;
    }
}
