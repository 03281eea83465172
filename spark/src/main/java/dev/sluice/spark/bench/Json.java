package dev.sluice.spark.bench;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One JSON object per line; values are numbers, booleans, strings, null, nested maps and lists. Non-finite doubles
 * (a mean of nothing, an interval of one pair) are written as null.
 */
final class Json {
    private Json() {
    }

    static String line(Map<String, ?> fields) {
        StringBuilder out = new StringBuilder();
        object(out, fields);
        return out.toString();
    }

    private static void object(StringBuilder out, Map<String, ?> fields) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append(quote(e.getKey())).append(':');
            value(out, e.getValue());
        }
        out.append('}');
    }

    @SuppressWarnings("unchecked")
    private static void value(StringBuilder out, Object v) {
        if (v == null) {
            out.append("null");
        } else if ((v instanceof Double || v instanceof Float) && !Double.isFinite(((Number) v).doubleValue())) {
            out.append("null");
        } else if (v instanceof Number || v instanceof Boolean || v instanceof BigDecimal) {
            out.append(v);
        } else if (v instanceof Map) {
            object(out, (Map<String, ?>) v);
        } else if (v instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) v) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                value(out, item);
            }
            out.append(']');
        } else {
            out.append(quote(v.toString()));
        }
    }

    static String quote(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                q.append('\\').append(c);
            } else if (c < 0x20) {
                q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                q.append(c);
            }
        }
        return q.append('"').toString();
    }
}
