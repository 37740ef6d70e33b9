"""The package built with CBOR_FAST_PYTHON_SYSTEM_LIBRARY=ON: its extension
runs on the shared libcbor_fast given as argv[1] (not a copy of the core
linked in), found without LD_LIBRARY_PATH (the build recorded its directory
from pkg-config's libdir), and works. Run by ctest (python.system_library)
in its own venv."""

import os
import sys

assert "LD_LIBRARY_PATH" not in os.environ, "run without LD_LIBRARY_PATH"
import cbor_fast  # noqa: E402

expected = os.path.realpath(sys.argv[1])
with open("/proc/self/maps") as f:
    mapped = {os.path.realpath(line.split()[-1]) for line in f if "/" in line}
assert expected in mapped, "libcbor_fast.so not loaded: %s" % sorted(m for m in mapped
                                                                     if "cbor" in m)
assert os.environ.get("CBOR_FAST_EXPECTED_VERSION", cbor_fast.library_version) == \
    cbor_fast.library_version
value = {"a": [1, 2.5, b"x", "\u00e9", None, True, 2**70]}
assert cbor_fast.loads(cbor_fast.dumps(value)) == value
assert cbor_fast.dumps([1, [2, 3]]) == bytes.fromhex("8201820203")
try:
    cbor_fast.loads(b"\x82\x01")
except cbor_fast.CBORDecodeError as e:
    # a definite count beyond the input is truncated at its head
    assert (e.status, e.offset) == ("truncated", 0), (e.status, e.offset)
else:
    raise AssertionError("no error for truncated input")
# the streamed decoder over the shared library's streaming reader
import io  # noqa: E402
dec = cbor_fast.CBORDecoder(io.BytesIO(bytes.fromhex("820102" "63616263")))
assert (dec.decode(), dec.decode(), dec.offset) == ([1, 2], "abc", 7)
print("system library ok:", expected)
