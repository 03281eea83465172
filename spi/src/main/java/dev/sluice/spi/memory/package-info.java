/**
 * Host memory for strategies: {@link dev.sluice.spi.memory.HostAllocator} and its buffers. The rules: every buffer a
 * writer takes is closed by its one owner, on success and on failure; a child allocator is closed by whoever made it,
 * after its buffers; nothing here zeroes memory, so a buffer's bytes are whatever they were until written.
 */
package dev.sluice.spi.memory;
