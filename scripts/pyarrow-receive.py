#!/usr/bin/env python3
"""Receives one map output from a Sluice network sender with pyarrow alone, as a non-Java reduce task would.

Usage: scripts/pyarrow-receive.py [--port N] [--partition P] [--timeout S]

Listens on 127.0.0.1 (port 0: one the system picks), prints "listening on PORT" on its first line, takes one
connection, reads frames of Sluice's wire format (docs/network.md: int32 length, kind, partition, rows, then payload)
until the map output ends, answers with an ACK frame, and reads every partition's Arrow IPC stream with
pyarrow.ipc.open_stream. Prints one JSON line: rows and batches per non-empty partition, their total, and, with
--partition, that partition's schema and first rows. Codecs none, lz4-frame and zstd, whose frames are decompressed
with the zstandard package first (scripts/partition_framing.py); lz4-block, Spark's LZ4BlockOutputStream framing, is
refused, saying so. Exits 1 if a stream does not read, 2 on bad usage, an lz4-block stream or a missing package.
"""
import argparse
import json
import socket
import struct
import sys

from partition_framing import LZ4_BLOCK_UNREADABLE, framing, import_or_venv, unzstd

MAP_OUTPUT_OPEN, STREAM_OPEN, BATCH, STREAM_END, MAP_OUTPUT_END, ACK = range(6)


def read_exactly(conn, n):
    chunks = []
    while n > 0:
        chunk = conn.recv(min(n, 1 << 20))
        if not chunk:
            raise EOFError("the sender closed the connection in the middle of a frame")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def description():
    """The docstring without its Usage paragraph, which argparse writes."""
    parts = __doc__.split("\n\n")
    return "\n\n".join(parts[:1] + parts[2:])


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help, with 'Usage:' as every other script of scripts/ writes it."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "Usage: ")


def main():
    parser = argparse.ArgumentParser(prog="scripts/pyarrow-receive.py", description=description(),
                                     formatter_class=HelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--partition", type=int, default=None, help="also print this partition's schema and rows")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the sender (default 60)")
    args = parser.parse_args()
    pa = import_or_venv("pyarrow", "pyarrow-receive", "scripts/pyarrow-receive.py")
    import pyarrow.ipc as ipc
    zstandard = None

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", args.port))
    server.listen(1)
    server.settimeout(args.timeout)
    print(f"listening on {server.getsockname()[1]}", flush=True)
    conn, _ = server.accept()
    conn.settimeout(args.timeout)
    streams = {}
    declared_rows = {}
    with conn, server:
        while True:
            length, kind, partition, rows = struct.unpack(">iiii", read_exactly(conn, 16))
            payload = read_exactly(conn, length - 12)
            if kind == MAP_OUTPUT_OPEN:
                partitions = struct.unpack(">i", payload)[0]
            elif kind in (STREAM_OPEN, BATCH, STREAM_END):
                streams.setdefault(partition, []).append(payload)
                declared_rows[partition] = declared_rows.get(partition, 0) + rows
            elif kind == MAP_OUTPUT_END:
                conn.sendall(struct.pack(">iiii", 12, ACK, -1, 0))
                break
            else:
                print(f"pyarrow-receive: unexpected frame kind {kind}", file=sys.stderr)
                sys.exit(1)

    result = {"partitions": partitions, "rows": {}, "batches": {}}
    for p in sorted(streams):
        stream = b"".join(streams[p])
        kind = framing(stream)
        if kind == "lz4-block":
            print(f"pyarrow-receive: partition {p} is {LZ4_BLOCK_UNREADABLE}", file=sys.stderr)
            sys.exit(2)
        if kind == "zstd":
            zstandard = zstandard or import_or_venv("zstandard", "pyarrow-receive", "scripts/pyarrow-receive.py")
            try:
                stream, _ = unzstd(zstandard, stream)
            except Exception as e:  # zstandard raises several types
                print(f"pyarrow-receive: partition {p} does not decompress as zstd frames: {e}", file=sys.stderr)
                sys.exit(1)
        try:
            table = ipc.open_stream(pa.py_buffer(stream)).read_all()
        except pa.ArrowInvalid as e:
            print(f"pyarrow-receive: partition {p} is not an Arrow IPC stream pyarrow reads: {e}", file=sys.stderr)
            sys.exit(1)
        if table.num_rows != declared_rows[p]:
            print(f"pyarrow-receive: partition {p} holds {table.num_rows} rows, its frames said {declared_rows[p]}",
                  file=sys.stderr)
            sys.exit(1)
        result["rows"][str(p)] = table.num_rows
        result["batches"][str(p)] = len(streams[p]) - 2
        if p == args.partition:
            result["schema"] = str(table.schema).splitlines()
            result["head"] = table.slice(0, 3).to_pylist()
    result["total_rows"] = sum(result["rows"].values())
    print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
