package io.nccldoctor.reports.cluster;

import java.util.Comparator;

/**
 * Text with its digit runs compared as numbers: node2 before node10, mlx5_2 before mlx5_10. Ties fall back to plain
 * string order, so the order is total and every rendering is deterministic.
 */
enum NaturalOrder implements Comparator<String> {
    INSTANCE;

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (isDigit(x) && isDigit(y)) {
                int si = i;
                int sj = j;
                while (i < a.length() && isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && isDigit(b.charAt(j))) {
                    j++;
                }
                int c = compareDigits(a.substring(si, i), b.substring(sj, j));
                if (c != 0) {
                    return c;
                }
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Numbers of any length: leading zeros dropped, then the longer is larger, then digit by digit. */
    private static int compareDigits(String a, String b) {
        String x = a.substring(leadingZeros(a));
        String y = b.substring(leadingZeros(b));
        return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
    }

    /** How many leading zeros to drop, keeping the last digit ("000" becomes "0"). */
    private static int leadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return i;
    }
}
