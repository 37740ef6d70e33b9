"""The GIL is let go during long library calls that touch no Python object.

A second thread counts in a loop, handing the GIL back at once on each turn
(time.sleep(0)); the switch interval is set to 1000 s, so the interpreter
never takes the GIL from the main thread by itself: the counter can only move
while a call of the main thread releases the GIL. Progress is counted, not
timed: a pure-Python loop (the control) leaves the counter where it was, a
releasing call moves it."""

import array
import io
import sys
import threading
import time
import unittest

import cbor_fast


class Counter:
    def __init__(self):
        self.count = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.spin, daemon=True)

    def spin(self):
        while not self.stop.is_set():
            self.count += 1
            time.sleep(0)  # releases the GIL: the main thread gets it back at once

    def __enter__(self):
        self.interval = sys.getswitchinterval()
        sys.setswitchinterval(1000.0)
        self.thread.start()
        # the counter runs (time.sleep releases the GIL while it waits)
        deadline = time.monotonic() + 30
        while self.count == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        sys.setswitchinterval(self.interval)

    def progress(self, call):
        before = self.count
        call()
        return self.count - before


def python_loop():
    x = 0
    for i in range(300000):
        x += i
    return x


class GilRelease(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # 4 million numbers: about 20 MB of CBOR, 25-40 ms of library time
        cls.numbers = cbor_fast.dumps(array.array("d", range(4000000)))
        cls.ints = cbor_fast.dumps(list(range(2000000)))

    def progress_until_moved(self, counter, call, attempts=40):
        """The counter's progress during call(), tried until it moves (a
        loaded machine may not run the other thread during one call)."""
        for _ in range(attempts):
            moved = counter.progress(call)
            if moved > 0:
                return moved
        return 0

    def test_control_python_loop_holds_the_gil(self):
        with Counter() as counter:
            self.assertGreater(counter.count, 0)
            self.assertEqual([counter.progress(python_loop) for _ in range(10)], [0] * 10)

    def test_loads_array(self):
        expected = array.array("d", range(4000000))
        with Counter() as counter:
            self.assertGreater(
                self.progress_until_moved(counter,
                                          lambda: cbor_fast.loads_array(self.numbers, "d")), 0)
            # the control, in the same setting
            self.assertEqual([counter.progress(python_loop) for _ in range(5)], [0] * 5)
        self.assertEqual(cbor_fast.loads_array(self.numbers, "d"), expected)

    def test_loads_batches(self):
        with Counter() as counter:
            self.assertGreater(
                self.progress_until_moved(counter, lambda: cbor_fast.loads(self.ints)), 0)

    def test_streamed_decode(self):
        with Counter() as counter:
            self.assertGreater(
                self.progress_until_moved(
                    counter, lambda: cbor_fast.CBORDecoder(io.BytesIO(self.ints)).decode()), 0)

    def test_stream_scan(self):
        # the scan alone: an item over max_buffer fails once 8 MiB of it are
        # scanned, before any of it is decoded
        self.assertGreater(len(self.ints), 8 << 20)

        def scan():
            with self.assertRaises(cbor_fast.CBORDecodeError) as cm:
                cbor_fast.CBORDecoder(io.BytesIO(self.ints), max_buffer=8 << 20).decode()
            self.assertEqual((cm.exception.status, cm.exception.offset),
                             ("memory_budget_exceeded", 0))

        with Counter() as counter:
            self.assertGreater(self.progress_until_moved(counter, scan), 0)


if __name__ == "__main__":
    unittest.main()
