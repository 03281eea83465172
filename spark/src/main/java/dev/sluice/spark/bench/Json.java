package dev.sluice.spark.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * spark-bench's and SeedSubmit's JSON lines, written by Jackson (Spark's own, on every class path they run with): one
 * object a line, keys in the maps' order; values are numbers, booleans, strings, null, nested maps and lists. A
 * non-finite double (a mean of nothing, an interval of one pair) is written as null, which JSON can read, where
 * Jackson would write the string "NaN".
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().registerModule(new SimpleModule("finite-numbers")
            .addSerializer(Double.class, new FiniteOrNull<>(Double.class))
            .addSerializer(Double.TYPE, new FiniteOrNull<>(Double.TYPE))
            .addSerializer(Float.class, new FiniteOrNull<>(Float.class))
            .addSerializer(Float.TYPE, new FiniteOrNull<>(Float.TYPE)));

    private Json() {
    }

    /** {@code fields} as one line of JSON. */
    static String line(Map<String, ?> fields) {
        return write(fields);
    }

    /** {@code s} as a JSON string, quoted and escaped. */
    static String quote(String s) {
        return write(s);
    }

    private static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("spark-bench: cannot write " + value + " as JSON", e);
        }
    }

    /** A double or float as Java prints it (as Jackson does), or null where it is not finite. */
    private static final class FiniteOrNull<T extends Number> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;

        FiniteOrNull(Class<T> type) {
            super(type);
        }

        @Override
        public void serialize(T value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (!Double.isFinite(value.doubleValue())) {
                out.writeNull();
            } else if (value instanceof Float f) {
                out.writeNumber(f);
            } else {
                out.writeNumber(value.doubleValue());
            }
        }
    }
}
