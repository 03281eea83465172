#!/usr/bin/env python3
"""Reads every partition of a Sluice map output with pyarrow alone, as a non-Java reduce task would.

Usage: scripts/check-pyarrow.py DIR [--shuffle-id N] [--map-id N]

DIR holds shuffle_<shuffle>_<map>_0.data and .index (Spark's layout) written with --codec none or lz4-frame
(lz4-block is Spark's stream framing, which Arrow does not define). Prints rows per non-empty partition and the
total as JSON; exits 1 if a partition does not read as one complete Arrow IPC stream, 2 on bad usage.
"""
import argparse
import json
import struct
import sys


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
    parser.add_argument("--shuffle-id", type=int, default=0, help="the shuffle id of the files (default 0)")
    parser.add_argument("--map-id", type=int, default=0, help="the map id of the files (default 0)")
    args = parser.parse_args()
    # Imported once the arguments are read, so that --help works without pyarrow.
    global pa, ipc
    try:
        import pyarrow as pa
        import pyarrow.ipc as ipc
    except ImportError:
        print("check-pyarrow: pyarrow is not installed (pip install pyarrow)", file=sys.stderr)
        sys.exit(2)
    base = f"{args.dir}/shuffle_{args.shuffle_id}_{args.map_id}_0"
    try:
        with open(base + ".index", "rb") as f:
            index = f.read()
        data = open(base + ".data", "rb")
    except OSError as e:
        print(f"check-pyarrow: {e}", file=sys.stderr)
        sys.exit(2)
    offsets = struct.unpack(f">{len(index) // 8}q", index)
    rows = {}
    schema = None
    with data:
        for p in range(len(offsets) - 1):
            length = offsets[p + 1] - offsets[p]
            if length == 0:
                continue
            data.seek(offsets[p])
            chunk = data.read(length)
            try:
                reader = ipc.open_stream(pa.BufferReader(chunk))
                table = reader.read_all()
            except Exception as e:  # pyarrow raises several types
                print(f"check-pyarrow: partition {p} ({length} bytes) is not an Arrow stream: {e}", file=sys.stderr)
                sys.exit(1)
            schema = schema or str(table.schema).replace("\n", "; ")
            rows[p] = table.num_rows
    print(json.dumps({"pyarrow": pa.__version__, "partitions": len(offsets) - 1, "nonEmptyPartitions": len(rows),
                      "rows": sum(rows.values()), "schema": schema}))


if __name__ == "__main__":
    main()
