package io.github.limiter.autoconfigure.web;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * The first value of each header or parameter of a request, by name, as a rule's {@code #headers}
 * and {@code #params} read them: one at a time, as an expression asks; the whole map only if an
 * expression lists it.
 */
final class FirstValues extends AbstractMap<String, String> {

    private final Function<String, @Nullable String> first;

    private final Supplier<Map<String, String>> all;

    FirstValues(Function<String, @Nullable String> first, Supplier<Map<String, String>> all) {
        this.first = first;
        this.all = all;
    }

    @Override
    public @Nullable String get(Object name) {
        return (name instanceof String text) ? this.first.apply(text) : null;
    }

    @Override
    public boolean containsKey(Object name) {
        return get(name) != null;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return this.all.get().entrySet();
    }

}
