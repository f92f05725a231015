package io.github.limiter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class LimitIdsTests {

    @ParameterizedTest
    @ValueSource(strings = { "AnswerController.answer", "answers", "api-v2_export", "Ärger.lesen" })
    void acceptsIdsThatCannotBreakTheHashTag(String id) {
        assertThat(LimitIds.problemWith(id)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "a:b", "a{b", "a}b", "a b", "a\tb" })
    void rejectsBlankIdsAndHashTagCharacters(String id) {
        assertThat(LimitIds.problemWith(id)).isNotNull();
    }

}
