package io.github.limiter.internal.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert and ban log lines: the first of each interval written, the rest counted in one line
 * when it ends, never twice.
 */
class AlertAndBanLogTests {

    private final List<String> lines = new ArrayList<>();

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private final List<Scheduled> scheduled = new ArrayList<>();

    private final AlertAndBanLog log = new AlertAndBanLog(this.lines::add, 3, Duration.ofSeconds(60), this.now::get,
            (task, delayNanos) -> this.scheduled.add(new Scheduled(task, delayNanos)));

    @Test
    void writesTheFirstLinesOfAnIntervalAndCountsTheRestInOneLineWhenItEnds() {
        for (int i = 0; i < 5; i++) {
            this.log.alert("crawl", () -> "alert");
            this.log.ban("crawl", () -> "ban");
        }
        this.log.ban("search", () -> "ban");
        assertThat(this.lines).containsExactly("alert", "ban", "alert");
        assertThat(this.scheduled).as("one closing line scheduled").singleElement()
            .satisfies(task -> assertThat(task.delayNanos()).isEqualTo(Duration.ofSeconds(60).toNanos()));

        this.now.addAndGet(Duration.ofSeconds(60).toNanos());
        this.scheduled.get(0).task().run();
        assertThat(this.lines).hasSize(4);
        assertThat(this.lines.get(3)).startsWith("Rate limiting left 8 alert and ban lines out of the log in the last 60 s")
            .contains("past the first 3")
            .contains("limit 'crawl' 3 alerts and 4 bans; limit 'search' 0 alerts and 1 ban");
    }

    @Test
    void theFirstLineAfterAnIntervalEndsItWhenTheTimerHasNotYetAndTheTimerThenWritesNothing() {
        for (int i = 0; i < 4; i++) {
            this.log.ban("crawl", () -> "ban");
        }
        this.now.addAndGet(Duration.ofSeconds(61).toNanos());
        this.log.alert("crawl", () -> "alert");
        assertThat(this.lines).hasSize(5);
        assertThat(this.lines.get(3)).startsWith("Rate limiting left 1 alert and ban line out of the log in the last 60 s");
        assertThat(this.lines.get(4)).isEqualTo("alert");
        this.scheduled.get(0).task().run();
        assertThat(this.lines).as("never twice").hasSize(5);
    }

    @Test
    void anIntervalThatLeftNothingOutWritesNoClosingLine() {
        this.log.ban("crawl", () -> "ban");
        this.now.addAndGet(Duration.ofMinutes(5).toNanos());
        this.log.ban("crawl", () -> "ban");
        this.log.close();
        assertThat(this.lines).containsExactly("ban", "ban");
        assertThat(this.scheduled).isEmpty();
    }

    @Test
    void withNoLinesAllowedOnlyTheCountIsWritten() {
        AlertAndBanLog countOnly = new AlertAndBanLog(this.lines::add, 0, Duration.ofSeconds(10), this.now::get,
                (task, delayNanos) -> this.scheduled.add(new Scheduled(task, delayNanos)));
        countOnly.alert("crawl", () -> "alert");
        countOnly.ban("crawl", () -> "ban");
        assertThat(this.lines).isEmpty();
        this.now.addAndGet(Duration.ofSeconds(10).toNanos());
        this.scheduled.get(0).task().run();
        assertThat(this.lines).singleElement().asString().contains("limit 'crawl' 1 alert and 1 ban");
    }

    @Test
    void closingWritesTheCurrentIntervalsCount() {
        for (int i = 0; i < 4; i++) {
            this.log.ban("crawl", () -> "ban");
        }
        this.log.close();
        assertThat(this.lines).hasSize(4);
        assertThat(this.lines.get(3)).contains("limit 'crawl' 0 alerts and 1 ban");
    }

    @Test
    void theTimerWritesTheCountWhenTheIntervalEnds() {
        List<String> written = new CopyOnWriteArrayList<>();
        AlertAndBanLog timed = new AlertAndBanLog(written::add, 1, Duration.ofMillis(200));
        try {
            timed.ban("crawl", () -> "ban");
            timed.ban("crawl", () -> "ban");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (written.size() < 2 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            assertThat(written).hasSize(2);
            assertThat(written.get(1)).contains("left 1 alert and ban line").contains("limit 'crawl' 0 alerts and 1 ban");
        }
        finally {
            timed.close();
        }
        assertThat(written).as("nothing left to write on close").hasSize(2);
    }

    private record Scheduled(Runnable task, long delayNanos) {
    }

}
