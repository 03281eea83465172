package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.DeviceSpec;
import dev.sluice.core.device.TaskRateCache;
import dev.sluice.spi.WriterConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The producer auto: none where a balance's device fits half the storage, else a GPU producer that makes it fit. */
class BalanceFitTest {
    @TempDir
    Path dir;

    @Test
    void aDeviceThatAsksHalfTheStorageOrLessKeepsTheTasksAsTheyAre() {
        BalanceFit.Choice choice = BalanceFit.choose(150e6, 200e6, 300e6);
        assertSame(Producer.NONE, choice.producer);
        assertEquals("none: the balance asks the device for 150.0 MB/s, within 50% of the 300.0 MB/s the storage under "
                + "it delivers", choice.why);
    }

    @Test
    void aDeviceThatAsksMoreGetsTheGpuProducerThatSlowsTheTasksToTheirShare() {
        // 400 MB/s asked of 300: the tasks may go at 200 x 150 / 400 = 75 MB/s. A batch's bytes at 200 MB/s took
        // 1/200 s per MB; at 75 they take 1/75: the producer adds 1/75 - 1/200 = 1/120 s per MB, 120 MB/s, which is
        // 114.4 MiB/s, rounded down to 114.
        BalanceFit.Choice choice = BalanceFit.choose(400e6, 200e6, 300e6);
        assertEquals("gpu:114m", choice.producer.toString());
        assertTrue(choice.why.startsWith("with the tasks as they are (200.0 MB/s of map output each) the balance would "
                + "ask the device for 400.0 MB/s, more than 50% of the 300.0 MB/s the storage under it delivers; a "
                + "GPU producer of 114 MiB/s slows each task to at most 75.0 MB/s, the device to at most 150.0 MB/s"),
                choice.why);
        assertTrue(choice.toString().startsWith("gpu:114m (auto: with the tasks"), choice.toString());
    }

    @Test
    void aDeviceThatIsNotABalanceNeedsNoMeasurement() throws Exception {
        Workload workload = Workload.parse("--", "small", "0.01", "1", "7", Workload.DEFAULT_BATCHES,
                Workload.DEFAULT_BATCH_BYTES, Workload.DEFAULT_ROWS_PER_BATCH, Workload.DEFAULT_PARTITIONING,
                Workload.DEFAULT_KEYS, "lz4-block", Workload.DEFAULT_SEED, dev.sluice.core.input.SchemaSpec.DEFAULT);
        for (String spec : new String[] {"native", "emulated:write=50m:dirty=64m", "sata-ssd"}) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            BalanceFit.Choice choice = BalanceFit.resolve(DeviceSpec.parse("--device", spec), workload,
                    WriterConfig.builder(), dir.resolve("base"), new TaskRateCache(dir.resolve("cache")),
                    new PrintStream(log, true));
            assertSame(Producer.NONE, choice.producer, spec);
            assertTrue(choice.why.contains("is not a balance"), choice.why);
            assertEquals("", log.toString(), "nothing measured");
            assertTrue(!Files.exists(dir.resolve("base")) && !Files.exists(dir.resolve("cache")), spec);
        }
    }
}
