/**
 * Storage as a strategy sees it: {@link dev.sluice.spi.storage.CountedStorage}, the only door to files, which counts
 * every write call and byte, read, rename, delete and fsync, knows each file's purpose
 * ({@link dev.sluice.spi.storage.FilePurpose}: map output, spill, temp) and which files a run left behind, and takes a
 * fault hook that tests fail any call with; and Spark's map output: {@link dev.sluice.spi.storage.DataFileCommit}, the
 * atomic commit of the data file, its index and its checksum file in Spark's layout
 * ({@link dev.sluice.spi.storage.MapOutputFiles}), and the segment catalog that serves a map output from memory. The
 * rules: a strategy opens no file but through the storage it is given, and commits only through a commit, which
 * leaves nothing behind when it fails.
 */
package dev.sluice.spi.storage;
