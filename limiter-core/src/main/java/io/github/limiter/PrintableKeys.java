package io.github.limiter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The form of a rate-limit key that is safe to write where people read it: a log line, an
 * exception message, a record an operator lists. Keys come from clients (user names, addresses,
 * headers, bodies), so a key written raw can start a forged log line with a CR or LF, colour or
 * clear a terminal with ESC, reorder what a reader sees with a bidirectional control, or fill a
 * log with a megabyte per line.
 *
 * <p>{@link #of(String)} escapes, as visible text:
 * <ul>
 * <li>the backslash and the single quote (keys are quoted in {@code '...'}): {@code \\}, {@code \'};</li>
 * <li>tab, LF and CR: {@code \t}, {@code \n}, {@code \r};</li>
 * <li>every other C0 control, DEL, every C1 control, the line and paragraph separators, the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), the byte
 * order mark, and lone surrogates (text that is not valid Unicode): {@code \}{@code uXXXX};</li>
 * </ul>
 * and bounds the length: a key of more than {@value #LONGEST} characters is written as its first
 * {@value #PREFIX}, escaped, followed by how many characters it has and the first 16 hex digits
 * of the SHA-256 of the whole key, so that two long keys with a common beginning still read
 * differently. Every other character is kept as it is: names in any script read as they are.
 *
 * <p>The limiter writes keys only in this form; an application that logs keys it receives in
 * events or exceptions should do the same. Structured logging (Spring Boot's
 * {@code logging.structured.format.console}) escapes control characters on its own, but neither
 * bounds the length nor shows bidirectional controls.
 *
 * @since 0.1.0
 */
public final class PrintableKeys {

    /** Keys up to this many characters are written whole. */
    public static final int LONGEST = 100;

    /** How many characters of a longer key are written. */
    public static final int PREFIX = 64;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PrintableKeys() {
    }

    /**
     * Returns a key as it is safe to write where people read it: escaped and bounded.
     * @param key the key, as a client sent it
     * @return the key itself when it needs nothing, else its escaped and bounded form
     */
    public static String of(String key) {
        if (key.length() <= LONGEST && isPlain(key)) {
            return key;
        }
        boolean cut = key.length() > LONGEST;
        int end = cut ? PREFIX : key.length();
        // never split a surrogate pair: the half left would read as a lone surrogate
        if (cut && Character.isHighSurrogate(key.charAt(end - 1)) && Character.isLowSurrogate(key.charAt(end))) {
            end--;
        }
        StringBuilder printable = new StringBuilder(end + 16);
        escape(key, end, printable);
        if (cut) {
            printable.append("...(").append(key.length()).append(" chars, sha256 ").append(sha256Prefix(key))
                .append(')');
        }
        return printable.toString();
    }

    private static boolean isPlain(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == '\\' || c == '\'' || (c >= 0x7F && needsEscapeAbove7E(key, i, c))) {
                return false;
            }
        }
        return true;
    }

    private static void escape(String key, int end, StringBuilder out) {
        for (int i = 0; i < end; i++) {
            char c = key.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("\\'");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || (c >= 0x7F && needsEscapeAbove7E(key, i, c))) {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                            .append(HEX[c & 0xF]);
                    }
                    else {
                        out.append(c);
                    }
                }
            }
        }
    }

    private static boolean needsEscapeAbove7E(String key, int i, char c) {
        if (c <= 0x9F) {
            // DEL and the C1 controls
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(key.charAt(i - 1));
        }
        return c == '\u061C' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069') || c == '\u2028' || c == '\u2029' || c == '\uFEFF';
    }

    private static String sha256Prefix(String key) {
        // lone surrogates escaped first: UTF-8 would write each as '?', and two keys as one digest
        StringBuilder lossless = new StringBuilder(key.length());
        escapeLoneSurrogates(key, lossless);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest(lossless.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }

    private static void escapeLoneSurrogates(String key, StringBuilder out) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isSurrogate(c) && needsEscapeAbove7E(key, i, c)) {
                out.append("\\u").append(Integer.toHexString(c).toUpperCase());
            }
            else {
                out.append(c == '\\' ? "\\\\" : String.valueOf(c));
            }
        }
    }

}
