package io.nccldoctor.collectives.coll;

import io.nccldoctor.core.InputException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** nccl-tests' size syntax (common.cu parsesize): bytes, or K, M, G as powers of 1024. */
public final class ByteSizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGkmg]?)");

    private ByteSizes() {
    }

    /** @param flag the option it came from, for the message */
    public static long parse(String size, String flag) {
        Matcher m = SIZE.matcher(size);
        if (!m.matches()) {
            throw new InputException(flag + " " + size + ": give bytes as nccl-tests does, e.g. 8, 64K, 128M, 8G");
        }
        int shift = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }
}
