package io.github.limiter.sample.admin;

import io.github.limiter.PrintableKeys;
import io.github.limiter.RateLimitAlertEvent;
import io.github.limiter.RateLimitBanEvent;
import io.github.limiter.sample.answers.AnswerController;
import io.github.limiter.sample.answers.AnswerLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.session.data.redis.RedisIndexedSessionRepository;
import org.springframework.stereotype.Component;

/**
 * Reacts to the tiers of answer reads, on every plan, on the instance that decided them (the
 * limiter raises each alert and starts each ban once, whichever instance the call came to): an
 * alert is logged for the administrator; a ban ends every session of the user, in Redis, so the user
 * is logged out of every instance at once.
 */
@Component
class KickOffline {

    private static final Logger logger = LoggerFactory.getLogger(KickOffline.class);

    private final FindByIndexNameSessionRepository<? extends Session> sessions;

    // the concrete type: AOT-processed, the sessionRepository bean's type comes from the bridge method
    // of Spring Session's generic @Bean method (a SessionRepository<?>), which no generic
    // FindByIndexNameSessionRepository<...> dependency matches
    KickOffline(RedisIndexedSessionRepository sessions) {
        this.sessions = sessions;
    }

    @EventListener(condition = "#event.limitId().startsWith('" + AnswerController.LIMIT_NAME + ".')")
    void notifyAdministrator(RateLimitAlertEvent event) {
        logger.warn("Administrator alert: user '{}' ({} plan) read {} answers within {}s (alert at {})",
                PrintableKeys.of(event.key()), AnswerLimits.planOf(event.limitId()), event.count(),
                event.window().toSeconds(), event.alertAt());
    }

    @EventListener(condition = "#event.limitId().startsWith('" + AnswerController.LIMIT_NAME + ".')")
    void kickOffline(RateLimitBanEvent event) {
        try {
            int ended = 0;
            for (String id : this.sessions.findByPrincipalName(event.key()).keySet()) {
                this.sessions.deleteById(id);
                ended++;
            }
            logger.warn("User '{}' banned for {}s for reading too fast; {} session(s) ended on every instance",
                    PrintableKeys.of(event.key()), event.banDuration().toSeconds(), ended);
        }
        catch (DataAccessException ex) {
            // the ban is in force all the same: every read is refused and every login too until it ends
            logger.warn("User '{}' banned for {}s, but their sessions could not be ended: {}",
                    PrintableKeys.of(event.key()),
                    event.banDuration().toSeconds(), ex.getMessage());
        }
    }

}
