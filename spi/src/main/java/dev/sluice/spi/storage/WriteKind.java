package dev.sluice.spi.storage;

import dev.sluice.spi.EngineOnly;

/** How bytes reached a file: from memory (write, gathering write) or file to file in the kernel (transferTo). */
@EngineOnly
public enum WriteKind {
    /** {@code write(2)} or {@code writev(2)} of bytes held in memory. */
    MEMORY,
    /** {@code sendfile(2)}/{@code copy_file_range(2)}: bytes copied from another file without passing user space. */
    TRANSFER
}
