package io.github.limiter.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;

import io.github.limiter.test.EmbeddedRedis;
import io.github.limiter.test.WithRedis;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The admin console ({@code /console/index.html}) in Debian's headless Chromium: the administrator
 * logs in through the form, sees a crawler's alert and ban appear by the page's own polling, and
 * lifts the ban with its button; and raises a plan's limit with the plans form, sees the change
 * listed, is told why an invalid one is refused, and restores the plan with its button.
 */
@WithRedis
class AdminConsoleBrowserTests {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    /** The page polls every 2 s; this leaves room for a slow start of the browser on a busy machine. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static final By ALICE_BANNED = By.cssSelector("#bans tr[data-username='alice']");

    private static final By ALICE_ALERTED = By.cssSelector("#alerts tr[data-username='alice']");

    private static final By FREE_PLAN = By.cssSelector("#plans tr[data-plan='free']");

    /** Skipped where Chromium is not installed, except on CI, where a skip would hide the page's test. */
    @BeforeEach
    void chromiumAndItsDriverAreInstalled() {
        List<String> missing = List.of(CHROMIUM, CHROMEDRIVER)
            .stream()
            .filter(path -> !Files.isExecutable(path))
            .map(Path::toString)
            .toList();
        if (missing.isEmpty()) {
            return;
        }
        String message = "No " + String.join(" or ", missing)
                + ": the admin console's browser test needs `apt-get install chromium chromium-driver`";
        String ci = System.getenv("CI");
        if (ci != null && !ci.isEmpty()) {
            fail(message);
        }
        Assumptions.abort(message);
    }

    @Test
    void adminSeesAliceBannedLiveAndLiftsTheBanWithItsButton(EmbeddedRedis redis) throws IOException {
        withConsole(redis, "console-", (client, browser, wait) -> {
            logIn(browser, wait, "admin", "wrong");
            wait.until(textNotEmpty("login-error"));

            logIn(browser, wait, "admin", "password");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("bans")));
            wait.until(ExpectedConditions.textMatches(By.id("status"), Pattern.compile("^updated ")));
            assertThat(browser.findElements(ALICE_BANNED)).as("alice's ban before she crawls").isEmpty();

            String alice = client.token("alice");
            for (int read = 1; read <= 20; read++) {
                assertThat(client.read(alice, 1 + read % 3)).as("read %d", read).isEqualTo(200);
            }
            assertThat(client.read(alice, 1)).as("read 21").isEqualTo(429);

            wait.until(ExpectedConditions.presenceOfElementLocated(ALICE_BANNED));
            // the row reads "<at> alice free 11 <instance>": alerted at her 11th read, on the free plan
            wait.until(ExpectedConditions.textMatches(ALICE_ALERTED, Pattern.compile("\\balice free 11\\b")));

            wait.until(clicked(By.cssSelector("#bans tr[data-username='alice'] button.lift")));
            wait.until(ExpectedConditions.numberOfElementsToBe(ALICE_BANNED, 0));
            assertThat(text(browser, By.id("status"))).startsWith("updated ");
            assertThat(client.login("alice").statusCode()).as("alice logs in once the ban is lifted").isEqualTo(200);
        });
    }

    @Test
    void adminRaisesFreesMaxWithThePlansFormAndRestoresIt(EmbeddedRedis redis) throws IOException {
        withConsole(redis, "console-plans-", (client, browser, wait) -> {
            String admin = client.token("admin");
            logIn(browser, wait, "admin", "password");
            // the row reads "free 20 1m 10 15m none": as configured, not changed
            wait.until(ExpectedConditions.textMatches(FREE_PLAN, Pattern.compile("^free 20 1m 10 15m none\\s*$")));

            String bob = client.token("bob");
            for (int read = 1; read <= 20; read++) {
                assertThat(client.read(bob, 1 + read % 3)).as("bob's read %d", read).isEqualTo(200);
            }

            setPlan(browser, "free", "30", "10");
            wait.until(ExpectedConditions.textMatches(FREE_PLAN, Pattern.compile("\\bmax 30, alert-at 10\\b")));
            assertThat(freeOverride(client, admin)).as("free's override in the app").containsEntry("max", 30)
                .containsEntry("alertAt", 10);
            assertThat(client.read(bob, 1)).as("bob's read 21, free raised to 30").isEqualTo(200);

            setPlan(browser, "free", "30", "40");
            wait.until(textNotEmpty("plan-error"));
            assertThat(text(browser, By.id("plan-error"))).startsWith("Refused: ");
            assertThat(freeOverride(client, admin)).as("free after the refused change").containsEntry("alertAt", 10);

            wait.until(clicked(By.cssSelector("#plans tr[data-plan='free'] button.restore")));
            wait.until(ExpectedConditions.textMatches(FREE_PLAN, Pattern.compile("^free 20 1m 10 15m none\\s*$")));
            assertThat(browser.findElements(By.cssSelector("#plans button.restore"))).as("restore buttons").isEmpty();
            assertThat(freeOverride(client, admin)).as("free restored in the app").isNull();
        });
    }

    /** What a test does with the console open in the browser. */
    @FunctionalInterface
    private interface ConsoleSteps {

        void run(SampleClient client, WebDriver browser, WebDriverWait wait);

    }

    /**
     * Starts the sample app on the test's Redis, under a key prefix and session namespace of its
     * own, opens the console in Chromium, runs the steps, and closes both.
     */
    private static void withConsole(EmbeddedRedis redis, String prefixStart, ConsoleSteps steps) throws IOException {
        String prefix = prefixStart + UUID.randomUUID() + ":";
        String[] properties = { "--server.port=0", "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
                "--limiter.key-prefix=" + prefix, "--sample.sessions.namespace=" + prefix + "sessions" };
        Path profile = Files.createTempDirectory("console-chromium-");
        try (ConfigurableApplicationContext app = SpringApplication.run(SampleApplication.class, properties)) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            WebDriver browser = chromium(profile);
            try {
                WebDriverWait wait = new WebDriverWait(browser, WAIT);
                wait.ignoring(StaleElementReferenceException.class)
                    .withMessage(() -> "status line: '" + text(browser, By.id("status")) + "', what the page shows:\n"
                            + text(browser, By.tagName("body")));
                browser.get("http://localhost:" + port + "/console/index.html");
                steps.run(new SampleClient(port), browser, wait);
            }
            finally {
                browser.quit();
            }
        }
        finally {
            FileSystemUtils.deleteRecursively(profile);
        }
    }

    private static void setPlan(WebDriver browser, String plan, String max, String alertAt) {
        new Select(browser.findElement(By.id("plan"))).selectByValue(plan);
        browser.findElement(By.id("plan-max")).clear();
        browser.findElement(By.id("plan-max")).sendKeys(max);
        browser.findElement(By.id("plan-alert-at")).clear();
        browser.findElement(By.id("plan-alert-at")).sendKeys(alertAt);
        browser.findElement(By.id("plan-set")).click();
    }

    /** Policy free's override as the app applies it, or {@code null} if the plan has its configured values. */
    private static @Nullable Map<String, Object> freeOverride(SampleClient client, String admin) {
        return JsonPath.read(client.get("/actuator/ratelimits", admin).body(), "$.policies.free.override");
    }

    /**
     * Debian's Chromium and chromedriver, named explicitly so that Selenium Manager never looks for
     * (or downloads) either; no background connections, which a closed network would refuse.
     */
    private static WebDriver chromium(Path profile) {
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile);
        return new ChromeDriver(service, options);
    }

    private static void logIn(WebDriver browser, WebDriverWait wait, String username, String password) {
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
        browser.findElement(By.id("username")).clear();
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).clear();
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("#login-form button[type='submit']")).click();
    }

    /** Finds and clicks in one step: the page redraws its tables on every poll. */
    private static ExpectedCondition<Boolean> clicked(By button) {
        return (browser) -> {
            browser.findElement(button).click();
            return true;
        };
    }

    private static ExpectedCondition<Boolean> textNotEmpty(String id) {
        return (browser) -> !browser.findElement(By.id(id)).getText().isBlank();
    }

    private static String text(WebDriver browser, By element) {
        try {
            return browser.findElement(element).getText();
        }
        catch (RuntimeException ex) {
            return "<" + ex.getClass().getSimpleName() + ">";
        }
    }

}
