package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.core.device.MapStageModel.WriteShape;
import org.junit.jupiter.api.Test;

/** A map stage on a fluid disk, against cases worked out by hand. */
class MapStageModelTest {
    private static final double EPS = 1e-9;
    private static final WriteShape PER_BATCH = new WriteShape(2, 0.5);
    private static final WriteShape AT_COMMIT = new WriteShape(1, 1);

    @Test
    void aStreamedWriterSlowerThanTheDiskTakesOnlyTheTimeToMakeItsOutput() {
        // R=100, D=50, r=10, S=100: the output takes 10 s to make, the disk keeps up, nothing is left for the commit.
        MapStageModel model = new MapStageModel(new FluidDisk(100, 50), 1, 10);
        assertEquals(10, model.seconds(100, WriteShape.streamed()), EPS);
    }

    @Test
    void perBatchStreamsItsFirstCopyThenWaitsForTheDiskToTakeTheSecond() {
        // R=10, D=50, r=20, S=100. Made in 5 s; the first copy (100 B at 20 B/s) fills the cache at 10 B/s net, full
        // (50 B) exactly at 5 s. The copy at commit (100 B) fits once 100 more bytes are drained: 10 s. In all 15 s,
        // when the disk has drained all 200 bytes but the cache's 50 at 10 B/s from the first byte.
        MapStageModel model = new MapStageModel(new FluidDisk(10, 50), 1, 20);
        assertEquals(15, model.seconds(100, PER_BATCH), EPS);
    }

    @Test
    void aWriterThatWritesAtCommitWaitsOnlyForWhatDoesNotFitTheEmptyCache() {
        // The same disk and task: 5 s to make the output in memory, then 100 B at once into an empty cache of 50: 5 s
        // for the disk to drain the other 50. Its improvement over per-batch: 15 / 10 - 1.
        MapStageModel model = new MapStageModel(new FluidDisk(10, 50), 1, 20);
        assertEquals(10, model.seconds(100, AT_COMMIT), EPS);
        assertEquals(0.5, model.seconds(100, PER_BATCH) / model.seconds(100, AT_COMMIT) - 1, EPS);
    }

    @Test
    void aWriterThatFitsTheCacheAtCommitTakesOnlyTheTimeToMakeItsOutput() {
        MapStageModel model = new MapStageModel(new FluidDisk(10, 500), 1, 20);
        assertEquals(5, model.seconds(100, AT_COMMIT), EPS);
    }

    @Test
    void alikeTasksShareTheDiskAsOneTaskOnADiskOfAShare() {
        // Two tasks on R=20, D=100 take what one takes on R=10, D=50.
        MapStageModel two = new MapStageModel(new FluidDisk(20, 100), 2, 20);
        assertEquals(15, two.seconds(100, PER_BATCH), EPS);
        assertEquals(10, two.seconds(100, AT_COMMIT), EPS);
    }

    @Test
    void perBatchAsTwoCopiesAtTwiceTheRateGivesThePlainModelsTimeWhereTheDiskHoldsItBack() {
        // docs/balance.md's own-figures.jsh modelled per-batch as 2S at 2r on the harness's seed-auto device (434.4
        // MB/s, 523 MB, tasks at 280.7 MB/s, xxlarge's 437768283 B a task); once the disk holds it back only the
        // bytes and the disk count, so the two shapes agree: (2 * 2S - D) / R.
        double s = 437768283;
        FluidDisk disk = new FluidDisk(434.4e6, 523e6);
        MapStageModel model = new MapStageModel(disk, 2, 280.7e6);
        double plain = disk.seconds(java.util.List.of(new FluidDisk.Writer(2 * s, 2 * 280.7e6),
                new FluidDisk.Writer(2 * s, 2 * 280.7e6)));
        assertEquals((4 * s - 523e6) / 434.4e6, plain, 1e-9);
        assertEquals(plain, model.seconds(s, PER_BATCH), 1e-9);
    }

    @Test
    void badFiguresAreRefusedNamingThem() {
        FluidDisk disk = new FluidDisk(10, 50);
        assertEquals("tasks must be 1 or more, not 0",
                assertThrows(IllegalArgumentException.class, () -> new MapStageModel(disk, 0, 1)).getMessage());
        assertEquals("taskBytesPerSecond must be a positive finite rate, not NaN",
                assertThrows(IllegalArgumentException.class, () -> new MapStageModel(disk, 1, Double.NaN))
                        .getMessage());
        assertEquals("atCommitShare must be a share from 0 to 1, not 1.5",
                assertThrows(IllegalArgumentException.class, () -> new WriteShape(1, 1.5)).getMessage());
        assertEquals("amplification must be a finite ratio, 0 or more, not -1.0",
                assertThrows(IllegalArgumentException.class, () -> new WriteShape(-1, 0)).getMessage());
        MapStageModel model = new MapStageModel(disk, 1, 1);
        assertThrows(IllegalArgumentException.class, () -> model.seconds(-1, PER_BATCH));
    }
}
