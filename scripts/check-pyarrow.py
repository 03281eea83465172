#!/usr/bin/env python3
"""Reads every partition of a Sluice map output with pyarrow (and zstandard) alone, as a non-Java reduce task would.

Usage: scripts/check-pyarrow.py DIR [--codec C] [--shuffle-id N] [--map-id N]

DIR holds shuffle_<shuffle>_<map>_0.data and .index (Spark's layout). Each non-empty partition's framing is told by
its first bytes (scripts/partition_framing.py): an Arrow IPC stream (codecs none and lz4-frame) is read as it is;
zstd frames (codec zstd, Spark's zstd) are decompressed with the zstandard package first, every frame to its end.
lz4-block (Spark's LZ4BlockOutputStream framing, magic "LZ4Block") has no Python reader here and is refused, saying
so. With --codec C, a partition framed otherwise than C's output is an error.

Prints rows per non-empty partition and the total as JSON; exits 1 if a partition does not read as one complete
Arrow IPC stream, 2 on bad usage, an lz4-block output or a missing package. Where pyarrow is missing and
scripts/python-env made .venv, it runs itself again with .venv/bin/python.
"""
import argparse
import json
import struct
import sys

from partition_framing import CODECS, LZ4_BLOCK_UNREADABLE, framing, import_or_venv, unzstd

SCRIPT = "check-pyarrow"


def fail(status, message):
    print(f"{SCRIPT}: {message}", file=sys.stderr)
    sys.exit(status)


def description():
    """The docstring without its Usage paragraph, which argparse writes."""
    parts = __doc__.split("\n\n")
    return "\n\n".join(parts[:1] + parts[2:])


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help, with 'Usage:' as every other script of scripts/ writes it."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "Usage: ")


def main():
    parser = argparse.ArgumentParser(prog="scripts/check-pyarrow.py", description=description(),
                                     formatter_class=HelpFormatter)
    parser.add_argument("dir", help="the directory of the map output")
    parser.add_argument("--codec", default=None,
                        help="the codec the output was written with (default: told by each partition's first bytes)")
    parser.add_argument("--shuffle-id", type=int, default=0, help="the shuffle id of the files (default 0)")
    parser.add_argument("--map-id", type=int, default=0, help="the map id of the files (default 0)")
    args = parser.parse_args()
    if args.codec is not None and args.codec not in CODECS:
        fail(2, f"invalid --codec '{args.codec}': allowed are none, lz4-frame, zstd")
    if args.codec == "lz4-block":
        fail(2, f"invalid --codec 'lz4-block': its output is {LZ4_BLOCK_UNREADABLE}")
    pa = import_or_venv("pyarrow", SCRIPT, "scripts/check-pyarrow.py DIR")
    import pyarrow.ipc as ipc
    base = f"{args.dir}/shuffle_{args.shuffle_id}_{args.map_id}_0"
    try:
        with open(base + ".index", "rb") as f:
            index = f.read()
        data = open(base + ".data", "rb")
    except OSError as e:
        fail(2, f"invalid DIR '{args.dir}': {e}")
    offsets = struct.unpack(f">{len(index) // 8}q", index)
    rows = {}
    schema = None
    seen = set()
    zstandard = None
    frames = 0
    with data:
        for p in range(len(offsets) - 1):
            length = offsets[p + 1] - offsets[p]
            if length == 0:
                continue
            data.seek(offsets[p])
            chunk = data.read(length)
            kind = framing(chunk)
            if kind == "lz4-block":
                fail(2, f"invalid DIR '{args.dir}': partition {p} is {LZ4_BLOCK_UNREADABLE}")
            if kind is None:
                fail(1, f"partition {p} ({length} bytes) starts with {chunk[:8].hex()}: neither an Arrow IPC stream "
                        f"nor zstd frames nor an lz4-block stream")
            if args.codec is not None and kind != CODECS[args.codec]:
                fail(1, f"partition {p} ({length} bytes) is framed as {kind}, not as --codec {args.codec} frames it")
            seen.add(kind)
            if kind == "zstd":
                zstandard = zstandard or import_or_venv("zstandard", SCRIPT, "scripts/check-pyarrow.py DIR")
                try:
                    chunk, n = unzstd(zstandard, chunk)
                except Exception as e:  # zstandard raises several types
                    fail(1, f"partition {p} ({length} bytes) does not decompress as zstd frames: {e}")
                frames += n
            try:
                reader = ipc.open_stream(pa.BufferReader(chunk))
                table = reader.read_all()
            except Exception as e:  # pyarrow raises several types
                fail(1, f"partition {p} ({length} bytes) is not an Arrow stream: {e}")
            schema = schema or str(table.schema).replace("\n", "; ")
            rows[p] = table.num_rows
    result = {"pyarrow": pa.__version__, "framing": sorted(seen), "partitions": len(offsets) - 1,
              "nonEmptyPartitions": len(rows), "rows": sum(rows.values()), "schema": schema}
    if zstandard is not None:
        result["zstandard"] = zstandard.__version__
        result["zstdFrames"] = frames
    print(json.dumps(result))


if __name__ == "__main__":
    main()
