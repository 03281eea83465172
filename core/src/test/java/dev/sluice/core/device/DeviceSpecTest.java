package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.Bytes;
import dev.sluice.spi.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seed-ssd profile comes from the seed report's own figures, as a balance to a task rate; device specs parse or are
 * refused by value.
 */
class DeviceSpecTest {
    @Test
    void seedSsdIsDerivedFromTheSeedReportsBaselineColumn() {
        SeedDerivation seed = SeedDerivation.fromSeedReport();
        // 16 x 1.95 GB x 2 / 86.5 s and 16 x 803 MB x 2 - that x 12.4 s.
        assertEquals(16 * 1.95e9 * 2 / 86.5, seed.writeBytesPerSecond(), 1);
        assertEquals(16 * 803e6 * 2 - 16 * 1.95e9 * 2 / 86.5 * 12.4, seed.dirtyBytes(), 1);
        assertEquals(721_387_283, seed.writeBytesPerSecond(), 1);
        String derivation = seed.explainDerivation();
        assertTrue(derivation.contains("= 0.721 GB/s (45.1 MB/s per slot)") && derivation.contains("16.75 GB "
                + "dirty (1.05 GB per slot)"), derivation);
        DeviceProfile derived = DeviceProfile.find(DeviceProfile.SEED_SSD_DERIVED);
        assertEquals(seed.writeBytesPerSecond(), derived.writeBytesPerSecond);
        assertEquals(seed.dirtyBytes(), derived.dirtyBytes);
        assertEquals(16, derived.slots);
        assertTrue(!derived.relative());
        DeviceProfile fitted = DeviceProfile.find(DeviceProfile.SEED_SSD_FITTED);
        assertEquals(Math.round(seed.writeBytesPerSecond() * SeedDerivation.WRITE_CALIBRATION),
                fitted.writeBytesPerSecond);
        assertEquals(Math.round(seed.dirtyBytes() * SeedDerivation.DIRTY_CALIBRATION), fitted.dirtyBytes);
        assertTrue(fitted.source.contains("legacy: fitted on the baseline's column"), fitted.source);
        assertTrue(!fitted.relative());
    }

    @Test
    void theSeedsTaskRateIsSmallsBytesOverItsMapperStageWhereItsDiskHeldNothingBack() {
        SeedDerivation seed = SeedDerivation.fromSeedReport();
        // 402 MB in the baseline's 6.9 s Small mapper stage; 16 x 402 MB x 2 = 12.86 GB fits the 16.75 GB cache.
        assertEquals(402e6 / 6.9, seed.taskBytesPerSecond(), 1);
        assertTrue(16 * 402e6 * 2 < seed.dirtyBytes());
        assertEquals(45.09e6 / 58.26e6, seed.balance(), 0.001);
        assertTrue(seed.explainDerivation().contains("task rate = 402 MB (Small) / 6.9 s")
                && seed.explainDerivation().contains("= 58.3 MB/s per slot; balance = 45.1 / 58.3 = 0.774"),
                seed.explainDerivation());
        DeviceProfile ssd = DeviceProfile.find(DeviceProfile.SEED_SSD);
        assertTrue(ssd.relative());
        assertEquals(seed.writeBytesPerSecond(), ssd.writeBytesPerSecond);
        assertEquals(seed.taskBytesPerSecond(), ssd.producePerSlot(), 1);
        assertEquals(seed.balance(), ssd.balance(), 1e-6);
    }

    @Test
    void aBalanceSetsTheRunsDiskToItsOwnTaskRateTimesTheRatioAndItsTasks() {
        DeviceSpec spec = DeviceSpec.parse("device", "seed-ssd");
        assertTrue(spec.needsTaskRate());
        assertThrows(IllegalStateException.class, () -> spec.resolve(2, 0.25));
        DeviceProfile.Emulation e = spec.resolve(2, 0.25, new TaskRate(100e6, "test"));
        double balance = DeviceProfile.find("seed-ssd").balance();
        assertEquals(Math.round(balance * 100e6 * 2), e.writeBytesPerSecond);
        // The dirty cache scales with the tasks and the data, as for an absolute profile.
        DeviceProfile seed = DeviceProfile.find("seed-ssd");
        assertEquals(Math.round(seed.dirtyBytes * 2.0 / 16 * 0.25), e.dirtyBytes);
        assertEquals(100e6, e.taskBytesPerSecond);
        assertTrue(e.derivation.contains("balance 45.1 MB/s of disk per slot / 58.3 MB/s of map output per slot = "
                + "0.774; this run's task rate 100.0 MB/s (test)"), e.derivation);
        // Twice the task rate, twice the disk: the same balance.
        assertEquals(2 * e.writeBytesPerSecond, spec.resolve(2, 0.25, new TaskRate(200e6, "test"))
                .writeBytesPerSecond, 1);
    }

    @Test
    void aUserGivesTheirOwnJobsTaskRateWithProduce() {
        DeviceSpec perSlot = DeviceSpec.parse("device", "per-slot:write=30m:dirty=1g:produce=60m");
        assertTrue(perSlot.needsTaskRate());
        assertEquals(0.5, perSlot.profile().balance(), 1e-9);
        assertEquals(Math.round(0.5 * 80e6 * 4), perSlot.resolve(4, 1, new TaskRate(80e6, "t")).writeBytesPerSecond);
        DeviceSpec sata = DeviceSpec.parse("device", "sata-ssd:produce=66250000");
        assertTrue(sata.needsTaskRate());
        assertEquals(0.5, sata.profile().balance(), 1e-9); // 530 MB/s / 16 slots = 33.125 MB/s over 66.25
        assertTrue(!DeviceSpec.parse("device", "sata-ssd").needsTaskRate());
        assertTrue(!DeviceSpec.parse("device", "per-slot:write=30m:dirty=1g").needsTaskRate());
    }

    @Test
    void aProfileIsScaledToTheRunsTasksAndDataScale() {
        DeviceProfile.Emulation two = DeviceSpec.parse("device", "seed-ssd-derived").resolve(2, 0.25);
        assertEquals(0, two.taskBytesPerSecond);
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
    void aDeviceWhoseRawWriteFallsShortOfTheBalanceSaysSo() {
        assertEquals(null, RunDevice.shortfall(366_000_000L, 340.0));
        String warning = RunDevice.shortfall(366_000_000L, 222.4);
        assertTrue(warning.contains("raw write measured 222.4 MB/s, 39% below the 366.0 MB/s asked"), warning);
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
        "seed-ssd:produce=fast|produce=RATE, a byte size per second",
        "per-slot:write=30m:dirty=1g:produce=1k|produce of at least 64KiB per second",
        "emulated:write=100m:dirty=3g:produce=60m|produce=RATE after per-slot or a profile only",
    })
    void aBadSpecIsRefusedNamingTheParameterTheValueAndWhatIsAllowed(String text, String allowed) {
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> DeviceSpec.parse("--device", text));
        assertEquals("--device", e.parameter());
        assertTrue(e.getMessage().contains(text) && e.allowed().contains(allowed), e.getMessage());
    }
}
