package io.github.limiter.sample.admin;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The administrator's API (the {@code ADMIN} role): recent alerts, active bans, and lifting a ban.
 * What it shows is what the limiter keeps in Redis, so every instance shows the same.
 */
@RestController
class AdminController {

    private final ReaderBans readers;

    AdminController(ReaderBans readers) {
        this.readers = readers;
    }

    @GetMapping("/admin/alerts")
    List<ReaderBans.Alert> alerts() {
        return this.readers.alerts();
    }

    @GetMapping("/admin/bans")
    List<ReaderBans.Ban> bans() {
        return this.readers.bans();
    }

    /** Lifts a ban (which also clears the user's count): 204, or a 404 problem if there was none. */
    @DeleteMapping("/admin/bans/{username}")
    ResponseEntity<Void> lift(@PathVariable String username) {
        if (!this.readers.lift(username)) {
            throw new ErrorResponseException(HttpStatus.NOT_FOUND,
                    ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "User '" + username + "' is not banned"),
                    null);
        }
        return ResponseEntity.noContent().build();
    }

}
