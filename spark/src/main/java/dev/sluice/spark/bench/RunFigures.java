package dev.sluice.spark.bench;

import dev.sluice.spi.storage.IoSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of the seed job under one writer: the figures of its JSON line. {@code queryMillis} is the write's SQL
 * execution, {@code driverMillis} the driver's clock around the write; the stage figures are Spark's events'; the
 * peaks are this JVM's ({@link MemoryPeaks}). The peaks, {@code sluiceBatches}, {@code sluice} (Sluice's counted
 * I/O during the run) and {@code fallbacks} (the run's shuffles that went to Spark's own writer, with the reason) are
 * null where the executors are other JVMs. {@code sluiceTasks} is the mapper stage's Sluice accumulators as its tasks
 * reported them ({@code mapOutputs}, {@code fallbacks}, {@code batches}, {@code batchesForMemory},
 * {@code spilledBytes}), in any master mode; {@code mapperSpilledBytes} and {@code mapperPeakExecutionBytes} are
 * Spark's task metrics of the mapper stage (its tasks' spills summed; the most execution memory Spark granted one task).
 */
record RunFigures(String writer, int iteration, boolean warmup, long queryMillis, long driverMillis,
                  long mapperStageMillis, long sumTaskMillis, long reducerStageMillis, long mapperGcMillis,
                  long reducerGcMillis, Long peakHeapBytes, Long peakOffHeapBytes, long shuffleBytes,
                  long shuffleRecords, long shuffleWriteTimeMillis, long rows, boolean verified, Long sluiceBatches,
                  IoSnapshot sluice, java.util.List<String> fallbacks, Map<String, Long> sluiceTasks,
                  long mapperSpilledBytes, long mapperPeakExecutionBytes) {

    /** The mapper stage's Sluice accumulator {@code name} (without its prefix), 0 where no task reported it. */
    long sluiceTask(String name) {
        return sluiceTasks == null ? 0 : sluiceTasks.getOrDefault(name, 0L);
    }

    /**
     * Where some of a Sluice writer's {@code tasks} map outputs were not Sluice's: "Sluice wrote W of the N map
     * outputs and F map tasks went to Spark's own writer (why)"; null where Sluice wrote them all.
     */
    String notAllSluices(int tasks) {
        long written = sluiceTask("mapOutputs");
        long fellBack = sluiceTask("fallbacks");
        if (fellBack == 0 && written >= tasks) {
            return null;
        }
        return "Sluice wrote " + written + " of the " + tasks + " map outputs and " + fellBack + " map tasks went to "
                + "Spark's own writer (" + (fallbacks != null ? fallbacks : "the executors' logs say why") + ")";
    }

    /** The figures the summary compares, by their JSON names. */
    double figure(String name) {
        return switch (name) {
            case "queryMillis" -> queryMillis;
            case "driverMillis" -> driverMillis;
            case "mapperStageMillis" -> mapperStageMillis;
            case "sumTaskMillis" -> sumTaskMillis;
            case "reducerStageMillis" -> reducerStageMillis;
            case "mapperGcMillis" -> mapperGcMillis;
            case "reducerGcMillis" -> reducerGcMillis;
            case "peakHeapBytes" -> peakHeapBytes == null ? Double.NaN : peakHeapBytes;
            case "peakOffHeapBytes" -> peakOffHeapBytes == null ? Double.NaN : peakOffHeapBytes;
            case "shuffleBytes" -> shuffleBytes;
            default -> throw new IllegalArgumentException("no figure " + name);
        };
    }

    /** The JSON line's fields: the figures, then the shape and the setting they ran at. */
    Map<String, Object> line(Shape shape, String preset, int partitions, String master, String lz4Java) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("writer", writer);
        line.put("iteration", iteration);
        line.put("warmup", warmup);
        line.put("queryMillis", queryMillis);
        line.put("driverMillis", driverMillis);
        line.put("mapperStageMillis", mapperStageMillis);
        line.put("sumTaskMillis", sumTaskMillis);
        line.put("reducerStageMillis", reducerStageMillis);
        line.put("mapperGcMillis", mapperGcMillis);
        line.put("reducerGcMillis", reducerGcMillis);
        line.put("peakHeapBytes", peakHeapBytes);
        line.put("peakOffHeapBytes", peakOffHeapBytes);
        line.put("shuffleBytes", shuffleBytes);
        line.put("shuffleRecords", shuffleRecords);
        line.put("shuffleWriteTimeMillis", shuffleWriteTimeMillis);
        line.put("rows", rows);
        line.put("verified", verified);
        line.put("size", shape.size());
        line.put("scale", shape.scale());
        line.put("tasks", shape.tasks());
        line.put("partitions", partitions);
        line.put("batchBytes", shape.batchBytes());
        line.put("batchesPerTask", shape.batchesPerTask());
        line.put("rowsPerTask", shape.rowsPerTask());
        line.put("seedBytesPerTask", Math.round(Shape.seedBytes(shape.size(), shape.scale())));
        line.put("sizing", shape.sizing().json());
        line.put("preset", preset);
        line.put("master", master);
        line.put("spark", org.apache.spark.package$.MODULE$.SPARK_VERSION());
        line.put("lz4Java", lz4Java);
        if (sluice != null) {
            Map<String, Object> io = new LinkedHashMap<>();
            io.put("bytesWritten", sluice.bytesWritten);
            io.put("writeCalls", sluice.writeCalls);
            io.put("bytesRead", sluice.bytesRead);
            io.put("filesCreated", sluice.filesCreated);
            io.put("renames", sluice.renames);
            io.put("committedBytes", sluice.committedBytes);
            io.put("batches", sluiceBatches);
            line.put("sluice", io);
        } else {
            line.put("sluice", null);
        }
        line.put("fallbacks", fallbacks);
        line.put("sluiceTasks", sluiceTasks);
        line.put("mapperSpilledBytes", mapperSpilledBytes);
        line.put("mapperPeakExecutionBytes", mapperPeakExecutionBytes);
        return line;
    }
}
