package io.github.limiter.interceptor;

import java.io.Closeable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.github.limiter.InvalidRateLimitException;
import io.github.limiter.annotation.RateLimit;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.ProxyConfig;
import org.springframework.aop.framework.autoproxy.AbstractAutoProxyCreator;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.framework.autoproxy.ProxyCreationContext;
import org.springframework.beans.factory.Aware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.Conventions;
import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Refuses the limits a proxy could never apply, when a class's first limited method is matched:
 * rather than leave the method silently unlimited, the bean's creation, and so the start, fails.
 * Spring's proxies intercept public instance methods only; a class-based (CGLIB) proxy cannot
 * override a final method nor subclass a final class, and an interface-based (JDK) proxy intercepts
 * only what the bean's interfaces declare. Which proxy a bean gets is told as Spring's auto-proxy
 * creators tell it ({@code AbstractAutoProxyCreator.buildProxy}): a final method declared on an
 * interface is refused only when the bean is proxied by class.
 */
final class ProxyChecks {

    // Spring 7's AutoProxyUtils.EXPOSED_INTERFACES_ATTRIBUTE (@Proxyable), by name: Spring 6 has none
    private static final String EXPOSED_INTERFACES = Conventions.getQualifiedAttributeName(AutoProxyUtils.class,
            "exposedInterfaces");

    // interfaces no auto-proxy creator proxies a bean through (ProxyProcessorSupport)
    private static final Set<Class<?>> CALLBACKS = Set.of(InitializingBean.class, DisposableBean.class,
            Closeable.class, AutoCloseable.class);

    private final @Nullable BeanFactory beanFactory;

    ProxyChecks(@Nullable BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /**
     * Checks every limited method of a class: the whole class on its first match, since a proxy is
     * decided by the first limited method it finds.
     * @throws InvalidRateLimitException for a limit that could never apply
     */
    void check(Class<?> userClass) {
        ReflectionUtils.doWithMethods(userClass, (method) -> {
            if (!method.isBridge() && !method.isSynthetic() && limited(method, userClass)) {
                if (!LimitSpecs.limitable(method)) {
                    throw notPublic(userClass, method);
                }
                if (Modifier.isFinal(method.getModifiers()) || Modifier.isFinal(userClass.getModifiers())) {
                    checkFinal(userClass, method);
                }
            }
        });
    }

    /** A method's own annotation, or its class's for the methods the class declares. */
    private static boolean limited(Method method, Class<?> userClass) {
        if (!AnnotatedElementUtils.findMergedRepeatableAnnotations(method, RateLimit.class).isEmpty()) {
            return true;
        }
        return method.getDeclaringClass() == userClass && LimitSpecs.limitable(method)
                && !AnnotatedElementUtils.findMergedRepeatableAnnotations(userClass, RateLimit.class).isEmpty();
    }

    private static InvalidRateLimitException notPublic(Class<?> userClass, Method method) {
        String kind = Modifier.isStatic(method.getModifiers()) ? "static"
                : Modifier.isPrivate(method.getModifiers()) ? "private"
                        : Modifier.isProtected(method.getModifiers()) ? "protected" : "package-private";
        return InvalidLimits.of(userClass, method, "method", kind,
                "can never apply: Spring's proxies intercept public instance methods only, so calls to "
                        + "this method would never be limited; make it public (and call it through the bean, "
                        + "not from inside its class)", null);
    }

    private void checkFinal(Class<?> userClass, Method method) {
        boolean finalClass = Modifier.isFinal(userClass.getModifiers());
        String why = finalClass ? "its class is final" : "it is final";
        String cannot = finalClass ? "subclass the class" : "override it";
        String fix = fix(userClass, finalClass);
        List<Class<?>> interfaces = Arrays.asList(ClassUtils.getAllInterfacesForClass(userClass));
        if (interfaces.stream().noneMatch((candidate) -> declares(candidate, method))) {
            throw InvalidLimits.of(userClass, method, "method", "final", "can never apply: " + why
                    + ", so Spring's class-based (CGLIB) proxy cannot " + cannot + ", and no interface of the class "
                    + "declares the method for an interface-based proxy; calls to it would never be limited. " + fix
                    + ".", null);
        }
        if (proxiedByClass(interfaces)) {
            throw InvalidLimits.of(userClass, method, "method", "final", "can never apply: " + why
                    + ", and this bean gets a class-based (CGLIB) proxy, which cannot " + cannot + "; calls to it "
                    + "would never be limited. " + fix + " (or have Spring proxy the bean through its interfaces, as "
                    + "spring.aop.proxy-target-class=false does in Spring Boot).", null);
        }
    }

    private static String fix(Class<?> userClass, boolean finalClass) {
        if (KotlinDetector.isKotlinType(userClass)) {
            // Kotlin classes and functions are final unless opened
            return "In Kotlin, mark the class and the function open, or let the kotlin-spring (or all-open) "
                    + "compiler plugin open them";
        }
        return finalClass ? "Remove final from the class" : "Remove final from the method";
    }

    private static boolean declares(Class<?> type, Method method) {
        return ReflectionUtils.findMethod(type, method.getName(), method.getParameterTypes()) != null;
    }

    /**
     * Whether the bean whose advisors are being found gets a class-based proxy; {@code false} when
     * not known (no bean factory, or matched outside an auto-proxy creator).
     */
    private boolean proxiedByClass(List<Class<?>> interfaces) {
        String beanName = ProxyCreationContext.getCurrentProxiedBeanName();
        if (beanName == null || !(this.beanFactory instanceof ConfigurableListableBeanFactory factory)) {
            return false;
        }
        if (AutoProxyUtils.shouldProxyTargetClass(factory, beanName)) {
            return true;
        }
        Object exposed = factory.containsBeanDefinition(beanName)
                ? factory.getBeanDefinition(beanName).getAttribute(EXPOSED_INTERFACES) : null;
        if (exposed instanceof Class<?> || (exposed instanceof Class<?>[] named && named.length > 0)) {
            return false;
        }
        if (exposed == null && byClassByDefault(factory)) {
            return true;
        }
        // what ProxyProcessorSupport.evaluateProxyInterfaces takes for a reason to proxy by interface
        return interfaces.stream().noneMatch(ProxyChecks::reasonableProxyInterface);
    }

    /** Whether an auto-proxy creator proxies by class; only those created, so as to create none early. */
    private static boolean byClassByDefault(ConfigurableListableBeanFactory factory) {
        String[] names = factory.getBeanNamesForType(AbstractAutoProxyCreator.class, true, false);
        return Arrays.stream(names)
            .map(factory::getSingleton)
            .anyMatch((creator) -> creator instanceof ProxyConfig config && config.isProxyTargetClass());
    }

    private static boolean reasonableProxyInterface(Class<?> type) {
        String name = type.getName();
        boolean callback = CALLBACKS.contains(type) || Arrays.asList(type.getInterfaces()).contains(Aware.class);
        boolean internal = name.equals("groovy.lang.GroovyObject") || name.endsWith(".cglib.proxy.Factory")
                || name.endsWith(".bytebuddy.MockAccess") || name.endsWith(".bytebuddy.access.MockAccess");
        return !callback && !internal && type.getMethods().length > 0;
    }

}
