package io.github.limiter.autoconfigure.redis;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Where the application's connection factory bean comes from: whether Spring Boot's Redis
 * auto-configuration built it, from the connection details it resolved, or the application did,
 * from whatever it chose. Read from the bean's definition: the configuration whose method made it.
 */
final class FactoryOrigin {

    private FactoryOrigin() {
    }

    /**
     * Whether the factory is the bean that a configuration class of the given package made.
     * @param factory the application's connection factory
     * @param beanFactory the application's bean factory
     * @param configurationPackage the package of Spring Boot's Redis connection configurations
     */
    static boolean madeIn(RedisConnectionFactory factory, BeanFactory beanFactory, String configurationPackage) {
        if (!(beanFactory instanceof ConfigurableListableBeanFactory beans)) {
            return false;
        }
        for (String name : beans.getBeanNamesForType(RedisConnectionFactory.class, true, false)) {
            if (beans.getSingleton(name) == factory && beans.containsBeanDefinition(name)) {
                BeanDefinition definition = beans.getMergedBeanDefinition(name);
                String configuration = definition.getFactoryBeanName();
                Class<?> type = (configuration != null) ? beans.getType(configuration) : null;
                return type != null && ClassUtils.getUserClass(type).getPackageName().equals(configurationPackage);
            }
        }
        return false;
    }

}
