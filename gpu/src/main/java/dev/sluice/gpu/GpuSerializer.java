package dev.sluice.gpu;

import dev.sluice.core.serde.ShuffleCodec;
import dev.sluice.spi.InvalidParameterException;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Which serializer a GPU map task's records are written with, as spark-rapids chooses it with
 * {@code spark.rapids.shuffle.kudo.serializer.enabled} ({@code GpuColumnarBatchSerializer}): the one place that turns
 * the choice into a {@link GpuFormat}. Both serializers come from the spark-rapids-jni jar (kudo in its own package,
 * JCudfSerialization in the cudf-java classes it bundles); this enum itself loads without it.
 */
public enum GpuSerializer {
    /** kudo ({@code com.nvidia.spark.rapids.jni.kudo.KudoSerializer}): spark-rapids' default since 25.06. */
    KUDO("kudo"),
    /** {@code ai.rapids.cudf.JCudfSerialization}: the legacy serializer, with the setting false. */
    JCUDF("jcudf");

    private static final String ALLOWED = "kudo (spark-rapids' default, spark.rapids.shuffle.kudo.serializer.enabled"
            + "=true) or jcudf (JCudfSerialization, the setting false)";

    private final String label;

    GpuSerializer(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The serializer's name in messages. */
    public String description() {
        return this == KUDO ? "kudo" : "JCudfSerialization";
    }

    /**
     * The partition streams of a map task whose batches have {@code schema}, compressed with {@code codec}.
     *
     * @throws InvalidParameterException for a codec the records cannot be written in ({@link GpuFormat#CODECS})
     * @throws IllegalStateException when spark-rapids-jni is not on the class path, saying so
     */
    public GpuFormat format(ShuffleCodec codec, Schema schema) {
        requireClassPath("the " + label + " serializer");
        switch (this) {
            case KUDO:
                return new KudoFormat(codec, schema);
            case JCUDF:
                return new JCudfFormat(codec);
            default:
                throw new AssertionError(this);
        }
    }

    /** Throws, saying what to do, where the spark-rapids-jni jar (cudf-java and kudo) is not on the class path. */
    public static void requireClassPath(String what) {
        try {
            Class.forName("com.nvidia.spark.rapids.jni.kudo.KudoSerializer", false,
                    GpuSerializer.class.getClassLoader());
            Class.forName("ai.rapids.cudf.JCudfSerialization", false, GpuSerializer.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(what + " needs the spark-rapids-jni jar (cudf-java and kudo) on the class "
                    + "path, and " + e.getMessage() + " is not on it; docs/gpu.md says how to run with it", e);
        }
    }

    public static GpuSerializer parse(String parameter, String value) {
        for (GpuSerializer s : values()) {
            if (s.label.equals(value == null ? null : value.toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new InvalidParameterException(parameter, value, ALLOWED);
    }
}
