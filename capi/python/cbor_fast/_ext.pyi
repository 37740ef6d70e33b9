# Type stub of the compiled extension (src/_ext*.c). The keyword options and
# their defaults are those of its signatures (CF_DECODE_OPTIONS_SIG and
# CF_ENCODE_OPTIONS_SIG in src/_ext.h, which inspect.signature() shows);
# tests/test_typing.py checks this file against the built module with mypy's
# stubtest. The package re-exports the public names (__init__.pyi).
import sys
from array import array
from collections.abc import Callable, Iterator, Mapping
from datetime import tzinfo
from types import TracebackType
from typing import Any, Protocol, TypedDict, final, type_check_only

from ._types import CBORTag, Item

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

if sys.version_info >= (3, 11):
    from typing import Self, Unpack
else:
    from typing_extensions import Self, Unpack

class _ReadableFile(Protocol):
    def read(self, size: int, /) -> bytes: ...

class _WritableFile(Protocol):
    def write(self, data: bytes, /) -> object: ...

# The hooks, called as cbor2 calls them.
_TagHook = Callable[[CBORTag, bool], Any]
_ObjectHook = Callable[[Mapping[Any, Any], bool], Any]
_SemanticDecoder = Callable[[Any, bool], Any]
_Default = Callable[[CBOREncoder, Any], Any]

# The keyword options: their names are those of the signatures (stubtest
# compares them); their defaults are in the signatures (inspect.signature).
class _DecodeOptions(TypedDict, total=False):
    tag_hook: _TagHook | None
    object_hook: _ObjectHook | None
    semantic_decoders: Mapping[int, _SemanticDecoder] | None
    str_errors: str
    max_depth: int
    allow_indefinite: bool
    allow_duplicate_keys: bool
    strict_hashable_types: bool
    immutable: bool
    strict_utf8: bool
    reject_duplicate_keys: bool
    deterministic: bool
    max_string_length: int | None
    max_container_items: int | None
    max_items: int | None
    max_memory: int | None
    typed_arrays: bool

class _EncodeOptions(TypedDict, total=False):
    datetime_as_timestamp: bool
    timezone: tzinfo | None
    value_sharing: bool
    default: _Default | None
    canonical: bool
    date_as_datetime: bool
    string_referencing: bool
    indefinite_containers: bool
    typed_arrays: bool

library_version: str
DEFAULT_MAX_CONTAINER_ITEMS: int
DEFAULT_MAX_ITEMS: int
MAX_KEYS_PER_HASH: int

def status_name(code: int, /) -> str: ...
def status_string(code: int, /) -> str: ...

# For the package's own Python code.
def _setup(
    *,
    tag_type: type,
    simple_type: type,
    undefined: object,
    frozendict: type,
    decode_error: type,
    encode_error: type,
    encode_type_error: type,
    encode_value_error: type,
    semantic_decode: Callable[..., Any],
    special_encode: Callable[..., Any],
    written: object,
    item_type: type,
    semantic_tags: frozenset[int],
) -> None: ...
def _build_set(values: list[Any] | tuple[Any, ...], frozen: bool, /) -> set[Any] | frozenset[Any]: ...

def loads(
    data: Buffer,
    **options: Unpack[_DecodeOptions],
) -> Any: ...
def loads_array(data: Buffer, typecode: str = "d") -> array[Any]: ...
def iter_sequence(
    data: Buffer,
    **options: Unpack[_DecodeOptions],
) -> SequenceIterator: ...
@type_check_only
class SequenceIterator(Iterator[Any]):
    def __next__(self) -> Any: ...
    def close(self) -> None: ...

def dumps(
    obj: object,
    /,
    **options: Unpack[_EncodeOptions],
) -> bytes: ...

@final
class CBOREncoder:
    def __init__(
        self,
        fp: _WritableFile,
        **options: Unpack[_EncodeOptions],
    ) -> None: ...
    fp: _WritableFile
    @property
    def datetime_as_timestamp(self) -> bool: ...
    @property
    def timezone(self) -> tzinfo | None: ...
    @property
    def value_sharing(self) -> bool: ...
    @property
    def default(self) -> _Default | None: ...
    @property
    def canonical(self) -> bool: ...
    @property
    def date_as_datetime(self) -> bool: ...
    @property
    def string_referencing(self) -> bool: ...
    @property
    def indefinite_containers(self) -> bool: ...
    def encode(self, obj: object, /) -> None: ...
    def encode_to_bytes(self, obj: object, /) -> bytes: ...
    def write(self, buf: Buffer, /) -> None: ...

@final
class Reader:
    def __new__(
        cls,
        data: Buffer,
        **options: Unpack[_DecodeOptions],
    ) -> Self: ...
    def __iter__(self) -> Self: ...
    def __next__(self) -> Item: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
        /,
    ) -> None: ...
    @property
    def offset(self) -> int: ...
    @property
    def depth(self) -> int: ...
    def skip(self) -> bool: ...
    def skip_to_end(self) -> None: ...
    def join(self) -> memoryview | bytes: ...
    def finish(self) -> None: ...
    def close(self) -> None: ...


@final
class StreamDecoder:
    def __new__(
        cls,
        fp: _ReadableFile,
        options: Mapping[str, Any] | None = None,
        max_buffer: int | None = None,
        exact: bool = False,
        read_size: int | None = None,
        one: bool = False,
    ) -> Self: ...
    def decode(self, immutable: bool | None = None) -> Any: ...
    @property
    def pending(self) -> int: ...
    @property
    def offset(self) -> int: ...
