package dev.sluice.spi.storage;

import dev.sluice.spi.WriterGiven;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The only door between a writer strategy and the file system. Every file a strategy creates, every write call that
 * reaches the OS (with its size), every byte read back, delete, rename and fsync passes here and is counted in
 * {@link #counters()}. It also keeps the accounting a writer could get wrong: it knows each file's
 * {@link FilePurpose} from its creation, so bytes written to spill files are spilled bytes; a {@link #commit} call
 * names the files a committed output holds, whose sizes it measures itself as committed bytes; and it knows which
 * files it created still exist, so that a run can say how many it left behind. Strategies report none of these.
 */
@WriterGiven
public final class CountedStorage {
    private final IoCounters counters;
    private final IoFaults faults;
    private final FileJournal journal;
    private final AtomicLong writeAttempts = new AtomicLong();
    private final AtomicLong renameAttempts = new AtomicLong();
    private final Map<Path, FilePurpose> live = new ConcurrentHashMap<>();
    /** False for {@link #uncounted}: no fault injected, no committed file measured, counters that record nothing. */
    private final boolean counting;
    private final Set<Path> committed = ConcurrentHashMap.newKeySet();

    public CountedStorage() {
        this(IoFaults.NONE);
    }

    public CountedStorage(IoFaults faults) {
        this(faults, FileJournal.NONE);
    }

    /** @param journal told of each file before it is created (a run's list of the files it owns) */
    public CountedStorage(IoFaults faults, FileJournal journal) {
        this(faults, journal, true);
    }

    private CountedStorage(IoFaults faults, FileJournal journal, boolean counting) {
        this.faults = faults;
        this.journal = journal;
        this.counting = counting;
        this.counters = counting ? new IoCounters() : IoCounters.uncounted();
    }

    /**
     * The same door without the counting: the same files are created, written, committed and removed, but no write,
     * read, fsync or committed byte is counted ({@link #counters} stay at zero, committed files are not measured) and
     * no fault is injected. Only for measuring what the counting costs, against a counted storage in the same run.
     */
    public static CountedStorage uncounted() {
        return new CountedStorage(IoFaults.NONE, FileJournal.NONE, false);
    }

    public IoCounters counters() {
        return counters;
    }

    /**
     * Creates a new file for writing, and its directory if missing; fails if the file exists. {@code purpose} decides
     * how its bytes are accounted.
     */
    public WritableFile create(Path path, FilePurpose purpose) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Files.createDirectories(parent);
        }
        journal.beforeCreate(path);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        live.put(path, purpose);
        counters.recordCreate(purpose);
        counters.recordOpen();
        return new WritableFile(this, path, channel, purpose);
    }

    public ReadableFile openForRead(Path path) throws IOException {
        ReadableFile file = new ReadableFile(this, path, FileChannel.open(path, StandardOpenOption.READ));
        counters.recordOpen();
        return file;
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
        journal.beforeCreate(to); // the name comes into being here
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        counters.recordRename();
        FilePurpose purpose = live.remove(from);
        if (purpose != null) {
            live.put(to, purpose);
        }
    }

    /**
     * Makes {@code files} part of a committed map output: they no longer count as left behind, and their sizes, as
     * this storage measures them now, count as committed bytes. Each must be a file this storage created for the map
     * output or as a spill, and still exist; a temp file cannot be committed. Committing a file twice counts it once.
     */
    public void commit(Collection<Path> files) throws IOException {
        for (Path path : files) {
            FilePurpose purpose = live.get(path);
            if (purpose == null) {
                throw new IllegalStateException("cannot commit " + path + ": this storage did not create it, "
                        + "or it was deleted");
            }
            if (purpose == FilePurpose.TEMP) {
                throw new IllegalStateException("cannot commit " + path + ": it was created as a " + purpose
                        + " file; only " + FilePurpose.MAP_OUTPUT + " and " + FilePurpose.SPILL + " files are committed");
            }
        }
        for (Path path : files) {
            // An uncounted storage does not measure the file either: that stat is part of what counting costs.
            if (committed.add(path) && counting) {
                counters.recordCommitted(Files.size(path));
            }
        }
    }

    /** Files this storage created that still exist and belong to no committed output: temp files left behind. */
    public int filesLeft() {
        return leftBehind().size();
    }

    /** The files {@link #filesLeft} counts, each with the purpose it was created for, sorted. */
    public List<String> leftBehind() {
        List<String> left = new ArrayList<>();
        for (Map.Entry<Path, FilePurpose> file : live.entrySet()) {
            if (!committed.contains(file.getKey()) && Files.exists(file.getKey())) {
                left.add(file.getKey() + " (" + file.getValue() + ")");
            }
        }
        Collections.sort(left);
        return left;
    }

    void beforeWrite(Path file, long bytes, WriteKind kind) throws IOException {
        if (counting) {
            faults.beforeWrite(writeAttempts.incrementAndGet(), file, bytes, kind);
        }
    }

    void beforeForce(Path file) throws IOException {
        faults.beforeForce(file);
    }
}
