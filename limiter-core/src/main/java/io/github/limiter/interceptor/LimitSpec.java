package io.github.limiter.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.github.limiter.Limit;
import io.github.limiter.LimitChecks;
import io.github.limiter.LimitChecks.Field;
import io.github.limiter.OnFailure;
import io.github.limiter.LimitDescription;
import io.github.limiter.policy.PolicyOverride;
import io.github.limiter.policy.PolicyOverrides;
import org.jspecify.annotations.Nullable;

/**
 * One limit of a method, resolved and validated once from its annotation and policy.
 *
 * @param limitId the limit id
 * @param key the parsed key expression
 * @param cost the parsed cost
 * @param limit what the limit allows, as configured
 * @param method the limited method, for descriptions
 * @param onFailure what calls do when Redis cannot decide, or {@code null} for the limiter's default
 * @param choice the policy chosen per call, or {@code null} when the limit is fixed
 * @param policy the policy the limit takes its unset values from, or {@code null}
 * @param written the fields written on the annotation, which a policy override does not change
 * @param zone the calendar's zone chosen per call, or {@code null} when the limit's zone is fixed
 * @param actualCost what a call really cost, settled after it ran, or {@code null} to keep its cost
 * @param condition whether the limit applies to a call, or {@code null} when it applies to every call
 * @param maxWait how long a call over the limit may wait for room, or {@code null} for not at all
 */
record LimitSpec(String limitId, KeyExpression key, CostExpression cost, Limit limit, String method,
        @Nullable OnFailure onFailure, @Nullable PolicyChoice choice, @Nullable String policy, Set<Field> written,
        @Nullable ZoneExpression zone, @Nullable ActualCost actualCost, @Nullable ConditionExpression condition,
        @Nullable Duration maxWait) implements PolicyOverrides.OverridableLimit {

    LimitSpec {
        written = Set.copyOf(written);
    }

    LimitSpec(String limitId, KeyExpression key, CostExpression cost, Limit limit, String method,
            @Nullable OnFailure onFailure) {
        this(limitId, key, cost, limit, method, onFailure, null, null, Set.of(), null, null, null, null);
    }

    /** This limit standing for a policy chosen per call, among the limits of {@code choice}. */
    LimitSpec choosing(PolicyChoice choice) {
        return new LimitSpec(this.limitId, this.key, this.cost, this.limit, this.method, this.onFailure, choice,
                this.policy, this.written, this.zone, this.actualCost, this.condition, this.maxWait);
    }

    /**
     * The limit a call is counted under: {@code inForce}, in the zone the call's arguments choose
     * if the limit's zone is chosen per call.
     * @throws IllegalArgumentException if the zone's expression gives no zone
     */
    Limit limitForCall(Limit inForce, Method called, @Nullable Object[] args) {
        return (this.zone != null) ? inForce.withZone(this.zone.resolve(called, args)) : inForce;
    }

    /**
     * Says whether the limit applies to a call: its condition's answer, if it has one.
     * @throws ExpressionFailure if the condition fails
     */
    boolean appliesTo(Method called, @Nullable Object[] args) {
        return this.condition == null || this.condition.applies(called, args);
    }

    /**
     * The limit a call is counted under: this one, or the one of the policy the call chooses;
     * {@code null} if that policy has fewer limits than this one stands for.
     */
    @Nullable LimitSpec forCall(Method called, @Nullable Object[] args) {
        return (this.choice != null) ? this.choice.select(this.method, called, args) : this;
    }

    /**
     * The limit a call's request of this id counts under, among {@code specs} and the policies
     * they choose per call; {@code null} if none has the id.
     */
    static @Nullable LimitSpec find(List<LimitSpec> specs, String limitId) {
        for (LimitSpec declared : specs) {
            for (LimitSpec spec : declared.variants()) {
                if (spec.limitId().equals(limitId)) {
                    return spec;
                }
            }
        }
        return null;
    }

    /** The limits as declared: one, or one per policy a call can choose. */
    List<LimitSpec> variants() {
        return (this.choice != null) ? List.copyOf(this.choice.byPolicy().values()) : List.of(this);
    }

    /** The limits as they apply now, with the policy overrides in force. */
    List<LimitDescription> describe(PolicyOverrides overrides) {
        return variants().stream().map((spec) -> spec.describedAs(overrides.limitOf(spec))).toList();
    }

    /** This limit, described as allowing {@code limit}. */
    @Override
    public LimitDescription describedAs(Limit limit) {
        return new LimitDescription(this.limitId, this.method, this.key.text(), limit);
    }

    /**
     * This limit with a policy override's values in place of its policy's, except where the
     * annotation wrote them.
     * @throws IllegalArgumentException naming the limit, the field and the value, if the result
     * breaks a rule
     */
    @Override
    public Limit overriddenBy(PolicyOverride override) {
        long max = pick(Field.MAX, override.max(), this.limit.max());
        // a calendar written on the annotation wins over the policy's window, and its overrides
        Duration window = (this.limit.calendar() != null) ? this.limit.window()
                : pick(Field.WINDOW, override.window(), this.limit.window());
        long alertAt = pick(Field.ALERT_AT, override.alertAt(), this.limit.alertAt());
        Duration banFor = (override.banFor() != null && !this.written.contains(Field.BAN_FOR)) ? override.banFor()
                : this.limit.banFor();
        LimitChecks.Problem problem = LimitChecks.check(this.limit.algorithm(), window, max,
                (alertAt != 0) ? alertAt : null, banFor);
        if (problem != null) {
            throw new IllegalArgumentException("limit '" + this.limitId + "' of " + this.method + " would have "
                    + problem.field().property() + " " + problem.value() + ", which " + problem.message());
        }
        if (this.cost instanceof CostExpression.Literal literal && literal.cost() > max) {
            throw new IllegalArgumentException("limit '" + this.limitId + "' of " + this.method + " would have max "
                    + max + ", below its cost " + literal.cost() + ": no call could ever pass");
        }
        LimitChecks.Problem burst = LimitChecks.burstProblem(this.limit.algorithm(), window, max, this.limit.burst());
        if (burst != null) {
            throw new IllegalArgumentException("limit '" + this.limitId + "' of " + this.method + " would have max "
                    + max + ", above its burst " + this.limit.burst() + ": a bucket holds at least what it refills");
        }
        Limit overridden = new Limit(this.limit.algorithm(), max, window, alertAt, banFor, this.limit.mode(),
                this.limit.calendar(), this.limit.zone(), this.limit.burst());
        ActualCost.Problem unsettled = (this.actualCost != null) ? ActualCost.problem(overridden) : null;
        if (unsettled != null) {
            throw new IllegalArgumentException("limit '" + this.limitId + "' of " + this.method + " would have "
                    + unsettled.field().property() + " " + window.toMillis() + "ms, where its actualCost "
                    + unsettled.message());
        }
        return overridden;
    }

    private <T> T pick(Field field, @Nullable T override, T configured) {
        return (override != null && !this.written.contains(field)) ? override : configured;
    }

}
