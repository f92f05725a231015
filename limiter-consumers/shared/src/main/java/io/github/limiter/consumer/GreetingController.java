package io.github.limiter.consumer;

import io.github.limiter.annotation.RateLimit;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Three greetings per user a minute; the fourth is answered with 429 by the starter. Limited methods are public. */
@RestController
public class GreetingController {

    @GetMapping("/hello/{user}")
    @RateLimit(name = "greetings", key = "#user", window = "1m", max = 3)
    public String hello(@PathVariable String user) {
        return "Hello, " + user;
    }

}
