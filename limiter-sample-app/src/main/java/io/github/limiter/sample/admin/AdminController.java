package io.github.limiter.sample.admin;

import java.util.List;

import io.github.limiter.RateLimiter;
import io.github.limiter.sample.answers.AnswerController;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The administrator's API (admin token required): alerts, active bans, and lifting a ban.
 */
@RestController
class AdminController {

    private final AlertLog alerts;

    private final BanRegistry bans;

    private final RateLimiter rateLimiter;

    AdminController(AlertLog alerts, BanRegistry bans, RateLimiter rateLimiter) {
        this.alerts = alerts;
        this.bans = bans;
        this.rateLimiter = rateLimiter;
    }

    @GetMapping("/admin/alerts")
    List<AlertLog.Alert> alerts() {
        return this.alerts.alerts();
    }

    @GetMapping("/admin/bans")
    List<BanRegistry.Ban> bans() {
        return this.bans.active();
    }

    /** Lifts a ban in the limiter (which also clears the user's count) and in the app: 204, or 404 if none. */
    @DeleteMapping("/admin/bans/{username}")
    ResponseEntity<Void> lift(@PathVariable String username) {
        boolean inLimiter = this.rateLimiter.unban(AnswerController.LIMIT_ID, username);
        boolean inApp = this.bans.lift(username);
        return (inLimiter || inApp) ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
    }

}
