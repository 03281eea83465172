package dev.sluice.core.strategy;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.ShuffleWriterFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The strategies on the class path, by name. */
public final class ShuffleWriters {
    private ShuffleWriters() {}

    public static Map<String, ShuffleWriterFactory> available() {
        Map<String, ShuffleWriterFactory> byName = new TreeMap<>();
        for (ShuffleWriterFactory factory : ServiceLoader.load(ShuffleWriterFactory.class)) {
            ShuffleWriterFactory previous = byName.put(factory.name(), factory);
            if (previous != null && previous.getClass() != factory.getClass()) {
                throw new IllegalStateException("two strategies are named '" + factory.name() + "': "
                        + previous.getClass().getName() + " and " + factory.getClass().getName());
            }
        }
        return byName;
    }

    public static ShuffleWriterFactory find(String parameter, String name) {
        Map<String, ShuffleWriterFactory> all = available();
        ShuffleWriterFactory factory = all.get(name);
        if (factory == null) {
            List<String> allowed = new ArrayList<>(all.keySet());
            allowed.addAll(Presets.names());
            throw new InvalidParameterException(parameter, name, "one of " + String.join(", ", allowed));
        }
        return factory;
    }
}
