"""The package's type information (PEP 561): the stubs (__init__.pyi,
_ext.pyi), the annotations of _types.py and the py.typed marker.

- mypy's stubtest compares the stubs with the installed package: names,
  parameters, their kinds and defaults (the extension's functions and types
  carry signatures, CF_DECODE_OPTIONS_SIG and CF_ENCODE_OPTIONS_SIG in
  src/_ext.h, so the C side is compared too);
- every keyword of those signatures is accepted by its function, with the
  signature's default giving the same result as leaving it out;
- the Python wrappers that pass **options on (load, dump, CBORDecoder) are
  typed with the extension's option lists (one TypedDict each for decoding
  and encoding, which stubtest checks against the signatures);
- mypy --strict on a program using the package sees the types it should and
  reports the mistakes it should, at their lines.

mypy is a test dependency (CBOR_FAST_PYTHON_TEST_DEPS in ../CMakeLists.txt).
"""

import ast
import inspect
import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

import cbor_fast
from cbor_fast import _ext

PACKAGE_DIR = os.path.dirname(cbor_fast.__file__)


def run(args, cwd):
    return subprocess.run([sys.executable, "-m"] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def mypy_strict(source, cwd):
    path = os.path.join(cwd, "prog.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(source))
    r = run(["mypy", "--strict", "--no-error-summary", "--cache-dir",
             os.path.join(cwd, "cache"), "--python-executable", sys.executable, "prog.py"], cwd)
    return r.returncode, r.stdout + r.stderr


def stub_function(tree, name, cls=None):
    body = tree.body
    if cls is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == name)


class StubsTest(unittest.TestCase):
    def test_marker_and_stubs_are_installed(self):
        for name in ("py.typed", "__init__.pyi", "_ext.pyi"):
            self.assertTrue(os.path.isfile(os.path.join(PACKAGE_DIR, name)), name)

    def test_stubtest(self):
        with tempfile.TemporaryDirectory() as cwd:
            r = run(["mypy.stubtest", "cbor_fast", "--mypy-config-file", os.devnull], cwd)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("Success: no issues found", r.stdout)

    def test_signatures_name_the_accepted_keywords(self):
        decode_fns = (_ext.loads, _ext.iter_sequence, _ext.Reader)
        data = b"\x82\x01\x02"
        for fn in decode_fns + (_ext.dumps, _ext.CBOREncoder):
            params = inspect.signature(fn).parameters
            keywords = [p for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
            self.assertGreater(len(keywords), 8, fn)
            for p in keywords:
                with self.subTest(fn=fn.__name__, keyword=p.name):
                    if fn is _ext.loads:
                        self.assertEqual(fn(data, **{p.name: p.default}), [1, 2])
                    elif fn is _ext.iter_sequence:
                        self.assertEqual(list(fn(data, **{p.name: p.default})), [[1, 2]])
                    elif fn is _ext.Reader:
                        self.assertEqual([i.value for i in fn(data, **{p.name: p.default})],
                                         [2, 1, 2, None])
                    elif fn is _ext.dumps:
                        self.assertEqual(fn([1, 2], **{p.name: p.default}), data)
                    else:
                        out = io.BytesIO()
                        fn(out, **{p.name: p.default}).encode([1, 2])
                        self.assertEqual(out.getvalue(), data)
        # The decoders share one option list, the encoders another.
        names = [list(inspect.signature(fn).parameters)[1:] for fn in decode_fns]
        self.assertEqual(names[0], names[1])
        self.assertEqual(names[0], names[2])
        self.assertEqual(list(inspect.signature(_ext.dumps).parameters)[1:],
                         list(inspect.signature(_ext.CBOREncoder).parameters)[1:])
        # A misspelt keyword is refused, so the lists above are all there is.
        with self.assertRaises(TypeError):
            _ext.loads(data, max_dept=3)
        with self.assertRaises(TypeError):
            _ext.dumps(1, canonicl=True)

    def test_wrappers_pass_the_extension_options_on(self):
        # load, CBORDecoder and dump take **options; their stubs type them
        # with the extension's option lists, whose names stubtest checks
        # against the compiled signatures (through loads and dumps).
        with open(os.path.join(PACKAGE_DIR, "__init__.pyi")) as f:
            tree = ast.parse(f.read())

        def shape(fn):
            return ([a.arg for a in fn.args.kwonlyargs], fn.args.kwarg.arg,
                    ast.unparse(fn.args.kwarg.annotation))

        decode = (["max_buffer", "read_size"], "options", "Unpack[_DecodeOptions]")
        self.assertEqual(shape(stub_function(tree, "load")), decode)
        self.assertEqual(shape(stub_function(tree, "__init__", "CBORDecoder")), decode)
        self.assertEqual(shape(stub_function(tree, "dump")),
                         ([], "options", "Unpack[_EncodeOptions]"))
        with open(os.path.join(PACKAGE_DIR, "_ext.pyi")) as f:
            ext = ast.parse(f.read())
        for name, options in (("loads", "_DecodeOptions"), ("iter_sequence", "_DecodeOptions"),
                              ("dumps", "_EncodeOptions")):
            self.assertEqual(shape(stub_function(ext, name))[1:],
                             ("options", "Unpack[%s]" % options), name)


class MypyTest(unittest.TestCase):
    def test_types_seen_by_a_user(self):
        program = """\
            import io
            import cbor_fast
            from cbor_fast import CBORDecodeError, CBORTag, ItemType

            data = cbor_fast.dumps({"a": [1, 2.5]}, canonical=True)
            reveal_type(data)
            reveal_type(cbor_fast.loads(data, max_depth=64, max_string_length=None))
            reveal_type(cbor_fast.load(io.BytesIO(data), max_buffer=1 << 20))
            reveal_type(cbor_fast.loads_array(b"\\x81\\x01", typecode="q"))
            reveal_type(cbor_fast.iter_sequence(data))
            with cbor_fast.Reader(data) as r:
                for item in r:
                    reveal_type(item)
                    reveal_type(item.type)
                    reveal_type(item.offset)
                    if item.type is ItemType.TEXT:
                        reveal_type(r.join())
            reveal_type(CBORTag(32, "x").tag)
            reveal_type(cbor_fast.CBORDecoder(io.BytesIO(data)).decode(immutable=True))
            try:
                cbor_fast.loads(b"\\x18")
            except CBORDecodeError as e:
                reveal_type(e.offset)
                reveal_type(e.status)
            enc = cbor_fast.CBOREncoder(io.BytesIO(), default=lambda e, o: e.encode(str(o)))
            reveal_type(enc.encode_to_bytes(1))
            reveal_type(cbor_fast.undefined)
            cbor_fast.dump([1], io.BytesIO(), value_sharing=True)
            """
        with tempfile.TemporaryDirectory() as cwd:
            rc, out = mypy_strict(program, cwd)
        self.assertEqual(rc, 0, out)
        revealed = re.findall(r"prog\.py:(\d+): note: Revealed type is \"([^\"]+)\"", out)
        self.assertEqual(revealed, [
            ("6", "bytes"),
            ("7", "Any"),
            ("8", "Any"),
            ("9", "array.array[Any]"),
            ("10", "cbor_fast._ext.SequenceIterator"),
            ("13", "tuple[cbor_fast._types.ItemType, Any, int, int, int, int, int, "
                   "fallback=cbor_fast._types.Item]"),
            ("14", "cbor_fast._types.ItemType"),
            ("15", "int"),
            ("17", "memoryview[int] | bytes"),
            ("18", "int"),
            ("19", "Any"),
            ("23", "int | None"),
            ("24", "str | None"),
            ("26", "bytes"),
            ("27", "cbor_fast._types.UndefinedType"),
        ], out)

    def test_mistakes_found(self):
        program = """\
            import io
            import cbor_fast

            cbor_fast.dumps(1, canonical="yes")
            cbor_fast.loads(b"", max_dept=3)
            cbor_fast.load(io.BytesIO(), max_bufer=1)
            text: str = cbor_fast.dumps(1)
            cbor_fast.loads("not bytes")
            cbor_fast.CBOREncoder(io.BytesIO()).encode(1, 2)
            cbor_fast.dump(1, io.StringIO())
            cbor_fast.Reader(b"").skip(1)
            """
        with tempfile.TemporaryDirectory() as cwd:
            rc, out = mypy_strict(program, cwd)
        self.assertEqual(rc, 1, out)
        errors = re.findall(r"prog\.py:(\d+): error: ", out)
        self.assertEqual(errors, ["4", "5", "6", "7", "8", "9", "10", "11"], out)
        for line, text in (
                (4, 'Argument "canonical" to "dumps" has incompatible type "str"; expected "bool"'),
                (5, 'Unexpected keyword argument "max_dept" for "loads"'),
                (6, 'Unexpected keyword argument "max_bufer" for "load"'),
                (7, 'Incompatible types in assignment (expression has type "bytes", '
                    'variable has type "str")'),
                (8, 'Argument 1 to "loads" has incompatible type "str"'),
                (9, 'Too many arguments for "encode" of "CBOREncoder"'),
                (10, 'Argument 2 to "dump" has incompatible type "StringIO"'),
                (11, 'Too many arguments for "skip" of "Reader"')):
            self.assertIn("prog.py:%d: error: %s" % (line, text), out)


if __name__ == "__main__":
    unittest.main()
