package dev.sluice.gpu.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Keeps only one GPU architecture's device code in the native libraries of a jar such as spark-rapids-jni's, so that
 * a bundle for a known card is a fraction of the size: spark-rapids-jni 26.02's cuda13 {@code libcudf.so} carries
 * cubins for sm_75, 80, 86, 90, 100 and 120 and PTX for compute_120 (316 MiB of its 537 MiB), of which an H100 or H200
 * loads only sm_90's.
 *
 * <p>The CUDA runtime finds each translation unit's device code through a pointer to a fat binary in the library's
 * {@code .nv_fatbin} section: a header (magic {@code 0xBA55ED50}, version, header size, size of what follows) and
 * entries, each a header (kind: 1 PTX, 2 ELF cubin; header size; payload size; architecture at byte 28) and its
 * payload. Nothing may move (the pointers are absolute), so each fat binary keeps its place: the entries kept (ELF
 * cubins for the architecture, PTX for it or older, which the driver can compile for it) move to the front of the fat
 * binary, its size says only they are there, and the rest of its place becomes zeros, which cost nothing once
 * compressed. A fat binary left with no entry for the architecture is an error: the library would fail on that card.
 * The layout is the one {@code cuobjdump} reads; NVIDIA's {@code nvprune} does the same job where a CUDA toolkit is at
 * hand.
 *
 * <p>Usage: {@code DeviceCodeForOneArch ARCH IN.jar OUT.jar}, ARCH the compute capability without its dot (90 for
 * H100 and H200). Libraries without a {@code .nv_fatbin} section are copied as they are.
 */
public final class DeviceCodeForOneArch {
  static final int FATBIN_MAGIC = 0xBA55ED50;
  static final int KIND_PTX = 1;
  static final int KIND_ELF = 2;

  private DeviceCodeForOneArch() {}

  /** What one library lost and kept. */
  public record Pruned(int fatBinaries, long keptBytes, long zeroedBytes) {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: DeviceCodeForOneArch ARCH IN.jar OUT.jar (ARCH: compute capability without its dot,"
          + " 90 for H100 and H200)");
      System.exit(2);
    }
    int arch;
    try {
      arch = Integer.parseInt(args[0]);
    } catch (NumberFormatException e) {
      arch = -1;
    }
    if (arch < 30 || arch > 200) {
      System.err.println("ARCH '" + args[0] + "' is not a compute capability: give it without its dot, 30 to 200"
          + " (90 for H100 and H200)");
      System.exit(2);
    }
    pruneJar(Path.of(args[1]), Path.of(args[2]), arch);
  }

  /** Copies {@code in} to {@code out}, each {@code .so} in it keeping only {@code arch}'s device code. */
  public static void pruneJar(Path in, Path out, int arch) throws IOException {
    Path tmp = Files.createTempFile(out.toAbsolutePath().getParent(), out.getFileName().toString(), ".part");
    Path lib = Files.createTempFile("device-code", ".so");
    try (ZipFile zip = new ZipFile(in.toFile());
        ZipOutputStream zout = new ZipOutputStream(Files.newOutputStream(tmp))) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        zout.putNextEntry(new ZipEntry(entry.getName()));
        try (InputStream body = zip.getInputStream(entry)) {
          if (entry.getName().endsWith(".so")) {
            Files.copy(body, lib, StandardCopyOption.REPLACE_EXISTING);
            Pruned pruned = pruneLibrary(lib, arch);
            if (pruned.fatBinaries() > 0) {
              System.out.printf("%s: %d fat binaries, kept %d bytes of device code for sm_%d, zeroed %d%n",
                  entry.getName(), pruned.fatBinaries(), pruned.keptBytes(), arch, pruned.zeroedBytes());
            }
            Files.copy(lib, zout);
          } else {
            body.transferTo(zout);
          }
        }
        zout.closeEntry();
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    } finally {
      Files.deleteIfExists(lib);
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Prunes one ELF shared library in place; a library without {@code .nv_fatbin} is left as it is. */
  public static Pruned pruneLibrary(Path library, int arch) throws IOException {
    try (FileChannel channel = FileChannel.open(library, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer elf = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
      elf.order(ByteOrder.LITTLE_ENDIAN);
      long[] section = fatbinSection(elf, library);
      if (section == null) {
        return new Pruned(0, 0, 0);
      }
      Pruned pruned = pruneSection(elf, (int) section[0], (int) section[1], arch, library);
      elf.force();
      return pruned;
    }
  }

  /** The {@code .nv_fatbin} section's file offset and size, or null where the library has none. */
  static long[] fatbinSection(MappedByteBuffer elf, Path library) {
    if (elf.capacity() < 64 || elf.getInt(0) != 0x464C457F || elf.get(4) != 2 || elf.get(5) != 1) {
      throw new IllegalArgumentException(library + " is not a little-endian 64-bit ELF file");
    }
    long shoff = elf.getLong(0x28);
    int shentsize = Short.toUnsignedInt(elf.getShort(0x3A));
    int shnum = Short.toUnsignedInt(elf.getShort(0x3C));
    int shstrndx = Short.toUnsignedInt(elf.getShort(0x3E));
    long names = elf.getLong((int) (shoff + (long) shstrndx * shentsize + 24));
    for (int i = 0; i < shnum; i++) {
      int header = (int) (shoff + (long) i * shentsize);
      String name = cString(elf, (int) (names + Integer.toUnsignedLong(elf.getInt(header))));
      if (name.equals(".nv_fatbin")) {
        return new long[] {elf.getLong(header + 24), elf.getLong(header + 32)};
      }
    }
    return null;
  }

  /** Keeps {@code arch}'s entries at the front of every fat binary in [offset, offset + size) and zeroes the rest. */
  static Pruned pruneSection(MappedByteBuffer elf, int offset, int size, int arch, Object where) {
    int end = offset + size;
    int at = offset;
    int fatBinaries = 0;
    long kept = 0;
    long zeroed = 0;
    while (at + 16 <= end) {
      if (elf.getInt(at) != FATBIN_MAGIC) {
        at += 8; // fat binaries are 8-byte aligned; what lies between is padding
        continue;
      }
      int headerSize = Short.toUnsignedInt(elf.getShort(at + 6));
      long fatSize = elf.getLong(at + 8);
      int first = at + headerSize;
      int last = Math.toIntExact(first + fatSize);
      if (last > end) {
        throw new IllegalArgumentException(where + ": the fat binary at " + at + " runs past .nv_fatbin");
      }
      List<int[]> keep = new ArrayList<>();
      for (int e = first; e < last; ) {
        int kind = Short.toUnsignedInt(elf.getShort(e));
        int entryHeader = elf.getInt(e + 4);
        int length = Math.toIntExact(entryHeader + elf.getLong(e + 8));
        int entryArch = elf.getInt(e + 28);
        if ((kind == KIND_ELF && entryArch == arch) || (kind == KIND_PTX && entryArch <= arch)) {
          keep.add(new int[] {e, length});
        }
        e += length;
      }
      if (keep.isEmpty()) {
        throw new IllegalArgumentException(where + ": the fat binary at " + at + " has no device code for sm_" + arch
            + ": the library would not run on that card");
      }
      int write = first;
      for (int[] k : keep) {
        if (k[0] != write) {
          byte[] bytes = new byte[k[1]];
          elf.get(k[0], bytes);
          elf.put(write, bytes);
        }
        write += k[1];
      }
      kept += write - first;
      zeroed += last - write;
      for (int z = write; z < last; z++) {
        elf.put(z, (byte) 0);
      }
      elf.putLong(at + 8, write - first);
      fatBinaries++;
      at = last;
    }
    return new Pruned(fatBinaries, kept, zeroed);
  }

  private static String cString(MappedByteBuffer elf, int at) {
    int end = at;
    while (elf.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - at];
    elf.get(at, bytes);
    return new String(bytes, StandardCharsets.US_ASCII);
  }

}
