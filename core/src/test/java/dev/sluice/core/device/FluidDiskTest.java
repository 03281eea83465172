package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.core.device.FluidDisk.Result;
import dev.sluice.core.device.FluidDisk.Writer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fluid model of a disk behind a dirty page cache, against cases worked out by hand. */
class FluidDiskTest {
    private static final double EPS = 1e-9;

    /**
     * The same writer next to one that writes nothing, so that the event-driven simulation, not the one-writer
     * formula, gives its time.
     */
    private static double simulated(FluidDisk disk, Writer writer) {
        return disk.finish(List.of(writer, new Writer(0, 1))).finishSeconds()[0];
    }

    @Test
    void aSingleUnpacedWriterFinishesWhenTheDiskHasDrainedAllButTheCache() {
        // R=1, D=4, S=10: 4 bytes go into the cache at once, the other 6 only as fast as the disk drains: (10-4)/1 = 6.
        FluidDisk disk = new FluidDisk(1, 4);
        Result result = disk.finish(List.of(Writer.unpaced(10)));
        assertEquals(6, result.seconds(), EPS);
        assertArrayEquals(new double[] {6}, result.finishSeconds(), EPS);
        // With no disk an unpaced writer takes no time, so all 6 s are the disk's doing.
        assertEquals(6, result.heldBackSeconds(), EPS);
        assertEquals(6, simulated(disk, Writer.unpaced(10)), EPS);
    }

    @Test
    void aSingleUnpacedWriterThatFitsInTheCacheTakesNoTimeAndIsNotHeldBack() {
        // R=1, D=4, S=3: max(0, (3-4)/1) = 0; the cache takes it all at once.
        FluidDisk disk = new FluidDisk(1, 4);
        Result result = disk.finish(List.of(Writer.unpaced(3)));
        assertEquals(0, result.seconds(), EPS);
        assertEquals(0, result.heldBackSeconds(), EPS);
        assertEquals(0, simulated(disk, Writer.unpaced(3)), EPS);
    }

    @Test
    void aWriterFasterThanTheDiskIsHeldToTheDiskOnceTheCacheIsFull() {
        // R=1, D=4, S=10 at r=2: the cache gains 2-1 = 1 byte a second, so it is full at t=4 with 2*4 = 8 bytes
        // written; the last 2 go at the disk's 1 byte a second: 4 + 2 = 6 = max(10/2, (10-4)/1).
        // Alone it would take 10/2 = 5 s, so the disk holds it back 1 s.
        FluidDisk disk = new FluidDisk(1, 4);
        Result result = disk.finish(List.of(new Writer(10, 2)));
        assertEquals(6, result.seconds(), EPS);
        assertEquals(1, result.heldBackSeconds(), EPS);
        assertEquals(6, simulated(disk, new Writer(10, 2)), EPS);
    }

    @Test
    void aWriterSlowerThanTheDiskKeepsItsOwnPaceAndIsNeverHeldBack() {
        // R=1, D=4, S=10 at r=0.5: the disk drains faster than it fills, so the cache never fills: 10/0.5 = 20.
        FluidDisk disk = new FluidDisk(1, 4);
        Result result = disk.finish(List.of(new Writer(10, 0.5)));
        assertEquals(20, result.seconds(), EPS);
        assertEquals(0, result.heldBackSeconds(), EPS);
        assertEquals(20, simulated(disk, new Writer(10, 0.5)), EPS);
    }

    @Test
    void twoEqualUnpacedWritersShareTheCacheAndTheDiskAndFinishTogether() {
        // R=1, D=4, 5+5 bytes: each puts 2 into the cache at once (4 in all), then each gets 1/2 byte a second for its
        // last 3 bytes: 3/0.5 = 6 s, the same as one writer of 10: (10-4)/1 = 6.
        FluidDisk disk = new FluidDisk(1, 4);
        Result result = disk.finish(List.of(Writer.unpaced(5), Writer.unpaced(5)));
        assertArrayEquals(new double[] {6, 6}, result.finishSeconds(), EPS);
        assertEquals(6, result.seconds(), EPS);
        assertEquals(6, result.heldBackSeconds(), EPS);
    }

    @Test
    void twoPacedWritersFillTheCacheTogetherThenTheFasterIsHeldToTheDiskAlone() {
        // R=1, D=2; A: 4 bytes at 2/s, B: 1 byte at 1/s.
        // 0 to 1 s: the cache is not full, both write at their own pace; it gains 2+1-1 = 2 a second, so it is full at
        //   t=1, just as B writes its last byte: B finishes at 1; A has 4-2 = 2 left.
        // 1 s on: the cache is full and A alone wants 2 > 1, so A gets the disk's 1 a second: 2/1 = 2 s more, t=3.
        // Alone A would take 4/2 = 2 s and B 1 s, so the disk holds them back 3 - 2 = 1 s.
        FluidDisk disk = new FluidDisk(1, 2);
        Result result = disk.finish(List.of(new Writer(4, 2), new Writer(1, 1)));
        assertArrayEquals(new double[] {3, 1}, result.finishSeconds(), EPS);
        assertEquals(3, result.seconds(), EPS);
        assertEquals(1, result.heldBackSeconds(), EPS);
    }

    @Test
    void twoHeldWritersShareTheDiskEquallyUntilTheFirstIsDone() {
        // R=1, D=2; A: 4 bytes at 2/s, B: 2 bytes at 1/s.
        // 0 to 1 s: the cache gains 2+1-1 = 2 a second and is full at t=1; A has 4-2 = 2 left, B 2-1 = 1.
        // 1 to 3 s: full; the disk's 1 a second split equally, 1/2 each (both want more than 1/2):
        //   B's 1 byte takes 2 s, so B finishes at 3; A wrote 1 of its 2 and has 1 left.
        // 3 s on: A alone gets 1 a second: 1 more second, t=4.
        // Check: 6 bytes = the 2 left in the cache + 4 s of the disk at 1 a second.
        // Alone A would take 4/2 = 2 s and B 2/1 = 2 s, so the disk holds them back 4 - 2 = 2 s.
        FluidDisk disk = new FluidDisk(1, 2);
        Result result = disk.finish(List.of(new Writer(4, 2), new Writer(2, 1)));
        assertArrayEquals(new double[] {4, 3}, result.finishSeconds(), EPS);
        assertEquals(4, result.seconds(), EPS);
        assertEquals(2, result.heldBackSeconds(), EPS);
    }

    @Test
    void aWriterSlowerThanItsEqualShareKeepsItsPaceAndTheOtherGetsTheRest() {
        // R=3, D=0 (no cache, always full); A: 10 bytes unpaced, B: 2 bytes at 1/s.
        // Max-min fair: an equal share is 3/2 = 1.5; B wants only 1, so A gets 3-1 = 2.
        // 0 to 2 s: B writes its 2 bytes and finishes at 2; A wrote 4 and has 6 left.
        // 2 s on: A alone gets 3 a second: 6/3 = 2 s more, t=4. Check: 12 bytes = 4 s at 3 a second.
        FluidDisk disk = new FluidDisk(3, 0);
        Result result = disk.finish(List.of(Writer.unpaced(10), new Writer(2, 1)));
        assertArrayEquals(new double[] {4, 2}, result.finishSeconds(), EPS);
        assertEquals(4 - 2, result.heldBackSeconds(), EPS);
    }

    @Test
    void theCacheEmptiesBehindASlowWriterOnceTheFastOneIsDone() {
        // R=1, D=2; A: 3 bytes unpaced, B: 4 bytes at 0.5/s.
        // At 0 A puts 2 into the cache at once (B puts in nothing in no time), so it is full with A 1 byte short.
        // 0 to 2 s: full; equal shares of 1 are 1/2 each, which B wants anyway: A's last byte takes 2 s, A finishes
        //   at 2; B wrote 1 and has 3 left.
        // 2 to 6 s: B alone puts in 0.5 a second and the disk takes 1: the cache of 2 empties at 2 + 2/0.5 = 6.
        // 6 s on: empty, B still at its own pace: 3 - 4*0.5 = 1 byte left, 2 s more, t=8 = 4/0.5, never held back.
        FluidDisk disk = new FluidDisk(1, 2);
        Result result = disk.finish(List.of(Writer.unpaced(3), new Writer(4, 0.5)));
        assertArrayEquals(new double[] {2, 8}, result.finishSeconds(), EPS);
        assertEquals(8, result.seconds(), EPS);
        assertEquals(0, result.heldBackSeconds(), EPS);
    }

    @Test
    void manyEqualWritersTakeWhatOneWriterOfAllTheirBytesWouldTake() {
        // N equal writers are one writer of N times the bytes at N times the rate: the cache and the disk see the same
        // inflow. Unpaced, N*3 bytes, R=2.5, D=4: (3N - 4)/2.5; with D=20 the smaller N fit in the cache.
        for (double dirty : new double[] {0, 4, 20}) {
            FluidDisk disk = new FluidDisk(2.5, dirty);
            for (int n = 2; n <= 9; n++) {
                double one = disk.seconds(List.of(Writer.unpaced(3.0 * n)));
                assertEquals(Math.max(0, (3.0 * n - dirty) / 2.5), one, EPS);
                Result many = disk.finish(Collections.nCopies(n, Writer.unpaced(3)));
                assertEquals(one, many.seconds(), EPS, "unpaced, n=" + n + ", D=" + dirty);
                for (double f : many.finishSeconds()) {
                    assertEquals(one, f, EPS, "unpaced, n=" + n + ", D=" + dirty);
                }
                double paced = disk.seconds(List.of(new Writer(3.0 * n, 0.7 * n)));
                assertEquals(paced, disk.seconds(Collections.nCopies(n, new Writer(3, 0.7))), EPS,
                        "paced, n=" + n + ", D=" + dirty);
            }
        }
    }

    @Test
    void anEndlessCacheNeverHoldsAnyoneBack() {
        // D=+Infinity: the cache never fills, so every writer keeps its own pace: 10/2 = 5 and 4/1 = 4; unpaced 0.
        FluidDisk disk = new FluidDisk(1, Double.POSITIVE_INFINITY);
        Result result = disk.finish(List.of(new Writer(10, 2), new Writer(4, 1), Writer.unpaced(1e12)));
        assertArrayEquals(new double[] {5, 4, 0}, result.finishSeconds(), EPS);
        assertEquals(0, result.heldBackSeconds(), EPS);
    }

    @Test
    void noWritersTakeNoTime() {
        Result result = new FluidDisk(1, 4).finish(List.of());
        assertEquals(0, result.seconds());
        assertEquals(0, result.finishSeconds().length);
        assertEquals(0, result.heldBackSeconds());
    }

    @Test
    void aResultKeepsItsFinishTimesWhateverItsCallerDoesWithTheArray() {
        double[] given = {1, 2};
        Result result = new Result(2, given, 0);
        given[0] = 99;
        result.finishSeconds()[1] = 99;
        assertArrayEquals(new double[] {1, 2}, result.finishSeconds());
        assertEquals(new Result(2, new double[] {1, 2}, 0), result);
    }

    @Test
    void manyUnevenWritersFinishInBoundedStepsAndAccountForEveryByte() {
        // Whatever the mix, once the cache is full at the end the last finish is (all bytes - D)/R.
        List<Writer> writers = new ArrayList<>();
        double total = 0;
        for (int i = 1; i <= 200; i++) {
            Writer w = i % 3 == 0 ? Writer.unpaced(i * 1e7) : new Writer(i * 1e7, i * 3e6);
            writers.add(w);
            total += w.bytes();
        }
        FluidDisk disk = new FluidDisk(5e8, 1e9);
        Result result = disk.finish(writers);
        assertEquals((total - 1e9) / 5e8, result.seconds(), 1e-6 * result.seconds());
        assertTrue(result.heldBackSeconds() > 0);
    }

    @Test
    void departureIsTheMeasuredTimeOverTheModelsLessOne() {
        // 11.5/10 - 1 = 0.15; 8/10 - 1 = -0.2; 10/10 - 1 = 0.
        assertEquals(0.15, FluidDisk.departure(11.5, 10), EPS);
        assertEquals(-0.2, FluidDisk.departure(8, 10), EPS);
        assertEquals(0, FluidDisk.departure(10, 10), EPS);
        assertTrue(Double.isNaN(FluidDisk.departure(1, 0)));
    }

    @Test
    void aDiskRefusesARateOrCacheItCannotHaveNamingWhatItGotAndWhatItAllows() {
        for (double rate : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            String message = assertThrows(IllegalArgumentException.class, () -> new FluidDisk(rate, 4)).getMessage();
            assertTrue(message.contains("writeBytesPerSecond") && message.contains(String.valueOf(rate))
                    && message.contains("positive"), message);
        }
        for (double dirty : new double[] {-1, Double.NaN, Double.NEGATIVE_INFINITY}) {
            String message = assertThrows(IllegalArgumentException.class, () -> new FluidDisk(1, dirty)).getMessage();
            assertTrue(message.contains("dirtyBytes") && message.contains(String.valueOf(dirty))
                    && message.contains("0 or more"), message);
        }
    }

    @Test
    void aWriterRefusesBytesOrARateItCannotHaveNamingTheFieldAndTheValue() {
        for (double bytes : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            String message = assertThrows(IllegalArgumentException.class, () -> new Writer(bytes, 1)).getMessage();
            assertTrue(message.contains("bytes") && message.contains(String.valueOf(bytes)), message);
        }
        for (double rate : new double[] {0, -2, Double.NaN, Double.NEGATIVE_INFINITY}) {
            String message = assertThrows(IllegalArgumentException.class, () -> new Writer(1, rate)).getMessage();
            assertTrue(message.contains("bytesPerSecond") && message.contains(String.valueOf(rate)), message);
        }
    }
}
