package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.TaskShape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one device set-up of the command line, the benchmarks' forks and spark-bench: planned, checked, opened. */
class RunDeviceTest {
    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8);

    @Test
    void theBytesARunPlansAreItsTasksOutputsTimesTheCopiesItsWritersKeep() {
        assertEquals(3 * 100 * 2, RunDevice.plannedBytes(3, 100, 2));
        // Sluice's strategies: every task's records serialized (1.05 of the input, rounded up), twice.
        assertEquals(2 * 1050 * RunDevice.STRATEGY_COPIES, RunDevice.plannedBytes(new TaskShape(2, 1000, 1)));
        assertEquals(4L * 1_000_000_000 * 2, RunDevice.plannedBytes(4, 1_000_000_000, 2), "no int overflow");
    }

    @Test
    void aDeviceTooSmallForThePlanOrUnavailableIsRefusedNamingTheParameterBeforeAnythingIsMade() {
        DeviceSpec small = DeviceSpec.parse("d", "emulated:write=10m:dirty=16m:size=64m");
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> RunDevice.plan("--device", small, 1, 1, 1_000_000_000L));
        assertEquals("--device", e.parameter());
        assertEquals("emulated:write=10m:dirty=16m:size=64m", e.value());
        assertTrue(e.allowed().startsWith("size=") || e.allowed().startsWith("native on this machine"),
                e.allowed());
    }

    @Test
    void nativeStorageIsTheDirectoryAsGivenAndNeedsNoTaskRate(@TempDir Path dir) throws Exception {
        RunDevice.Planned planned = RunDevice.plan("--device", DeviceSpec.nativeDevice(), 2, 0.25, 1L << 40);
        try (RunDevice device = planned.open(dir, () -> {
            throw new AssertionError("native storage asked for a task rate");
        }, QUIET, false)) {
            assertSame(dir, device.directory());
            assertEquals(null, device.emulated());
        }
    }

    @Test
    void aBalanceTakesItsTaskRateBeforeTheDeviceIsMadeAndAFailedMeasurementMakesNone(@TempDir Path dir)
            throws Exception {
        DeviceSpec balance = DeviceSpec.parse("d", "per-slot:write=40m:dirty=64m:produce=100m");
        if (RunDevice.refusal(balance, 0) != null) {
            return; // no emulated devices here (not root): the refusal above is what such a machine gets
        }
        List<String> before = DeviceRecovery.recorded();
        RunDevice.Planned planned = RunDevice.plan("--device", balance, 1, 1, 64L << 20);
        IOException e = assertThrows(IOException.class, () -> planned.open(dir, () -> {
            throw new IOException("no rate on purpose");
        }, QUIET, false));
        assertEquals("no rate on purpose", e.getMessage());
        assertEquals(before, DeviceRecovery.recorded(), "a device was made although its task rate failed");
        assertFalse(dir.toFile().list().length > 0, "files were left in " + dir);
    }
}
