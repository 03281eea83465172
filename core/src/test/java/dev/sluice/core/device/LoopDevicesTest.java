package dev.sluice.core.device;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.spi.Bytes;
import org.junit.jupiter.api.Test;

/** A fluid device's queue holds about 40 ms of its rate in 128 KiB requests, 16 to 64 of them (2 to 8 MiB). */
class LoopDevicesTest {
    @Test
    void theQueueHoldsFortyMillisecondsOfTheRateBetweenSixteenAndSixtyFourRequests() {
        assertEquals(16, LoopDevices.queueRequests(50 * Bytes.MiB), "2 MiB: 40 ms at 50 MiB/s");
        assertEquals(32, LoopDevices.queueRequests(100 * Bytes.MiB), "4 MiB: 40 ms at 100 MiB/s");
        assertEquals(64, LoopDevices.queueRequests(200 * Bytes.MiB), "8 MiB: 40 ms at 200 MiB/s");
        assertEquals(16, LoopDevices.queueRequests(33_500_000), "at least 16");
        assertEquals(64, LoopDevices.queueRequests(1_000_000_000), "at most 64");
        assertEquals(17, LoopDevices.queueRequests(50 * Bytes.MiB + 1), "whole requests, rounded up");
        assertEquals(64, LoopDevices.queueRequests(0), "nothing throttled (the storage's ceiling): the most");
    }
}
