package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * How long a new device's {@code dirty_ratelimit} is trained down: enough of the kernel's steps (an eighth every
 * 200 ms) to go from its initial 100 MiB/s to a sixteenth of the device's rate, plus two, and never under a second;
 * what it writes, and the room a fluid device is made with for it.
 */
class RateLimitTrainingTest {
    private static final double MIB = 1 << 20;

    @Test
    void fiftyMiBPerSecondTakesTwiceTwentySixStepsPlusTwoOfTwoHundredMilliseconds() {
        // A sixteenth of 50 MiB/s is 3.125 MiB/s, 1/32 of 100 MiB/s: (7/8)^25 = 0.0355 is still above 1/32,
        // (7/8)^26 = 0.0311 is below it, so 26 steps, and two more, twice: 2 x 28 x 0.2 s.
        assertTrue(Math.pow(7.0 / 8, 25) > 1.0 / 32 && Math.pow(7.0 / 8, 26) < 1.0 / 32);
        assertEquals(11.2, RateLimitTraining.seconds(50 * MIB), 1e-9);
    }

    @Test
    void theStepsTakenBringTheInitialLimitToASixteenthOfTheRate() {
        for (double mib : new double[] {1, 8, 16, 45.1, 64, 200, 530, 1000}) {
            double seconds = RateLimitTraining.seconds(mib * MIB);
            long steps = Math.round(seconds / RateLimitTraining.INTERVAL_SECONDS / 2) - 2;
            double reached = RateLimitTraining.INITIAL_BYTES_PER_SECOND * Math.pow(RateLimitTraining.STEP, steps);
            double target = mib * MIB / RateLimitTraining.WRITERS;
            assertTrue(seconds > 1.0, mib + " MiB/s: " + seconds + " s, above the floor of a second");
            assertTrue(reached <= target, mib + " MiB/s: " + steps + " steps reach " + reached / MIB);
            assertTrue(reached / RateLimitTraining.STEP > target, mib + " MiB/s: " + steps + " steps, more "
                    + "than needed");
        }
    }

    @Test
    void theTrainingGrowsAsTheRateFalls() {
        double previous = 0;
        for (double mib = 4000; mib >= 1; mib /= 1.5) {
            double seconds = RateLimitTraining.seconds(mib * MIB);
            assertTrue(seconds >= previous, mib + " MiB/s: " + seconds + " s, less than " + previous
                    + " s at a faster rate");
            previous = seconds;
        }
        assertTrue(RateLimitTraining.seconds(1 * MIB) > RateLimitTraining.seconds(100 * MIB));
        // 1 MiB/s: a sixteenth is 1/1600 of 100 MiB/s: ln 1600 / ln 8/7 = 55.2, so 56 steps and two more, twice.
        assertEquals(2 * 58 * 0.2, RateLimitTraining.seconds(1 * MIB), 1e-9);
    }

    @Test
    void itIsNeverUnderASecond() {
        for (double mib : new double[] {100, 1000, 1600, 5000, 100_000}) {
            assertTrue(RateLimitTraining.seconds(mib * MIB) >= 1.0, mib + " MiB/s");
        }
        // From 16 x 100 MiB/s up a sixteenth is at or above the initial limit: no step is needed, a second is written.
        assertEquals(1.0, RateLimitTraining.seconds(1600 * MIB), 1e-9);
        assertEquals(1.0, RateLimitTraining.seconds(5000 * MIB), 1e-9);
    }

    @Test
    void theTrainingWritesItsSecondsOfTheRateAndTheCapInSixteenFiles() {
        // 50 MiB/s: 11.2 s of it and the 8 MiB cap, 568 MiB, in 16 files of 35.5 MiB.
        assertEquals(568L << 20, RateLimitTraining.bytes(50L << 20));
        // 200 MiB/s: 16 steps and two, twice (7.2 s), 1440 MiB and the cap.
        assertEquals(1448L << 20, RateLimitTraining.bytes(200L << 20));
        // 5 GB/s (a profile's NVMe disk): a second of it, more than the 1 GiB a small run's device asks for.
        assertTrue(RateLimitTraining.bytes(5_000_000_000L) > 5_000_000_000L);
    }

    @Test
    void aFluidDeviceIsMadeLargeEnoughForItsTrainingAndALegacyOneAsAsked() {
        long asked = 256L << 20;
        assertEquals(asked, EmulatedDevice.capacityFor(DeviceMechanism.LEGACY, 200L << 20, asked));
        // 1448 MiB of training, a quarter more and 512 MiB for the file system.
        assertEquals((1448L + 362 + 512) << 20, EmulatedDevice.capacityFor(DeviceMechanism.FLUID, 200L << 20, asked));
        assertEquals(4L << 30, EmulatedDevice.capacityFor(DeviceMechanism.FLUID, 200L << 20, 4L << 30), "enough");
        long nvme = EmulatedDevice.capacityFor(DeviceMechanism.FLUID, 5_000_000_000L, 1L << 30);
        assertTrue(nvme > RateLimitTraining.bytes(5_000_000_000L) && nvme % (1 << 20) == 0, nvme + " bytes");
    }
}
