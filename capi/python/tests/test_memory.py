"""Every library handle is freed: allocations counted through the C allocator
hooks (cbor_fast_allocator with ctypes callbacks), allocation failures injected
at every point, and the resident set size over 10,000 loads/dumps rounds."""

import ctypes
import gc
import os
import unittest

from support import CORPUS_FILES, corpus_dir, h, rss_bytes

from cbor_fast import CBORDecodeError, Reader, _capi, dumps, iter_sequence, loads

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.realloc.restype = ctypes.c_void_p
_libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.free.restype = None
_libc.free.argtypes = [ctypes.c_void_p]


class CountingHooks:
    """Allocation hooks over libc that remember each live block and its size.

    `fail_after`: the number of allocations (malloc or realloc) to allow before
    every later one returns NULL; None never fails. Mistakes seen inside the
    callbacks (where exceptions cannot propagate) are collected in `problems`.
    """

    def __init__(self):
        self.live = {}
        self.allocations = 0
        self.blocks = 0
        self.frees = 0
        self.fail_after = None
        self.problems = []
        self.alloc = _capi.Allocator(_capi.MALLOC_FN(self._malloc),
                                     _capi.REALLOC_FN(self._realloc),
                                     _capi.FREE_FN(self._free), None)

    def _refuse(self):
        if self.fail_after is not None and self.allocations >= self.fail_after:
            return True
        self.allocations += 1
        return False

    def _malloc(self, _context, size):
        if self._refuse():
            return None
        p = _libc.malloc(size)
        self.live[p] = size
        self.blocks += 1
        return p

    def _realloc(self, _context, ptr, old_size, new_size):
        if ptr is not None and self.live.get(ptr) != old_size:
            self.problems.append("realloc of %#x with size %d, allocated %r"
                                 % (ptr, old_size, self.live.get(ptr)))
        if self._refuse():
            return None  # the old block stays valid and owned by the library
        p = _libc.realloc(ptr, new_size)
        if ptr is None:
            self.blocks += 1
        self.live.pop(ptr, None)
        self.live[p] = new_size
        return p

    def _free(self, _context, ptr, size):
        if ptr is None:
            return
        recorded = self.live.pop(ptr, None)
        if recorded != size:
            self.problems.append("free of %#x with size %d, allocated %r" % (ptr, size, recorded))
        self.frees += 1
        _libc.free(ptr)

    def __enter__(self):
        self.previous = _capi.set_allocator(self.alloc)
        return self

    def __exit__(self, *exc):
        _capi.set_allocator(self.previous)


SAMPLE = {"name": "sample", "items": [{"id": i, "tags": ["a", "b"], "x": i / 4} for i in range(40)],
          "deep": [[[[[[1]]]]]] * 3, "blob": b"\x00" * 300}


def workload():
    """Every path that creates a handle, including the error paths."""
    data = dumps(SAMPLE)
    assert loads(data) == SAMPLE
    assert list(iter_sequence(data + data)) == [SAMPLE, SAMPLE]
    with Reader(data) as r:
        for _ in r:
            pass
    r = Reader(h("5f 41 61 41 62 ff"))
    next(r)
    assert r.join() == b"ab"
    del r  # no close(): the garbage collector frees it
    for bad in (h("9f 01"), h("1c"), data[:-1], data + b"\x00"):
        try:
            loads(bad)
        except CBORDecodeError:
            pass
    try:
        list(iter_sequence(data + h("81")))
    except CBORDecodeError:
        pass
    abandoned = iter_sequence(data + data)
    next(abandoned)
    del abandoned  # closing the generator frees its handles
    gc.collect()


class AllocatorHooks(unittest.TestCase):
    def test_every_allocation_is_freed_with_its_size(self):
        with CountingHooks() as hooks:
            for _ in range(50):
                workload()
        self.assertEqual(hooks.problems, [])
        self.assertEqual(hooks.live, {})
        # The hooks were really used: handles, writer buffers and reader stacks.
        self.assertGreater(hooks.allocations, 50 * 8)
        # Blocks come from malloc (or realloc of NULL) and each is freed once.
        self.assertEqual(hooks.frees, hooks.blocks)

    def test_allocation_failures_leak_nothing(self):
        data = dumps(SAMPLE)
        deep = b"\x81" * 2000 + b"\x80"  # grows the reader's stack several times
        operations = [
            ("dumps", lambda: dumps(SAMPLE)),
            ("loads", lambda: loads(data)),
            ("loads deep", lambda: loads(deep, max_depth=4000)),
            ("iter_sequence", lambda: list(iter_sequence(data + deep, max_depth=4000))),
            ("Reader", lambda: [it for it in Reader(deep, max_depth=4000)]),
        ]
        for name, op in operations:
            with self.subTest(name):
                with CountingHooks() as hooks:
                    op()
                needed = hooks.allocations
                self.assertGreater(needed, 0)
                for n in range(needed):
                    with CountingHooks() as hooks:
                        hooks.fail_after = n
                        with self.assertRaises(MemoryError, msg="failing allocation %d" % n):
                            op()
                        gc.collect()
                    self.assertEqual(hooks.live, {}, "leak after failing allocation %d" % n)
                    self.assertEqual(hooks.problems, [])


class ResidentSetSize(unittest.TestCase):
    def test_10000_rounds_stay_flat(self):
        path = os.path.join(corpus_dir(), CORPUS_FILES[0])
        data = dumps(SAMPLE)
        if os.path.exists(path):
            with open(path, "rb") as f:
                twitter = f.read()
            data = dumps(loads(twitter)["statuses"][0])  # ~4 kB of varied data
        value = loads(data)

        def rounds(n):
            for _ in range(n):
                assert dumps(loads(data)) == data
                try:
                    loads(data[:-1])
                except CBORDecodeError:
                    pass
            gc.collect()

        rounds(1000)  # warm up: allocator arenas, caches
        before = rss_bytes()
        rounds(10000)
        growth = rss_bytes() - before
        # A leaked reader or writer handle (with its buffer) per round would be
        # several MB here; allocator noise is a few hundred kB at most.
        self.assertLess(growth, 1 << 20, "RSS grew by %d bytes" % growth)
        self.assertEqual(loads(data), value)


if __name__ == "__main__":
    unittest.main()
