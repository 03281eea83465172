"""Shared by check-pyarrow.py and pyarrow-receive.py: how a Sluice partition is framed, told by its first bytes, and
its Arrow IPC stream with the framing undone. A module, not a command.

- An Arrow IPC stream (codecs none and lz4-frame) starts with the continuation marker 0xFFFFFFFF; pyarrow reads it as
  it is, lz4-frame's body compression included.
- zstd (Spark's spark.io.compression.codec=zstd, one frame per piece) starts with zstd's magic 28 B5 2F FD; every
  frame is decompressed to its end with the zstandard package, then pyarrow reads the stream.
- lz4-block (Spark's LZ4BlockOutputStream framing) starts with the magic "LZ4Block"; nothing in Python reads it here.
"""
import os
import sys

ARROW_CONTINUATION = b"\xff\xff\xff\xff"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
LZ4_BLOCK_MAGIC = b"LZ4Block"
# The framing each codec's partitions have.
CODECS = {"none": "arrow", "lz4-frame": "arrow", "lz4-block": "lz4-block", "zstd": "zstd"}
LZ4_BLOCK_UNREADABLE = ("lz4-block, Spark's LZ4BlockOutputStream framing (it starts with the magic 'LZ4Block'), which "
                        "neither pyarrow nor this script reads; allowed are outputs written with --codec none, "
                        "lz4-frame or zstd")


def framing(chunk):
    """'arrow', 'zstd', 'lz4-block', or None for bytes that are none of them."""
    if chunk.startswith(ARROW_CONTINUATION):
        return "arrow"
    if chunk.startswith(ZSTD_MAGIC):
        return "zstd"
    if chunk.startswith(LZ4_BLOCK_MAGIC):
        return "lz4-block"
    return None


def unzstd(zstandard, chunk):
    """Concatenated zstd frames decompressed, and how many; a frame cut short is an error, not the end of the data."""
    out = []
    rest = chunk
    frames = 0
    while rest:
        frame = zstandard.ZstdDecompressor().decompressobj()
        out.append(frame.decompress(rest))
        if not frame.eof:
            raise ValueError(f"zstd frame {frames} is cut short")
        rest = frame.unused_data
        frames += 1
    return b"".join(out), frames


def import_or_venv(module, script, usage_tail):
    """The module; else the script run again by the repository's .venv/bin/python if there is one; else exit 2."""
    try:
        return __import__(module)
    except ImportError:
        venv = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".venv"))
        python = os.path.join(venv, "bin", "python")
        if os.path.exists(python) and os.path.realpath(sys.prefix) != os.path.realpath(venv) \
                and not os.environ.get("SLUICE_PYTHON_REEXEC"):
            os.environ["SLUICE_PYTHON_REEXEC"] = "1"
            os.execv(python, [python, os.path.abspath(sys.argv[0])] + sys.argv[1:])
        print(f"{script}: {sys.executable} has no {module}: run scripts/python-env, which installs pyarrow and "
              f"zstandard into .venv, then .venv/bin/python {usage_tail}", file=sys.stderr)
        sys.exit(2)
