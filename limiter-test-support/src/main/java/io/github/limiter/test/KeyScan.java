package io.github.limiter.test;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Scans a Redis server's keys, for tests that check every key the limiter wrote.
 */
public final class KeyScan {

    private KeyScan() {
    }

    /**
     * Returns the keys under a prefix that have no expiry: keys that would live forever.
     * @param commands a connection to one server
     * @param prefix the key prefix
     * @return the keys without a TTL
     */
    public static List<String> withoutTtl(RedisCommands<String, String> commands, String prefix) {
        List<String> immortal = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = commands.scan(cursor, ScanArgs.Builder.matches(prefix + "*").limit(500));
            page.getKeys().stream().filter(key -> commands.pttl(key) == -1).forEach(immortal::add);
            cursor = page;
        }
        while (!cursor.isFinished());
        return immortal;
    }

}
