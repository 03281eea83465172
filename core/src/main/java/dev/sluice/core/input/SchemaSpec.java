package dev.sluice.core.input;

import dev.sluice.spi.InvalidParameterException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The generated table's columns: {@code key} (int64, not null) first, then the configured ones. Written as a list
 * such as {@code int32,float64,int64?,utf8}, where {@code ?} makes a column nullable (one value in ten is null).
 */
public final class SchemaSpec {
    public static final String DEFAULT = "int32,float64,int64?,utf8";
    public static final String KEY_COLUMN = "key";

    /** One configured column. */
    public static final class Column {
        public final String name;
        public final ColumnType type;
        public final boolean nullable;

        Column(String name, ColumnType type, boolean nullable) {
            this.name = name;
            this.type = type;
            this.nullable = nullable;
        }
    }

    private final String text;
    private final List<Column> columns;

    private SchemaSpec(String text, List<Column> columns) {
        this.text = text;
        this.columns = Collections.unmodifiableList(columns);
    }

    public static SchemaSpec defaults() {
        return parse("columns", DEFAULT);
    }

    public static SchemaSpec parse(String parameter, String text) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column(KEY_COLUMN, ColumnType.INT64, false));
        String allowed = "a comma-separated list of int64, int32, float64, utf8, each optionally followed by ? (nullable)";
        if (text.isBlank()) {
            throw new InvalidParameterException(parameter, text, allowed);
        }
        for (String part : text.split(",", -1)) {
            String item = part.trim().toLowerCase(Locale.ROOT);
            boolean nullable = item.endsWith("?");
            String typeName = nullable ? item.substring(0, item.length() - 1) : item;
            ColumnType type = null;
            for (ColumnType t : ColumnType.values()) {
                if (t.label().equals(typeName)) {
                    type = t;
                }
            }
            if (type == null) {
                throw new InvalidParameterException(parameter, text, allowed + " (not '" + part + "')");
            }
            columns.add(new Column(type.label() + (nullable ? "_nullable_" : "_") + columns.size(), type, nullable));
        }
        return new SchemaSpec(text, columns);
    }

    public List<Column> columns() {
        return columns;
    }

    public Schema arrowSchema() {
        List<Field> fields = new ArrayList<>();
        for (Column c : columns) {
            fields.add(new Field(c.name, new FieldType(c.nullable, c.type.arrowType(), null), null));
        }
        return new Schema(fields);
    }

    /** Estimated Arrow buffer bytes per row, validity bits included. */
    double meanBytesPerRow() {
        double bytes = 0;
        for (Column c : columns) {
            bytes += c.type.meanBytesPerValue() + (c.nullable ? 1.0 / 8 : 0);
        }
        return bytes;
    }

    @Override
    public String toString() {
        return text;
    }
}
