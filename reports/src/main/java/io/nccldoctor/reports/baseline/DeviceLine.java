package io.nccldoctor.reports.baseline;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One "# Rank" line of nccl-tests' "Using devices" block (src/util.cu writeDeviceReport):
 * {@code #  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s}; before v2.13 without "Group" and with
 * the bus id as {@code [0x%02x]} (NVIDIA/nccl-tests#256: {@code device  0 [0x18] NVIDIA H200}).
 *
 * @param rank   the rank
 * @param host   the host name as printed (a container's or pod's name in Kubernetes)
 * @param device the CUDA device index on that host
 * @param busId  "0000:19:00" (domain:bus:device) or "0x18" (bus only) as printed
 * @param gpu    the device name cudaGetDeviceProperties gives: "NVIDIA H100 80GB HBM3", "A100-SXM4-40GB"
 */
public record DeviceLine(int rank, String host, int device, String busId, String gpu) {

    // a rank or device index of ten digits or more is no index: the line is then of another shape, counted as unread
    private static final Pattern LINE = Pattern.compile(
            "Rank\\s+(\\d{1,9})\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+(\\S+)\\s+device\\s+(\\d{1,9})\\s+\\[([^\\]]*)\\]\\s+(.+?)\\s*$");

    /** The line read, or empty for a line of another shape (it is then counted, never guessed at). */
    public static Optional<DeviceLine> parse(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new DeviceLine(Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)), m.group(4).strip(),
                m.group(5)));
    }

    /** Every line read; {@code unread} receives the lines of another shape. */
    public static List<DeviceLine> parseAll(List<String> lines, List<String> unread) {
        List<DeviceLine> out = new ArrayList<>();
        for (String l : lines) {
            parse(l).ifPresentOrElse(out::add, () -> unread.add(l.strip()));
        }
        return out;
    }

    /** "0000:19:00" → "0000:19:00.0"; the old "0x18" form names no domain or device: absent. */
    public Fact<String> pciAddress() {
        return busId.matches("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}") ? Fact.of(busId.toLowerCase(Locale.ROOT) + ".0")
                : Fact.absent("nccl-tests before v2.13 printed only the bus number (" + busId + ")");
    }
}
