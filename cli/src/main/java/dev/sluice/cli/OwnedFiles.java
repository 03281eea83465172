package dev.sluice.cli;

import dev.sluice.spi.InvalidParameterException;
import dev.sluice.spi.storage.FileJournal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The files Sluice wrote into an output directory, listed in the directory itself ({@value #LIST}): the one notion of
 * what a run owns there. A run claims the directory before it creates anything: it removes every file an earlier run
 * listed, then lists each file it creates before the file exists (each name is written through to the kernel at
 * once, so a run killed outright still leaves a complete list for the next run). A file that is not on the list is
 * not Sluice's and is never touched; a run that would commit a map output file of that name, or that finds an
 * unlisted map output of its shuffle next to its own (which a reader would take for part of the output), is refused
 * before anything is created. An interrupted run removes everything it listed, so the directory holds what it held
 * before, less what earlier runs wrote there.
 */
public final class OwnedFiles implements FileJournal, AutoCloseable {
    /** The list's name in the output directory. */
    public static final String LIST = ".sluice-files";
    private static final String HEADER = "# files Sluice wrote in this directory; the next run into it removes them\n";

    private final Path dir;
    private final boolean createdDir;
    private final int removedEarlier;
    private final long removedEarlierBytes;
    private final Set<String> listed = new LinkedHashSet<>();
    private FileChannel list;
    private volatile boolean stopped;

    private OwnedFiles(Path dir, boolean createdDir, int removedEarlier, long removedEarlierBytes, FileChannel list) {
        this.dir = dir;
        this.createdDir = createdDir;
        this.removedEarlier = removedEarlier;
        this.removedEarlierBytes = removedEarlierBytes;
        this.list = list;
    }

    /**
     * Claims {@code dir} (created if missing) for a run of shuffle {@code shuffleId} that will commit files named
     * {@code outputs}: refuses, naming parameter {@code out}, before anything is created if a map output file of the
     * shuffle exists there that no Sluice run listed; then removes what earlier runs listed and starts a new list.
     */
    public static OwnedFiles claim(Path dir, int shuffleId, List<String> outputs) throws IOException {
        Path directory = dir.toAbsolutePath().normalize();
        Set<String> earlier = readList(directory);
        Pattern mapOutput = Pattern.compile("shuffle_" + shuffleId + "_\\d+_0\\.(data|index|checksum\\..+)");
        List<String> foreign = new ArrayList<>();
        if (Files.isDirectory(directory)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
                for (Path entry : entries) {
                    String name = entry.getFileName().toString();
                    if (!earlier.contains(name) && (outputs.contains(name) || mapOutput.matcher(name).matches())) {
                        foreign.add(name);
                    }
                }
            }
        }
        if (!foreign.isEmpty()) {
            foreign.sort(null);
            throw new InvalidParameterException("out", dir, "a directory without map output files of shuffle "
                    + shuffleId + " that Sluice did not write (" + directory.resolve(LIST) + " does not list them): "
                    + String.join(", ", foreign.subList(0, Math.min(5, foreign.size())))
                    + (foreign.size() > 5 ? " and " + (foreign.size() - 5) + " more" : "")
                    + "; move them away or choose another directory");
        }
        boolean created = false;
        if (!Files.isDirectory(directory)) {
            try {
                Files.createDirectories(directory);
                created = true;
            } catch (IOException e) {
                throw new InvalidParameterException("out", dir, "a directory Sluice can create (" + e + ")");
            }
        }
        int removed = 0;
        long removedBytes = 0;
        for (String name : earlier) {
            Path file = directory.resolve(name);
            try {
                long size = Files.size(file);
                if (Files.deleteIfExists(file)) {
                    removed++;
                    removedBytes += size;
                }
            } catch (NoSuchFileException gone) {
                // Removed already (a temp file its run deleted): nothing to do.
            }
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(directory.resolve(LIST), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            channel.write(ByteBuffer.wrap(HEADER.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new InvalidParameterException("out", dir, "a directory Sluice can write in (" + e + ")");
        }
        return new OwnedFiles(directory, created, removed, removedBytes, channel);
    }

    /** The names an earlier run listed in {@code dir}, if any: plain names of files in it, nothing outside it. */
    private static Set<String> readList(Path dir) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        Path file = dir.resolve(LIST);
        if (!Files.isRegularFile(file)) {
            return names;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String name = line.trim();
            if (!name.isEmpty() && !name.startsWith("#") && !name.contains("/") && !name.equals("..")
                    && !name.equals(".") && !name.equals(LIST)) {
                names.add(name);
            }
        }
        return names;
    }

    /** Files an earlier run wrote here that {@link #claim} removed, and their bytes. */
    public int removedEarlier() {
        return removedEarlier;
    }

    public long removedEarlierBytes() {
        return removedEarlierBytes;
    }

    public Path directory() {
        return dir;
    }

    /** Lists {@code path} before it is created; refuses files outside the directory and any file once stopped. */
    @Override
    public synchronized void beforeCreate(Path path) throws IOException {
        if (stopped || list == null) {
            throw new IOException("the run was stopped: " + path + " is not created");
        }
        Path absolute = path.toAbsolutePath().normalize();
        if (!dir.equals(absolute.getParent())) {
            throw new IOException(path + " is outside the run's output directory " + dir);
        }
        String name = absolute.getFileName().toString();
        if (listed.add(name)) {
            list.write(ByteBuffer.wrap((name + "\n").getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** No file may be created from now on (the run is being interrupted). */
    public void stopCreating() {
        stopped = true;
    }

    /**
     * Removes every file this run listed, then the list, and the directory if this run created it and it is empty:
     * what an interrupted run leaves is what the directory held before it. Returns how many files it removed.
     */
    public synchronized int removeAll() throws IOException {
        stopped = true;
        int removed = 0;
        for (String name : listed) {
            if (Files.deleteIfExists(dir.resolve(name))) {
                removed++;
            }
        }
        listed.clear();
        close();
        Files.deleteIfExists(dir.resolve(LIST));
        if (createdDir) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                if (!entries.iterator().hasNext()) {
                    Files.deleteIfExists(dir);
                }
            }
        }
        return removed;
    }

    /** Closes the list; it stays in the directory for the next run. */
    @Override
    public synchronized void close() throws IOException {
        if (list != null) {
            try {
                list.close();
            } finally {
                list = null;
            }
        }
    }
}
