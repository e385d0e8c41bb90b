package io.nccldoctor.collectives.parse;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A block of whole lines of a log as the block scanner reads it: its bytes, the same bytes as little-endian words
 * (zero past its length, and two zero words after), and the word-at-a-time primitives on them (SWAR: the exact zero-byte
 * mask of Hacker's Delight 6-1). Written for the first JIT tier: plain array arithmetic, small final methods it inlines.
 */
abstract class ByteWords {

    static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    static final long ONES = 0x0101010101010101L;
    static final long HIGHS = 0x8080808080808080L;
    static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    static long word(String eight) {
        return ByteBuffer.wrap(eight.getBytes(StandardCharsets.ISO_8859_1)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The block being read: its bytes, the same bytes as little-endian words (zero past len), and its length. */
    ByteBuffer buf;
    long[] words;
    int len;

    /** 0x80 in each byte of x that is zero, 0 elsewhere (exact: no false positives from borrows). */
    static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /**
     * The index of the byte that holds the lowest 0x80 bit of a {@link #zeroBytes} mask: a multiply instead of
     * Long.numberOfTrailingZeros, which the first JIT tier calls as a method.
     */
    static int lowestByte(long mask) {
        return (int) ((((mask & -mask) >>> 7) * 0x0001020304050607L) >>> 56);
    }

    /**
     * The first of the words [j, to) that holds a newline, or {@code to}: four words at a time with the cheaper test
     * of Hacker's Delight 6-1 (exact for whether a word holds a zero byte, not for where), then word by word.
     */
    final int nextNewlineWord(int j, int to) {
        long[] w = words;
        for (; j + 4 <= to; j += 4) {
            long a = w[j] ^ NEWLINES;
            long b = w[j + 1] ^ NEWLINES;
            long c = w[j + 2] ^ NEWLINES;
            long d = w[j + 3] ^ NEWLINES;
            if (((a - ONES & ~a | b - ONES & ~b | c - ONES & ~c | d - ONES & ~d) & HIGHS) != 0) {
                break;
            }
        }
        while (j < to && zeroBytes(w[j] ^ NEWLINES) == 0) {
            j++;
        }
        return j;
    }

    /**
     * The eight bytes from {@code at} as a little-endian word, zero past the block (its words are followed by two
     * zero words). A long shift takes its count mod 64, so {@code at << 3} is the bit offset within the word, and the
     * high part is shifted in two steps so that at a word boundary it is all shifted out. Kept to 31 bytes of bytecode
     * (the array in a local saves one): the first JIT tier inlines a callee of up to 35 bytes into the method it
     * compiles, but into a method it has itself inlined (textWord, a prefix's word, a dump line's three letters) only a
     * smaller one; at 32 bytes -XX:+PrintInlining showed these calls "callee is too large", each a call per word.
     */
    final long bytesAt(int at) {
        long[] w = words;
        return w[at >>> 3] >>> (at << 3) | w[(at >>> 3) + 1] << 1 << ~(at << 3); // ~x: 63 - x, mod 64
    }

    /** The byte at {@code at}, from the block's words (the first JIT tier inlines this; ByteBuffer.get it calls). */
    final byte byteAt(int at) {
        return (byte) (words[at >>> 3] >>> (at << 3));
    }

    /**
     * The first newline at or after {@code from}, or the block's end: the rest of from's word, then the aligned words four
     * at a time ({@link #nextNewlineWord}).
     */
    final int lineEnd(int from) {
        int j = from >>> 3;
        long first = zeroBytes(words[j] ^ NEWLINES) & (-1L << ((from & 7) << 3));
        if (first != 0) {
            return Math.min(len, (j << 3) + lowestByte(first));
        }
        int count = (len + 7) >>> 3;
        j = nextNewlineWord(j + 1, count);
        return j >= count ? len : Math.min(len, (j << 3) + lowestByte(zeroBytes(words[j] ^ NEWLINES)));
    }

    static String line(ByteBuffer buf, int start, int end) {
        byte[] bytes = new byte[end - start];
        buf.get(start, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The word at {@code k}, its bytes at or past {@code to} zeroed. */
    final long textWord(int k, int to) {
        long w = bytesAt(k);
        return to - k >= 8 ? w : w & (1L << ((to - k) << 3)) - 1;
    }

    final boolean sameWords(long[] w, int from, int to) {
        int k = from;
        int i = 0;
        for (; k + 8 <= to; k += 8, i++) {
            if (w[i] != bytesAt(k)) {
                return false;
            }
        }
        return k >= to || w[i] == textWord(k, to);
    }

    /** The end of the ASCII digits of {@code b} from {@code from}, at most {@code end}. */
    static int digitsEnd(ByteWords b, int from, int end) {
        int k = from;
        while (k < end && MessageKinds.digit(b.byteAt(k))) {
            k++;
        }
        return k;
    }

    /** The digits [from, to) of {@code b} as a number (the caller has bounded their count, so it fits). */
    static int number(ByteWords b, int from, int to) {
        int v = 0;
        for (int k = from; k < to; k++) {
            v = v * 10 + (b.byteAt(k) - '0');
        }
        return v;
    }

    /** Java's \\s: space, tab, newline, vertical tab, form feed, carriage return. */
    static boolean space(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    static boolean regionMatches(ByteBuffer buf, int len, int at, byte[] what) {
        if (at + what.length > len) {
            return false;
        }
        for (int k = 0; k < what.length; k++) {
            if (buf.get(at + k) != what[k]) {
                return false;
            }
        }
        return true;
    }

    static int indexOf(ByteBuffer buf, int from, int to, byte[] what) {
        for (int k = from; k + what.length <= to; k++) {
            if (buf.get(k) == what[0] && regionMatches(buf, to, k, what)) {
                return k;
            }
        }
        return -1;
    }

}
