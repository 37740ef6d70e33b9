# Type stub of the cbor_fast package (PEP 561: shipped with py.typed): what
# __init__.py defines in Python, with the options it passes on to the
# extension (typed in _ext.pyi; _types.py carries its own annotations).
# tests/test_typing.py checks the stubs against the installed package with
# mypy's stubtest and type-checks a program that uses it.
from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

from ._ext import (
    DEFAULT_MAX_CONTAINER_ITEMS as DEFAULT_MAX_CONTAINER_ITEMS,
    DEFAULT_MAX_ITEMS as DEFAULT_MAX_ITEMS,
    CBOREncoder as CBOREncoder,
    Reader as Reader,
    _Default,
    _ObjectHook,
    _ReadableFile,
    _SemanticDecoder,
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
    tag_hook: _TagHook | None = ...,
    object_hook: _ObjectHook | None = ...,
    semantic_decoders: Mapping[int, _SemanticDecoder] | None = ...,
    str_errors: str = ...,
    max_depth: int = ...,
    allow_indefinite: bool = ...,
    allow_duplicate_keys: bool = ...,
    strict_hashable_types: bool = ...,
    immutable: bool = ...,
    strict_utf8: bool = ...,
    reject_duplicate_keys: bool = ...,
    deterministic: bool = ...,
    max_string_length: int | None = ...,
    max_container_items: int | None = ...,
    max_items: int | None = ...,
    max_memory: int | None = ...,
    typed_arrays: bool = ...,
) -> Any: ...
def dump(
    obj: object,
    fp: _WritableFile,
    *,
    datetime_as_timestamp: bool = ...,
    timezone: tzinfo | None = ...,
    value_sharing: bool = ...,
    default: _Default | None = ...,
    canonical: bool = ...,
    date_as_datetime: bool = ...,
    string_referencing: bool = ...,
    indefinite_containers: bool = ...,
    typed_arrays: bool = ...,
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
        tag_hook: _TagHook | None = ...,
        object_hook: _ObjectHook | None = ...,
        semantic_decoders: Mapping[int, _SemanticDecoder] | None = ...,
        str_errors: str = ...,
        max_depth: int = ...,
        allow_indefinite: bool = ...,
        allow_duplicate_keys: bool = ...,
        strict_hashable_types: bool = ...,
        immutable: bool = ...,
        strict_utf8: bool = ...,
        reject_duplicate_keys: bool = ...,
        deterministic: bool = ...,
        max_string_length: int | None = ...,
        max_container_items: int | None = ...,
        max_items: int | None = ...,
        max_memory: int | None = ...,
        typed_arrays: bool = ...,
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
