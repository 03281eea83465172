package dev.sluice.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A producer gives each batch the time its bytes take at its rate, waiting (gpu) or working (cpu). */
class ProducerTest {
    @Test
    void noneIsTheDefaultAndTakesNoTime() {
        assertSame(Producer.NONE, Producer.parse("--producer", "none"));
        assertEquals(0, Producer.NONE.nanosFor(1 << 30));
        assertEquals(0, Producer.NONE.produce(1 << 30));
    }

    @Test
    void aBatchTakesItsBytesOverTheRate() {
        Producer gpu = Producer.parse("--producer", "gpu:64m/s");
        assertEquals(Producer.Kind.GPU, gpu.kind);
        assertEquals(64 * Bytes.MiB, gpu.bytesPerSecond);
        // 32 MiB at 64 MiB/s: half a second.
        assertEquals(500_000_000L, gpu.nanosFor(32 * Bytes.MiB));
        assertEquals(Producer.Kind.CPU, Producer.parse("p", "cpu:1g").kind);
    }

    @Test
    void aGpuProducerWaitsItsTimeWithoutWorking() {
        Producer gpu = Producer.parse("--producer", "gpu:10m");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long spent = gpu.produce(2 * Bytes.MiB); // 200 ms
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        assertTrue(spent >= 200_000_000L, String.valueOf(spent));
        assertTrue(cpu < spent / 2, "the waiting thread used " + cpu + " ns of CPU in " + spent + " ns");
    }

    @Test
    void aCpuProducerSpendsAtLeastItsTime() {
        long spent = Producer.parse("--producer", "cpu:10m").produce(Bytes.MiB); // 100 ms
        assertTrue(spent >= 100_000_000L, String.valueOf(spent));
    }

    @Test
    void anInterruptedProducerStopsEarlyAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        try {
            long spent = Producer.parse("--producer", "gpu:1m").produce(100 * Bytes.MiB); // would be 100 s
            assertTrue(spent < 10_000_000_000L, String.valueOf(spent));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpu", "fast", "gpu:", "gpu:fast", "tpu:58m", "gpu:1k", "cpu:0"})
    void aBadProducerIsRefusedNamingTheParameterTheValueAndWhatIsAllowed(String text) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> Producer.parse("--producer", text));
        assertEquals("--producer", e.parameter());
        assertTrue(e.getMessage().contains(text) && e.allowed().contains("gpu:RATE"), e.getMessage());
    }
}
