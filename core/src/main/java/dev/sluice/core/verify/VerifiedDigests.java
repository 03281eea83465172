package dev.sluice.core.verify;

import dev.sluice.core.file.AtomicReplace;
import dev.sluice.core.serde.ShuffleCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The byte digests of outputs that were verified row by row, kept in a directory so that later JVMs of the same run
 * (one JMH fork per strategy) can accept outputs with the same bytes without decoding every row again. Every strategy
 * writes the same bytes for the same input, so a size's first strategy pays for the row-by-row check and the others
 * compare digests.
 *
 * <p>An entry is keyed by what a correct output must decode to: the schema, the codec, and every task's reference
 * (each partition's row count and row digest, in order). Bytes whose digests equal those of bytes that decoded to
 * exactly that reference decode to it too, so a match is a verification; anything else (no entry, other bytes) is
 * verified row by row, and, if correct, recorded.
 */
public final class VerifiedDigests {
    private final Path dir;

    public VerifiedDigests(Path dir) {
        this.dir = dir;
    }

    /** The key of outputs that must decode to {@code references}, one per task in task order. */
    public static String key(Schema schema, ShuffleCodec codec, List<Expected> references) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
        sha.update(schema.toJson().getBytes(StandardCharsets.UTF_8));
        sha.update(codec.name().getBytes(StandardCharsets.UTF_8));
        for (Expected reference : references) {
            StringBuilder task = new StringBuilder().append('|').append(reference.numPartitions());
            for (int p = 0; p < reference.numPartitions(); p++) {
                task.append(',').append(reference.rows(p)).append(':').append(reference.digest(p));
            }
            sha.update(task.toString().getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The digests recorded under {@code key}, if any. */
    public Optional<List<OutputDigest>> lookup(String key) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file(key), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        List<OutputDigest> digests = new ArrayList<>();
        for (String line : lines) {
            digests.add(OutputDigest.parse(line));
        }
        return Optional.of(digests);
    }

    /** Records digests of outputs just verified row by row; written whole or not at all. */
    public void record(String key, List<OutputDigest> digests) throws IOException {
        Files.createDirectories(dir);
        StringBuilder text = new StringBuilder();
        for (OutputDigest digest : digests) {
            text.append(digest.format()).append('\n');
        }
        AtomicReplace.write(file(key), text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private Path file(String key) {
        return dir.resolve(key + ".digests");
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
