package dev.sluice.spi.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage derives spilled and committed bytes and files left from file purposes and commits, not from writers. */
class StorageAccountingTest {
    @TempDir
    Path dir;

    @Test
    void bytesWrittenToSpillFilesAreSpilledBytesAndNoOthersAre() throws Exception {
        CountedStorage storage = new CountedStorage();
        try (WritableFile spill = storage.create(dir.resolve("spill"), FilePurpose.SPILL);
             WritableFile temp = storage.create(dir.resolve("temp"), FilePurpose.TEMP);
             WritableFile output = storage.create(dir.resolve("output"), FilePurpose.MAP_OUTPUT)) {
            spill.write(ByteBuffer.allocate(100));
            spill.write(new ByteBuffer[] {ByteBuffer.allocate(20), ByteBuffer.allocate(3)});
            temp.write(ByteBuffer.allocate(1000));
            output.write(ByteBuffer.allocate(10_000));
        }
        IoSnapshot io = storage.counters().snapshot();
        assertEquals(123, io.spilledBytes);
        assertEquals(11_123, io.bytesWritten);
        assertEquals(0, io.committedBytes);
        assertEquals(3, storage.filesLeft());
    }

    @Test
    void thePeakOfOpenFilesCountsFilesOpenAtOnceForWritingAndReadingAndAClosedFileOnce() throws Exception {
        CountedStorage storage = new CountedStorage();
        WritableFile a = storage.create(dir.resolve("a"), FilePurpose.TEMP);
        WritableFile b = storage.create(dir.resolve("b"), FilePurpose.TEMP);
        ReadableFile reader = storage.openForRead(dir.resolve("a"));
        assertEquals(3, storage.counters().snapshot().peakOpenFiles);
        reader.close();
        a.close();
        a.close();
        b.close();
        try (WritableFile c = storage.create(dir.resolve("c"), FilePurpose.TEMP)) {
            assertEquals(3, storage.counters().snapshot().peakOpenFiles, "the peak stays, one file open now");
        }
        for (int i = 0; i < 4; i++) {
            storage.create(dir.resolve("d" + i), FilePurpose.TEMP).close();
        }
        IoSnapshot later = storage.counters().snapshot();
        assertEquals(3, later.peakOpenFiles, "files opened and closed one after another: one at a time");
        assertEquals(3, later.since(storage.counters().snapshot()).peakOpenFiles, "a difference keeps the maximum");
    }

    @Test
    void aCommitCountsTheSizesTheStorageMeasuresOnceAndTheFilesAreNoLongerLeft() throws Exception {
        CountedStorage storage = new CountedStorage();
        Path data = dir.resolve("data");
        try (WritableFile file = storage.create(dir.resolve("data.tmp"), FilePurpose.MAP_OUTPUT)) {
            file.write(ByteBuffer.allocate(4096));
        }
        storage.rename(dir.resolve("data.tmp"), data);
        storage.commit(List.of(data));
        storage.commit(List.of(data));
        assertEquals(4096, storage.counters().snapshot().committedBytes);
        assertEquals(List.of(), storage.leftBehind());
    }

    @Test
    void anUncountedStorageMakesTheSameFilesAndCountsNothing() throws Exception {
        CountedStorage storage = CountedStorage.uncounted();
        Path data = dir.resolve("data");
        try (WritableFile file = storage.create(dir.resolve("data.tmp"), FilePurpose.MAP_OUTPUT);
             WritableFile spill = storage.create(dir.resolve("spill"), FilePurpose.SPILL)) {
            file.write(ByteBuffer.allocate(4096));
            spill.write(new ByteBuffer[] {ByteBuffer.allocate(20), ByteBuffer.allocate(3)});
            file.force();
        }
        storage.rename(dir.resolve("data.tmp"), data);
        storage.commit(List.of(data));
        try (ReadableFile in = storage.openForRead(data)) {
            assertEquals(4096, in.read(ByteBuffer.allocate(8192), 0));
        }
        assertEquals(4096, java.nio.file.Files.size(data), "the same bytes reach the file");
        IoSnapshot io = storage.counters().snapshot();
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), List.of(io.bytesWritten, io.writeCalls,
                io.bytesRead, io.readCalls, io.filesCreated, io.filesDeleted, io.renames, io.fsyncs, io.committedBytes,
                io.spilledBytes), "nothing counted");
        assertEquals(List.of(dir.resolve("spill") + " (SPILL)"), storage.leftBehind(), "it still knows its files");
        storage.delete(dir.resolve("spill"));
        assertEquals(0, storage.filesLeft());
    }

    @Test
    void aTempFileOrAFileTheStorageDidNotCreateCannotBeCommitted() throws Exception {
        CountedStorage storage = new CountedStorage();
        Path temp = dir.resolve("temp_shuffle_1");
        storage.create(temp, FilePurpose.TEMP).close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> storage.commit(List.of(temp)));
        assertTrue(e.getMessage().contains("TEMP"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> storage.commit(List.of(dir.resolve("elsewhere"))));
        assertEquals(0, storage.counters().snapshot().committedBytes);
        assertEquals(List.of(temp + " (TEMP)"), storage.leftBehind());
    }
}
