package io.github.limiter.internal.transport;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * The decision script's commands as the limiter sends them over Lettuce: Redis reads plain
 * {@code EVALSHA} and {@code EVAL}, while Lettuce sees a type of their own, which
 * {@link LettuceTimeouts} tells from every other command to give them the late window.
 */
enum DecisionCommand implements ProtocolKeyword {

    EVALSHA, EVAL;

    private final byte[] bytes = name().getBytes(StandardCharsets.US_ASCII);

    @Override
    public byte[] getBytes() {
        return this.bytes;
    }

}
