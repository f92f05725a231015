package io.github.limiter.sample.admin;

import java.time.Instant;

import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.sample.answers.AnswerController;
import io.github.limiter.sample.auth.Tokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Reacts to the limiter's tiers on answer reads: an alert notifies the administrator; a ban kicks
 * the user offline and records the ban.
 */
@Component
class LimiterListeners {

    private static final Logger logger = LoggerFactory.getLogger(LimiterListeners.class);

    private final AlertLog alerts;

    private final BanRegistry bans;

    private final Tokens tokens;

    LimiterListeners(AlertLog alerts, BanRegistry bans, Tokens tokens) {
        this.alerts = alerts;
        this.bans = bans;
        this.tokens = tokens;
    }

    @EventListener(condition = "#event.limitId() == '" + AnswerController.LIMIT_ID + "'")
    void notifyAdministrator(RateLimitAlertEvent event) {
        logger.warn("Administrator alert: user '{}' read {} answers within {}s (alert at {})", event.key(),
                event.count(), event.window().toSeconds(), event.alertAt());
        this.alerts.add(new AlertLog.Alert(Instant.now(), event.key(), event.count(), event.alertAt(),
                event.window().toSeconds()));
    }

    @EventListener(condition = "#event.limitId() == '" + AnswerController.LIMIT_ID + "'")
    void kickOutAndBan(RateLimitBanEvent event) {
        int revoked = this.tokens.revokeAll(event.key());
        this.bans.record(event.key(), Instant.now().plus(event.banDuration()));
        logger.warn("User '{}' banned for {}s for reading too fast; {} session(s) revoked", event.key(),
                event.banDuration().toSeconds(), revoked);
    }

}
