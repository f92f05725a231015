package io.github.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.List;

/**
 * Builds the Redis keys of a limit and key. The limit id and the resolved key form one hash tag,
 * so every key of one decision lands in the same Redis Cluster slot: {@code <prefix>{<limit-id>:<key>}}
 * for the state, and the same with {@code :ban} (or {@code :shadow-ban} in shadow mode) and
 * {@code :alert}; {@code <prefix>{<limit-id>}} when the key is empty (one state shared by every
 * caller).
 *
 * <p>Keys come from the caller's data, so they are made safe, losing nothing: {@code %},
 * <code>{</code>, <code>}</code> and {@code #} are percent-escaped, so a key can never end the
 * hash tag early; a lone surrogate (text that is not valid Unicode, such as a U+DC80 that no high
 * surrogate precedes, which a JSON body can hold) is written {@code %uDC80}, since UTF-8 has no
 * bytes for it and would write every one as {@code ?}, one key for many users; and a key longer
 * than {@value #LONGEST} characters once escaped is replaced by {@code #} and the SHA-256 of its
 * escaped form: bounded, never truncated into another key's counter, and never equal to an
 * escaped key, which cannot contain {@code #}.
 *
 * <p>Keys are compared as people read them: unless the limiter is told not to, a key is put in
 * Unicode normalization form C first, so that {@code é} written as one code point and as {@code e}
 * followed by a combining accent are one key, with one count.
 */
final class RedisKeys {

    static final int LONGEST = 200;

    // U+0300, COMBINING GRAVE ACCENT: no code point below it changes under normalization form C
    private static final char FIRST_COMBINING = '\u0300';

    private RedisKeys() {
    }

    /** Returns the state key, of the key as given. */
    static String state(String prefix, String limitId, String key) {
        return key.isEmpty() ? prefix + '{' + limitId + '}' : prefix + '{' + limitId + ':' + safe(key) + '}';
    }

    /** Returns the state key, of the key in normalization form C if {@code nfc}. */
    static String state(String prefix, String limitId, String key, boolean nfc) {
        return state(prefix, limitId, nfc ? nfc(key) : key);
    }

    /**
     * The key in Unicode normalization form C. A key of code points below U+0300, where the first
     * combining marks are, is already in it: checked without a copy, as most keys are.
     */
    static String nfc(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (key.charAt(i) >= FIRST_COMBINING) {
                return Normalizer.isNormalized(key, Normalizer.Form.NFC) ? key
                        : Normalizer.normalize(key, Normalizer.Form.NFC);
            }
        }
        return key;
    }

    /** The key as it appears in Redis keys: escaped, or hashed when long. */
    static String safe(String key) {
        if (key.length() <= LONGEST && !needsEscaping(key)) {
            // the common case, on every call: no copy
            return key;
        }
        StringBuilder escaped = new StringBuilder(key.length() + 8);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            switch (c) {
                case '%' -> escaped.append("%25");
                case '{' -> escaped.append("%7B");
                case '}' -> escaped.append("%7D");
                case '#' -> escaped.append("%23");
                default -> {
                    if (isLoneSurrogate(key, i, c)) {
                        // UTF-8 has no bytes for it: written raw, every lone surrogate became '?'
                        escaped.append("%u").append(HexFormat.of().withUpperCase().toHexDigits(c));
                    }
                    else {
                        escaped.append(c);
                    }
                }
            }
        }
        // hashed once escaped: the escaped text is valid Unicode, so its UTF-8 bytes lose nothing
        return (escaped.length() <= LONGEST) ? escaped.toString() : '#' + sha256(escaped.toString());
    }

    private static boolean needsEscaping(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '%' || c == '{' || c == '}' || c == '#' || (Character.isSurrogate(c) && isLoneSurrogate(key, i, c))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code c}, at {@code i} of {@code key}, is a surrogate without its other half. */
    static boolean isLoneSurrogate(String key, int i, char c) {
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(key.charAt(i - 1));
        }
        return false;
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }

    /** Returns the state, ban and alert keys, in the order the script takes them. */
    static List<String> of(String prefix, String limitId, String key, boolean shadow) {
        return of(state(prefix, limitId, key), shadow);
    }

    /** Returns the state, ban and alert keys for a state key already built. */
    static List<String> of(String state, boolean shadow) {
        return List.of(state, state + (shadow ? RedisLayout.SHADOW_BAN : RedisLayout.BAN), state + RedisLayout.ALERT);
    }

}
