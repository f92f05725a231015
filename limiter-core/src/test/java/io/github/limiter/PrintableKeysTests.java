package io.github.limiter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class PrintableKeysTests {

    @ParameterizedTest
    @ValueSource(strings = { "alice", "user@example.com", "ключ", "鍵", "emoji 🙂", "a:b{c}#%", "sur?", "sur\ufffd",
            "" })
    void keepsOrdinaryKeysAsTheyAre(String key) {
        assertThat(PrintableKeys.of(key)).isSameAs(key);
    }

    @Test
    void aKeyCannotStartALineOfItsOwn() {
        String forged = "victim\r\n2026-11-28T00:34:59.999Z  INFO 1 --- [app] ban of key 'mallory' lifted by admin";
        String printable = PrintableKeys.of(forged);
        assertThat(printable).doesNotContain("\r", "\n")
            .startsWith("victim\\r\\n2026-11-28T00:34:59.999Z  INFO 1 --- [app] ban of key \\'mallory\\'");
    }

    @Test
    void controlsAreShownAsVisibleEscapes() {
        assertThat(PrintableKeys.of("\u001b[2J\u001b[1;31mred\u0007")).isEqualTo("\\u001B[2J\\u001B[1;31mred\\u0007");
        assertThat(PrintableKeys.of("tab\there\u0000\u007f\u0085\u009b")).isEqualTo("tab\\there\\u0000\\u007F\\u0085\\u009B");
        assertThat(PrintableKeys.of("back\\slash 'quoted'")).isEqualTo("back\\\\slash \\'quoted\\'");
        assertThat(PrintableKeys.of("line\u2028para\u2029bom\ufeff")).isEqualTo("line\\u2028para\\u2029bom\\uFEFF");
    }

    @Test
    void bidirectionalControlsAreShownSoTheyCannotReorderALine() {
        assertThat(PrintableKeys.of("admin\u202egnp.exe")).isEqualTo("admin\\u202Egnp.exe");
        assertThat(PrintableKeys.of("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069"))
            .isEqualTo("\\u061C\\u200E\\u200F\\u202A\\u202B\\u202C\\u202D\\u2066\\u2067\\u2068\\u2069");
    }

    @Test
    void loneSurrogatesAreShownAndPairsKept() {
        assertThat(PrintableKeys.of("sur\udc80")).isEqualTo("sur\\uDC80");
        assertThat(PrintableKeys.of("sur\udfff")).isEqualTo("sur\\uDFFF");
        assertThat(PrintableKeys.of("\ud800x")).isEqualTo("\\uD800x");
        assertThat(PrintableKeys.of("pair \ud83d\ude42")).isEqualTo("pair \ud83d\ude42");
    }

    @Test
    void longKeysAreBoundedWithTheirLengthAndADigest() {
        String megabyte = "x".repeat(1_048_576);
        String printable = PrintableKeys.of(megabyte);
        assertThat(printable).startsWith("x".repeat(PrintableKeys.PREFIX) + "...(1048576 chars, sha256 ")
            .endsWith(")")
            .hasSizeLessThan(120);
        assertThat(PrintableKeys.of(megabyte + "y")).as("another long key reads differently").isNotEqualTo(printable);
        assertThat(PrintableKeys.of("x".repeat(PrintableKeys.LONGEST))).isEqualTo("x".repeat(PrintableKeys.LONGEST));
    }

    @Test
    void anEscapedLongKeyStaysBounded() {
        String printable = PrintableKeys.of("\u001b".repeat(100_000));
        assertThat(printable).hasSizeLessThan(PrintableKeys.PREFIX * 6 + 60).doesNotContain("\u001b");
    }

    @Test
    void theCutNeverSplitsASurrogatePair() {
        String key = "a".repeat(PrintableKeys.PREFIX - 1) + "\ud83d\ude42" + "b".repeat(100);
        String printable = PrintableKeys.of(key);
        assertThat(printable).startsWith("a".repeat(PrintableKeys.PREFIX - 1) + "...(");
    }

    @Test
    void longKeysThatDifferOnlyInLoneSurrogatesHaveDifferentDigests() {
        String common = "z".repeat(200);
        assertThat(PrintableKeys.of(common + "\udc80")).isNotEqualTo(PrintableKeys.of(common + "\udfff"))
            .isNotEqualTo(PrintableKeys.of(common + "?"));
    }

}
