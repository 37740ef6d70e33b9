# Type stub of the cbor_fast package (PEP 561: shipped with py.typed): what
# __init__.py defines in Python, which passes its options on to the extension
# (typed in _ext.pyi, with the option lists; _types.py carries its own
# annotations).
# tests/test_typing.py checks the stubs against the installed package with
# mypy's stubtest and type-checks a program that uses it.
import sys
from typing import Any

from ._ext import (
    DEFAULT_MAX_CONTAINER_ITEMS as DEFAULT_MAX_CONTAINER_ITEMS,
    DEFAULT_MAX_ITEMS as DEFAULT_MAX_ITEMS,
    CBOREncoder as CBOREncoder,
    Reader as Reader,
    _DecodeOptions,
    _EncodeOptions,
    _ObjectHook,
    _ReadableFile,
    _TagHook,
    _WritableFile,
    dumps as dumps,
    iter_sequence as iter_sequence,
    library_version as library_version,
    loads as loads,
    loads_array as loads_array,
)
from ._types import (
    STATUS_CODES as STATUS_CODES,
    CBORDecodeEOF as CBORDecodeEOF,
    CBORDecodeError as CBORDecodeError,
    CBOREncodeError as CBOREncodeError,
    CBOREncodeTypeError as CBOREncodeTypeError,
    CBOREncodeValueError as CBOREncodeValueError,
    CBORError as CBORError,
    CBORSimpleValue as CBORSimpleValue,
    CBORTag as CBORTag,
    FrozenDict as FrozenDict,
    Item as Item,
    ItemType as ItemType,
    UndefinedType as UndefinedType,
    undefined as undefined,
)

if sys.version_info >= (3, 11):
    from typing import Unpack
else:
    from typing_extensions import Unpack

__all__ = [
    "loads", "loads_array", "load", "dumps", "dump", "iter_sequence", "Reader", "Item",
    "ItemType", "CBORTag", "CBORSimpleValue", "undefined", "UndefinedType", "FrozenDict",
    "frozendict", "CBORError", "CBORDecodeError", "CBORDecodeEOF", "CBOREncodeError",
    "CBOREncodeTypeError", "CBOREncodeValueError", "CBOREncoder", "CBORDecoder",
    "STATUS_CODES", "library_version", "Tag", "Simple", "DEFAULT_MAX_CONTAINER_ITEMS",
    "DEFAULT_MAX_ITEMS",
]

__version__: str

def load(
    fp: _ReadableFile,
    *,
    max_buffer: int | None = None,
    read_size: int | None = None,
    **options: Unpack[_DecodeOptions],
) -> Any: ...
def dump(
    obj: object,
    fp: _WritableFile,
    **options: Unpack[_EncodeOptions],
) -> None: ...

class CBORDecoder:
    tag_hook: _TagHook | None
    object_hook: _ObjectHook | None
    str_errors: str
    read_size: int | None
    def __init__(
        self,
        fp: _ReadableFile,
        *,
        max_buffer: int | None = None,
        read_size: int | None = None,
        **options: Unpack[_DecodeOptions],
    ) -> None: ...
    @property
    def fp(self) -> _ReadableFile: ...
    @fp.setter
    def fp(self, fp: _ReadableFile) -> None: ...
    def decode(self, *, immutable: bool = False) -> Any: ...
    @property
    def offset(self) -> int: ...

# Older cbor_fast names.
Tag = CBORTag
Simple = CBORSimpleValue
frozendict = FrozenDict
