#!/usr/bin/env bash
# Every default writer under Spark's other codecs and codec settings, Spark's other checksum algorithms and Spark's
# shuffle encryption, on Spark 4.2.0 (spark-bench's default): one
# round each at small x 0.02, every output verified, and a Sluice writer's run fails where Sluice did not write every
# map output (spark-bench's check). Writes NAME.jsonl here; WORK is scratch.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
work="${WORK:-$(mktemp -d)}"
run() {
  local name="$1"
  shift
  rm -rf "$work/$name"
  "$root/scripts/spark-bench" --scale 0.02 --warmup 0 --iterations 1 --work "$work/$name" "$@" > "$here/$name.jsonl"
}
run snappy --conf spark.io.compression.codec=snappy
run lzf --conf spark.io.compression.codec=lzf
run zstd-level-3 --conf spark.io.compression.codec=zstd --conf spark.io.compression.zstd.level=3
run lz4-64k --conf spark.io.compression.lz4.blockSize=64k
run uncompressed --conf spark.shuffle.compress=false
run crc32c --conf spark.shuffle.checksum.algorithm=CRC32C
run crc32 --conf spark.shuffle.checksum.algorithm=CRC32
run encrypted --conf spark.io.encryption.enabled=true
run encrypted-zstd --conf spark.io.encryption.enabled=true --conf spark.io.compression.codec=zstd
