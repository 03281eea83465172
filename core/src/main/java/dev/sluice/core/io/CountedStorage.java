package dev.sluice.core.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The only door between a writer strategy and the file system. Every file a strategy creates, every write call that
 * reaches the OS (with its size), every byte read back, delete, rename and fsync passes here and is counted in
 * {@link #counters()}. It also knows which files it created still exist, so that a run can say how many it left
 * behind.
 */
public final class CountedStorage {
    private final IoCounters counters = new IoCounters();
    private final IoFaults faults;
    private final AtomicLong writeAttempts = new AtomicLong();
    private final AtomicLong renameAttempts = new AtomicLong();
    private final Set<Path> live = ConcurrentHashMap.newKeySet();
    private final Set<Path> committed = ConcurrentHashMap.newKeySet();

    public CountedStorage() {
        this(IoFaults.NONE);
    }

    public CountedStorage(IoFaults faults) {
        this.faults = faults;
    }

    public IoCounters counters() {
        return counters;
    }

    /** Creates a new file for writing, and its directory if missing; fails if the file exists. */
    public WritableFile create(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Files.createDirectories(parent);
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        live.add(path);
        counters.recordCreate();
        return new WritableFile(this, path, channel);
    }

    public ReadableFile openForRead(Path path) throws IOException {
        return new ReadableFile(this, path, FileChannel.open(path, StandardOpenOption.READ));
    }

    /** Deletes the file if it exists; counts only deletes that removed something. */
    public void delete(Path path) throws IOException {
        if (Files.deleteIfExists(path)) {
            counters.recordDelete();
        }
        live.remove(path);
        committed.remove(path);
    }

    /** Atomically renames {@code from} to {@code to}, replacing {@code to} if it exists. */
    public void rename(Path from, Path to) throws IOException {
        faults.beforeRename(renameAttempts.incrementAndGet(), from, to);
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        counters.recordRename();
        if (live.remove(from)) {
            live.add(to);
        }
    }

    /** Marks a file as part of a committed output: it no longer counts as left behind. */
    public void markCommitted(Path path, long bytes) {
        committed.add(path);
        counters.recordCommitted(bytes);
    }

    /** Marks a file as held by a committed output that is not in Spark's layout (a catalog's spill file). */
    public void keep(Path path) {
        committed.add(path);
    }

    /** Files this storage created that still exist and belong to no committed output: temp files left behind. */
    public int filesLeft() {
        int left = 0;
        for (Path path : live) {
            if (!committed.contains(path) && Files.exists(path)) {
                left++;
            }
        }
        return left;
    }

    void beforeWrite(Path file, long bytes, WriteKind kind) throws IOException {
        faults.beforeWrite(writeAttempts.incrementAndGet(), file, bytes, kind);
    }

    void beforeForce(Path file) throws IOException {
        faults.beforeForce(file);
    }
}
