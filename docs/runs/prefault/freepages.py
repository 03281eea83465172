#!/usr/bin/env python3
"""Is memory left free for a while slower to write into the page cache? (docs/limits.md, "Free memory given back to
the host".) Writes a file of SIZE MiB through the page cache in 4 MiB calls, never forced, and measures the write's wall
and system time (getrusage); then syncs and removes it, waits, and writes again.

  freepages.py pauses DIR SIZE PAUSES REPS        the write after each pause (seconds, comma-separated), REPS times
  freepages.py race DIR SIZE GAP QUIET REPS       as a benchmark's waves follow each other: the write, sync and remove
                                                  (the last wave and its outputs' removal), GAP s (the gate), QUIET s,
                                                  then a scratch file of SIZE written and removed (the prefault), then
                                                  the measured write; prints the prefault's time too
  freepages.py prefault DIR SIZE KIND MIB REPS    after a 3 s pause, first touch MIB of memory of KIND, then the write:
                                                  KIND file (a scratch file in DIR, written and removed, as the
                                                  harness's Prefault does), tmpfs (the same in /dev/shm), anon
                                                  (anonymous memory, every page written once, then unmapped)
"""
import mmap, os, resource, sys, time

CHUNK = os.urandom(4 << 20)


def write(path, mib):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(mib // 4):
            os.write(fd, CHUNK)
    finally:
        os.close(fd)


def timed_write(path, mib):
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    write(path, mib)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    os.sync()
    os.unlink(path)
    return (t1 - t0) * 1000, (r1.ru_stime - r0.ru_stime) * 1000


def touch(kind, d, mib):
    if kind == 'file' or kind == 'tmpfs':
        scratch = os.path.join(d if kind == 'file' else '/dev/shm', 'freepages-scratch.bin')
        try:
            write(scratch, mib)
        finally:
            os.unlink(scratch)
    elif kind == 'anon':
        m = mmap.mmap(-1, mib << 20)
        for off in range(0, mib << 20, 4096):
            m[off] = 1
        m.close()
    else:
        sys.exit('KIND: file, tmpfs or anon')


def main():
    mode, d, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
    out = os.path.join(d, 'freepages-out.bin')
    if mode == 'pauses':
        pauses, reps = [float(p) for p in sys.argv[4].split(',')], int(sys.argv[5])
        for p in pauses:
            runs = []
            for _ in range(reps):
                time.sleep(p)
                runs.append(timed_write(out, size))
            print(f"{size} MiB after a {p:.1f} s pause: wall/system ms "
                  + ' '.join(f"{w:.0f}/{s:.0f}" for w, s in runs), flush=True)
    elif mode == 'race':
        gap, quiet, reps = float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
        runs = []
        timed_write(out, size)
        for _ in range(reps):
            time.sleep(gap)
            time.sleep(quiet)
            t0 = time.perf_counter()
            touch('file', d, size)
            pre = (time.perf_counter() - t0) * 1000
            w, s = timed_write(out, size)
            runs.append(f"{w:.0f}/{s:.0f} ({pre:.0f})")
        print(f"{size} MiB, gate {gap} s, quiet {quiet} s, prefault: wall/system ms (prefault ms) " + ' '.join(runs),
              flush=True)
    elif mode == 'prefault':
        kind, mib, reps = sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
        runs = []
        for _ in range(reps):
            time.sleep(3)
            if mib:
                touch(kind, d, mib)
            runs.append(timed_write(out, size))
        print(f"{size} MiB after a 3 s pause and {mib} MiB of {kind} touched: wall/system ms "
              + ' '.join(f"{w:.0f}/{s:.0f}" for w, s in runs), flush=True)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
