package io.github.limiter.consumer;

import io.github.limiter.annotation.RateLimit;

import org.springframework.stereotype.Service;

/** Reports under the {@code reports} policy of {@code application.yml}: it alerts, then bans. */
@Service
public class ReportService {

    @RateLimit(name = "reports", policy = "reports", key = "#user")
    public String generate(String user) {
        return "report for " + user;
    }

}
