package dev.sluice.gpu.bundle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceCodeForOneArchTest {
  @TempDir Path dir;

  /** A fat binary entry: kind, header of 64 bytes, architecture at byte 28, payload of {@code payload} bytes. */
  private static byte[] entry(int kind, int arch, int payload, int fill) {
    ByteBuffer b = ByteBuffer.allocate(64 + payload).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(0, (short) kind).putShort(2, (short) 0x101).putInt(4, 64).putLong(8, payload).putInt(28, arch);
    for (int i = 64; i < 64 + payload; i++) {
      b.put(i, (byte) fill);
    }
    return b.array();
  }

  private static byte[] fatBinary(byte[]... entries) {
    int size = Arrays.stream(entries).mapToInt(e -> e.length).sum();
    ByteBuffer b = ByteBuffer.allocate(16 + size).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(DeviceCodeForOneArch.FATBIN_MAGIC).putShort((short) 1).putShort((short) 16).putLong(size);
    for (byte[] e : entries) {
      b.put(e);
    }
    return b.array();
  }

  /** A 64-bit ELF file of three sections: none, {@code name} holding {@code data}, and the section names. */
  private static byte[] elf(String name, byte[] data) {
    byte[] names = ("\0" + name + "\0.shstrtab\0").getBytes(StandardCharsets.US_ASCII);
    int dataAt = 64;
    int namesAt = dataAt + data.length;
    int headersAt = (namesAt + names.length + 7) & ~7;
    ByteBuffer b = ByteBuffer.allocate(headersAt + 3 * 64).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, 0x464C457F).put(4, (byte) 2).put(5, (byte) 1).put(6, (byte) 1);
    b.putLong(0x28, headersAt).putShort(0x3A, (short) 64).putShort(0x3C, (short) 3).putShort(0x3E, (short) 2);
    b.put(dataAt, data).put(namesAt, names);
    int section = headersAt + 64;
    b.putInt(section, 1).putInt(section + 4, 1).putLong(section + 24, dataAt).putLong(section + 32, data.length);
    section += 64;
    b.putInt(section, 2 + name.length()).putInt(section + 4, 3).putLong(section + 24, namesAt)
        .putLong(section + 32, names.length);
    return b.array();
  }

  private static ByteBuffer slice(byte[] file, int from, int length) {
    return ByteBuffer.wrap(file, from, length).slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void eachFatBinaryKeepsOnlyTheCubinForTheArchitectureAtItsOwnPlaceAndTheRestBecomesZeros() throws IOException {
    byte[] sm75 = entry(2, 75, 40, 0x75);
    byte[] sm90 = entry(2, 90, 24, 0x90);
    byte[] ptx120 = entry(1, 120, 32, 0x12);
    byte[] ptx80 = entry(1, 80, 16, 0x80);
    byte[] first = fatBinary(sm75, sm90, ptx120);
    byte[] second = fatBinary(entry(2, 86, 8, 0x86), ptx80);
    byte[] section = new byte[first.length + 8 + second.length]; // 8 bytes of padding between them
    System.arraycopy(first, 0, section, 0, first.length);
    System.arraycopy(second, 0, section, first.length + 8, second.length);
    Path library = dir.resolve("libdevice.so");
    byte[] before = elf(".nv_fatbin", section);
    Files.write(library, before);

    DeviceCodeForOneArch.Pruned pruned = DeviceCodeForOneArch.pruneLibrary(library, 90);

    byte[] after = Files.readAllBytes(library);
    assertEquals(before.length, after.length, "nothing moves: the runtime's pointers to each fat binary are absolute");
    assertEquals(2, pruned.fatBinaries());
    assertEquals(sm90.length + ptx80.length, pruned.keptBytes());
    ByteBuffer one = slice(after, 64, first.length);
    assertEquals(sm90.length, one.getLong(8), "the first fat binary's size covers its sm_90 cubin alone");
    assertArrayEquals(sm90, Arrays.copyOfRange(after, 64 + 16, 64 + 16 + sm90.length));
    for (int i = 64 + 16 + sm90.length; i < 64 + first.length; i++) {
      assertEquals(0, after[i], "byte " + i + " of the dropped cubins is zero");
    }
    int twoAt = 64 + first.length + 8;
    assertEquals(ptx80.length, slice(after, twoAt, second.length).getLong(8),
        "PTX for an older architecture stays: the driver compiles it for sm_90");
    assertArrayEquals(ptx80, Arrays.copyOfRange(after, twoAt + 16, twoAt + 16 + ptx80.length));
    assertArrayEquals(Arrays.copyOfRange(before, 64 + section.length, before.length),
        Arrays.copyOfRange(after, 64 + section.length, after.length), "the rest of the library is untouched");
  }

  @Test
  void aFatBinaryWithoutCodeForTheArchitectureIsRefusedNamingIt() throws IOException {
    Path library = dir.resolve("libnone.so");
    Files.write(library, elf(".nv_fatbin", fatBinary(entry(2, 100, 8, 1), entry(1, 120, 8, 2))));
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> DeviceCodeForOneArch.pruneLibrary(library, 90));
    assertTrue(refused.getMessage().contains("no device code for sm_90"), refused.getMessage());
  }

  @Test
  void aJarKeepsEveryEntryAndItsLibrariesWithoutDeviceCodeAsTheyWere() throws IOException {
    byte[] plain = elf(".text", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    byte[] device = elf(".nv_fatbin", fatBinary(entry(2, 80, 8, 8), entry(2, 90, 8, 9)));
    Path jar = dir.resolve("in.jar");
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
      for (String name : new String[] {"a/Class.class", "amd64/Linux/libplain.so", "amd64/Linux/libdevice.so"}) {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(name.endsWith("plain.so") ? plain : name.endsWith("device.so") ? device : new byte[] {42});
        zip.closeEntry();
      }
    }
    Path out = dir.resolve("out.jar");

    DeviceCodeForOneArch.pruneJar(jar, out, 90);

    try (ZipFile zip = new ZipFile(out.toFile())) {
      assertEquals(3, zip.size());
      assertArrayEquals(new byte[] {42}, zip.getInputStream(zip.getEntry("a/Class.class")).readAllBytes());
      assertArrayEquals(plain, zip.getInputStream(zip.getEntry("amd64/Linux/libplain.so")).readAllBytes());
      byte[] pruned = zip.getInputStream(zip.getEntry("amd64/Linux/libdevice.so")).readAllBytes();
      assertEquals(device.length, pruned.length);
      assertEquals(90, slice(pruned, 64 + 16, 64).getInt(28), "the sm_90 cubin comes first");
    }
    try (var left = Files.list(dir)) {
      assertEquals(2, left.count(), "no temporary file is left beside the output");
    }
  }
}
