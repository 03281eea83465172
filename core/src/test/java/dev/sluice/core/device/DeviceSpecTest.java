package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The seed-ssd profile comes from the seed report's own figures; device specs parse or are refused by value. */
class DeviceSpecTest {
    @Test
    void seedSsdIsDerivedFromTheSeedReportsBaselineColumn() {
        SeedDerivation seed = SeedDerivation.fromSeedReport();
        // 16 x 1.95 GB x 2 / 86.5 s and 16 x 803 MB x 2 - that x 12.4 s.
        assertEquals(16 * 1.95e9 * 2 / 86.5, seed.writeBytesPerSecond(), 1);
        assertEquals(16 * 803e6 * 2 - 16 * 1.95e9 * 2 / 86.5 * 12.4, seed.dirtyBytes(), 1);
        assertEquals(721_387_283, seed.writeBytesPerSecond(), 1);
        assertTrue(seed.explain().contains("= 0.721 GB/s (45.1 MB/s per slot)") && seed.explain().contains("16.75 GB "
                + "dirty (1.05 GB per slot)"), seed.explain());
        DeviceProfile derived = DeviceProfile.find(DeviceProfile.SEED_SSD_DERIVED);
        assertEquals(seed.writeBytesPerSecond(), derived.writeBytesPerSecond);
        assertEquals(seed.dirtyBytes(), derived.dirtyBytes);
        assertEquals(16, derived.slots);
        DeviceProfile calibrated = DeviceProfile.find(DeviceProfile.SEED_SSD);
        assertEquals(Math.round(seed.writeBytesPerSecond() * SeedDerivation.WRITE_CALIBRATION),
                calibrated.writeBytesPerSecond);
        assertEquals(Math.round(seed.dirtyBytes() * SeedDerivation.DIRTY_CALIBRATION), calibrated.dirtyBytes);
        assertTrue(calibrated.source.contains("calibrated on the baseline's column here"), calibrated.source);
    }

    @Test
    void aProfileIsScaledToTheRunsTasksAndDataScale() {
        DeviceProfile.Emulation two = DeviceSpec.parse("device", "seed-ssd-derived").resolve(2, 0.25);
        DeviceProfile seed = DeviceProfile.find("seed-ssd-derived");
        assertEquals(Math.round(seed.writeBytesPerSecond * 2.0 / 16), two.writeBytesPerSecond);
        assertEquals(Math.round(seed.dirtyBytes * 2.0 / 16 * 0.25), two.dirtyBytes);
        assertEquals(0, two.iops);
        assertTrue(two.derivation.contains("seed-ssd-derived for 2 tasks at scale 0.25"), two.derivation);
        DeviceProfile.Emulation overridden = DeviceSpec.parse("device", "seed-ssd-derived:dirty=2g").resolve(2, 0.25);
        assertEquals(2 * Bytes.GiB, overridden.dirtyBytes);
        assertEquals(two.writeBytesPerSecond, overridden.writeBytesPerSecond);
        assertTrue(overridden.derivation.contains("overridden: dirty=2GiB"), overridden.derivation);
        assertEquals(375, DeviceSpec.parse("device", "cloud-gp3").resolve(2, 1).iops);
    }

    @Test
    void aPerSlotSpecIsABalanceTimesTheRunsTasksAndItsDirtyCacheTimesTheScale() {
        DeviceProfile.Emulation e = DeviceSpec.parse("device", "per-slot:write=25000000:dirty=1000000000")
                .resolve(2, 0.05);
        assertEquals(50_000_000, e.writeBytesPerSecond);
        assertEquals(100_000_000, e.dirtyBytes);
        assertTrue(e.derivation.startsWith("per-slot for 2 tasks at scale 0.05"), e.derivation);
    }

    @Test
    void anEmulatedDeviceGetsWholeMebibytesOfRoomForTheRun() {
        assertEquals(Bytes.GiB, RunDevice.capacity(DeviceSpec.parse("d", "seed-ssd"), 1000));
        long capacity = RunDevice.capacity(DeviceSpec.parse("d", "seed-ssd"), 3_000_000_001L);
        assertEquals(0, capacity % Bytes.MiB);
        assertTrue(capacity >= 3_000_000_001L * 5 / 4 + RunDevice.SLACK, String.valueOf(capacity));
    }

    @Test
    void anEmulatedSpecTakesItsFiguresAsGiven() {
        DeviceSpec spec = DeviceSpec.parse("device", "emulated:write=100m/s:dirty=3g:iops=500:read=200m:size=40g");
        DeviceProfile.Emulation figures = spec.resolve(7, 0.1);
        assertEquals(100 * Bytes.MiB, figures.writeBytesPerSecond);
        assertEquals(200 * Bytes.MiB, figures.readBytesPerSecond);
        assertEquals(500, figures.iops);
        assertEquals(3 * Bytes.GiB, figures.dirtyBytes);
        assertEquals(40 * Bytes.GiB, spec.size());
        assertTrue(DeviceSpec.parse("device", "native").isNative());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "fast-disk|native, emulated:write=RATE:dirty=SIZE",
        "emulated:write=100m|both write=RATE and dirty=SIZE",
        "emulated:write=100m:dirty=3g:speed=9|keys write, dirty, iops, read, size",
        "emulated:write=fast:dirty=3g|write=RATE, a byte size per second",
        "emulated:write=100m:dirty=3g:iops=0|iops=N, an integer >= 1",
        "emulated:write=1k:dirty=3g|write of at least 64KiB per second",
        "seed-ssd:dirty=1g:dirty=2g|each key once",
        "seed-ssd:size=1m|size of at least 64MiB",
    })
    void aBadSpecIsRefusedNamingTheParameterTheValueAndWhatIsAllowed(String text, String allowed) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> DeviceSpec.parse("--device", text));
        assertEquals("--device", e.parameter());
        assertTrue(e.getMessage().contains(text) && e.allowed().contains(allowed), e.getMessage());
    }
}
