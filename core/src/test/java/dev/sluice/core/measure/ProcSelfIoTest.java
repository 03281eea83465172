package dev.sluice.core.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.storage.CountedStorage;
import dev.sluice.spi.storage.FilePurpose;
import dev.sluice.spi.storage.WritableFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcSelfIoTest {
    @TempDir
    Path dir;

    @Test
    void parsesTheKernelsFormat() {
        ProcSelfIo io = ProcSelfIo.parse(List.of("rchar: 10", "wchar: 20", "syscr: 3", "syscw: 4",
                "read_bytes: 0", "write_bytes: 4096", "cancelled_write_bytes: 512"));
        assertEquals(4, io.syscw);
        assertEquals(3, io.syscr);
        assertEquals(20, io.wchar);
        assertEquals(4096, io.writeBytes);
        assertEquals(512, io.cancelledWriteBytes);
    }

    @Test
    void seesWriteCallsOfThisProcessOrSaysWhyNot() throws Exception {
        Optional<ProcSelfIo> before = ProcSelfIo.read();
        if (before.isEmpty()) {
            assertTrue(ProcSelfIo.unavailableReason().isPresent());
            return;
        }
        CountedStorage storage = new CountedStorage();
        try (WritableFile file = storage.create(dir.resolve("f"), FilePurpose.TEMP)) {
            for (int i = 0; i < 100; i++) {
                file.write(ByteBuffer.allocate(1000));
            }
        }
        ProcSelfIo delta = ProcSelfIo.read().orElseThrow().since(before.get());
        assertTrue(delta.syscw >= 100, "syscw " + delta.syscw);
        assertTrue(delta.wchar >= 100_000, "wchar " + delta.wchar);
        assertEquals(100, storage.counters().snapshot().writeCalls);
        assertEquals(100_000, storage.counters().snapshot().bytesWritten);
    }
}
