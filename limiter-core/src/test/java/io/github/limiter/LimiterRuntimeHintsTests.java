package io.github.limiter;

import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.limiter.annotation.RateLimit;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the limiter registers for a native image, as Spring's AOT processing of an application finds
 * it: the hints and processor named in {@code META-INF/spring/aot.factories}, applied to a context
 * of limited beans.
 */
class LimiterRuntimeHintsTests {

    private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

    private final RuntimeHints hints = processAheadOfTime(Answers.class, Reports.class, Orders.class, Settled.class,
            AuditedOrders.class, Unlimited.class);

    @Test
    void registersEveryScriptAsAResource() throws IOException {
        Resource[] scripts = new PathMatchingResourcePatternResolver()
            .getResources("classpath:META-INF/limiter/scripts/*.lua");
        assertThat(scripts).hasSizeGreaterThanOrEqualTo(11);
        for (Resource script : scripts) {
            assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/limiter/scripts/" + script.getFilename()))
                .as(script.getFilename())
                .accepts(this.hints);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/limiter/other.txt")).rejects(this.hints);
    }

    @Test
    void registersTheClassesTheLimiterLooksUpByName() {
        for (String type : List.of("io.lettuce.core.RedisClient", "reactor.core.publisher.Mono",
                "reactor.core.scheduler.Schedulers", "org.reactivestreams.Publisher")) {
            assertThat(reflection.onType(TypeReference.of(type))).as(type).accepts(this.hints);
        }
        assertThat(reflection.onType(TypeReference.of("redis.clients.jedis.Jedis")))
            .as("Jedis, not on this classpath")
            .rejects(this.hints);
    }

    @Test
    void registersTheGettersOfTheMethodVariable() {
        assertThat(reflection.onMethodInvocation(Method.class, "getName")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(Method.class, "getDeclaringClass")).accepts(this.hints);
    }

    @Test
    void registersLimitedMethodsAndTheirFallbacksForInvocation() {
        assertThat(reflection.onMethodInvocation(Answers.class, "answer")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(Answers.class, "busy")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(Answers.class, "unlimited")).rejects(this.hints);
    }

    @Test
    void registersEveryPublicMethodOfAClassWhoseLimitIsOnTheClass() {
        assertThat(reflection.onMethodInvocation(Reports.class, "daily")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(Reports.class, "weekly")).accepts(this.hints);
    }

    @Test
    void findsTheFallbackInTheBeanClassForALimitDeclaredOnAnInterface() {
        assertThat(reflection.onMethodInvocation(AuditedOrders.class, "place")).accepts(this.hints);
        assertThat(reflection.onMethodInvocation(AuditedOrders.class, "later")).accepts(this.hints);
    }

    @Test
    void registersTheDeclaredTypesOfArgumentsASpelKeyOrCostReads() {
        assertThat(reflection.onType(Order.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
            .accepts(this.hints);
        assertThat(reflection.onType(Item.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
            .as("the element type of an array argument a cost reads")
            .accepts(this.hints);
        assertThat(reflection.onType(Ticket.class)).as("a key that is the argument itself").rejects(this.hints);
    }

    @Test
    void registersTheTypesAnActualCostReads() {
        assertThat(reflection.onType(Receipt.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
            .as("what a future completes with").accepts(this.hints);
        assertThat(reflection.onType(Usage.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
            .as("a returned value").accepts(this.hints);
        assertThat(reflection.onType(Throwable.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
            .as("#exception").accepts(this.hints);
    }

    @Test
    void registersNoMethodsOfBeansWithoutLimits() {
        assertThat(reflection.onMethodInvocation(Unlimited.class, "free")).rejects(this.hints);
    }

    private static RuntimeHints processAheadOfTime(Class<?>... beanClasses) {
        GenericApplicationContext context = new GenericApplicationContext();
        Arrays.stream(beanClasses).forEach((beanClass) -> context.registerBean(beanClass));
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(LimiterRuntimeHintsTests.class)), new InMemoryGeneratedFiles());
        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        return generation.getRuntimeHints();
    }

    public static class Answers {

        @RateLimit(key = "#user", window = "60s", max = 20, fallback = "busy")
        public String answer(String user) {
            return "42";
        }

        public String busy(String user, RateLimitExceededException ex) {
            return "busy";
        }

        public String unlimited() {
            return "free";
        }

    }

    @RateLimit(window = "1h", max = 5)
    public static class Reports {

        public String daily() {
            return "daily";
        }

        public String weekly() {
            return "weekly";
        }

    }

    public record Order(String customer, Item[] items) {
    }

    public record Item(long quantity) {
    }

    public record Ticket(String id) {
    }

    public static class Orders {

        @RateLimit(key = "#order.customer", window = "1s", max = 10)
        public void add(Order order) {
        }

        @RateLimit(key = "#customer", cost = "#items.length > 0 ? #items[0].quantity : 1", window = "1s", max = 10)
        public void addAll(String customer, Item[] items) {
        }

        @RateLimit(key = "#ticket", window = "1s", max = 10)
        public void close(Ticket ticket) {
        }

    }

    public record Receipt(long items) {
    }

    public record Usage(long tokens) {
    }

    public static class Settled {

        @RateLimit(key = "#customer", window = "1s", max = 10, actualCost = "#result.items()")
        public CompletableFuture<Receipt> order(String customer) {
            return CompletableFuture.completedFuture(new Receipt(1));
        }

        @RateLimit(key = "#customer", window = "1s", max = 10, actualCost = "#exception == null ? #result.tokens() : 1")
        public Usage complete(String customer) {
            return new Usage(1);
        }

    }

    public interface OrderDesk {

        @RateLimit(key = "#customer", window = "1s", max = 10, fallback = "later")
        String place(String customer);

    }

    public static class AuditedOrders implements OrderDesk {

        @Override
        public String place(String customer) {
            return "placed";
        }

        public String later(String customer) {
            return "later";
        }

    }

    public static class Unlimited {

        public String free() {
            return "free";
        }

    }

}
