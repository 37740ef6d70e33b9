//! Raw declarations of the C API in `capi/include/cbor_fast.h`, written by hand,
//! and the linking of libcbor_fast (see `build.rs`: the `bundled` feature
//! builds the core from this repository's sources and links it statically;
//! otherwise `CBOR_FAST_LIB_DIR` or pkg-config finds an installed library).
//! The safe API is the `cbor_fast` crate, which re-exports this one as
//! `cbor_fast::ffi`.
//!
//! Every type, constant and function here mirrors the header one to one (same
//! names, same order of sections). C enums are plain integer aliases with
//! constants, not Rust enums: a library newer than this crate may return a
//! value this file does not list, and a Rust enum holding it would be undefined
//! behaviour. The enums have no negative enumerators, so GCC and Clang give them
//! an `unsigned int` representation; statuses are read as `i32` (the values are
//! all below 2^31, so both readings agree).
//!
//! Nothing here is safe to call without reading the header's contract; the
//! safe wrappers live in the other modules.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::{c_char, c_int, c_void};

// ---- status codes -------------------------------------------------------------

pub type cbor_fast_status = i32;

pub const CBOR_FAST_OK: cbor_fast_status = 0;
pub const CBOR_FAST_END: cbor_fast_status = 1;
pub const CBOR_FAST_NEED_MORE: cbor_fast_status = 2;

pub const CBOR_FAST_ERR_INVALID_ARGUMENT: cbor_fast_status = 10;
pub const CBOR_FAST_ERR_INVALID_STATE: cbor_fast_status = 11;
pub const CBOR_FAST_ERR_BUFFER_TOO_SMALL: cbor_fast_status = 12;
pub const CBOR_FAST_ERR_WRITER_UNCLOSED: cbor_fast_status = 13;
pub const CBOR_FAST_ERR_WRITER_COUNT: cbor_fast_status = 14;
pub const CBOR_FAST_ERR_WRITER_NO_CONTAINER: cbor_fast_status = 15;
pub const CBOR_FAST_ERR_WRITER_BAD_CHUNK: cbor_fast_status = 16;
pub const CBOR_FAST_ERR_WRITER_ODD_MAP: cbor_fast_status = 17;
pub const CBOR_FAST_ERR_SINK_FAILED: cbor_fast_status = 18;
pub const CBOR_FAST_ERR_TYPE_MISMATCH: cbor_fast_status = 19;
pub const CBOR_FAST_ERR_OUT_OF_RANGE: cbor_fast_status = 20;
pub const CBOR_FAST_ERR_SOURCE_FAILED: cbor_fast_status = 21;

pub const CBOR_FAST_ERR_TRUNCATED: cbor_fast_status = 100;
pub const CBOR_FAST_ERR_RESERVED_AI: cbor_fast_status = 101;
pub const CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED: cbor_fast_status = 102;
pub const CBOR_FAST_ERR_BAD_SIMPLE: cbor_fast_status = 103;
pub const CBOR_FAST_ERR_CHUNK_TYPE: cbor_fast_status = 104;
pub const CBOR_FAST_ERR_NESTED_CHUNK: cbor_fast_status = 105;
pub const CBOR_FAST_ERR_UNEXPECTED_BREAK: cbor_fast_status = 106;
pub const CBOR_FAST_ERR_MAP_MISSING_VALUE: cbor_fast_status = 107;

pub const CBOR_FAST_ERR_INVALID_UTF8: cbor_fast_status = 200;
pub const CBOR_FAST_ERR_TRAILING_BYTES: cbor_fast_status = 201;
pub const CBOR_FAST_ERR_NOT_PREFERRED: cbor_fast_status = 202;
pub const CBOR_FAST_ERR_INDEFINITE_LENGTH: cbor_fast_status = 203;
pub const CBOR_FAST_ERR_UNSORTED_KEYS: cbor_fast_status = 204;
pub const CBOR_FAST_ERR_DUPLICATE_KEY: cbor_fast_status = 205;
pub const CBOR_FAST_ERR_SYNTAX_ERROR: cbor_fast_status = 220;

pub const CBOR_FAST_ERR_DEPTH: cbor_fast_status = 300;
pub const CBOR_FAST_ERR_OUT_OF_MEMORY: cbor_fast_status = 301;
pub const CBOR_FAST_ERR_TOO_MANY_ITEMS: cbor_fast_status = 302;
pub const CBOR_FAST_ERR_CONTAINER_TOO_LARGE: cbor_fast_status = 303;
pub const CBOR_FAST_ERR_STRING_TOO_LONG: cbor_fast_status = 304;
pub const CBOR_FAST_ERR_MEMORY_BUDGET: cbor_fast_status = 305;
pub const CBOR_FAST_ERR_INTERNAL: cbor_fast_status = 399;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_error {
    pub struct_size: u32,
    pub code: cbor_fast_status,
    pub offset: usize,
    pub item_offset: usize,
    pub depth: u32,
    pub message: *const c_char,
}

impl cbor_fast_error {
    /// CBOR_FAST_ERROR_INIT.
    pub const INIT: cbor_fast_error = cbor_fast_error {
        struct_size: std::mem::size_of::<cbor_fast_error>() as u32,
        code: CBOR_FAST_OK,
        offset: 0,
        item_offset: 0,
        depth: 0,
        message: std::ptr::null(),
    };
}

// ---- memory -------------------------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_allocator {
    pub malloc: Option<unsafe extern "C" fn(context: *mut c_void, size: usize) -> *mut c_void>,
    pub realloc: Option<
        unsafe extern "C" fn(
            context: *mut c_void,
            ptr: *mut c_void,
            old_size: usize,
            new_size: usize,
        ) -> *mut c_void,
    >,
    pub free: Option<unsafe extern "C" fn(context: *mut c_void, ptr: *mut c_void, size: usize)>,
    pub context: *mut c_void,
}

// ---- items --------------------------------------------------------------------

pub type cbor_fast_type = u32;

pub const CBOR_FAST_TYPE_NONE: cbor_fast_type = 0;
pub const CBOR_FAST_TYPE_UINT: cbor_fast_type = 1;
pub const CBOR_FAST_TYPE_NEGATIVE: cbor_fast_type = 2;
pub const CBOR_FAST_TYPE_BYTES: cbor_fast_type = 3;
pub const CBOR_FAST_TYPE_TEXT: cbor_fast_type = 4;
pub const CBOR_FAST_TYPE_ARRAY: cbor_fast_type = 5;
pub const CBOR_FAST_TYPE_MAP: cbor_fast_type = 6;
pub const CBOR_FAST_TYPE_TAG: cbor_fast_type = 7;
pub const CBOR_FAST_TYPE_SIMPLE: cbor_fast_type = 8;
pub const CBOR_FAST_TYPE_BOOL: cbor_fast_type = 9;
pub const CBOR_FAST_TYPE_NULL: cbor_fast_type = 10;
pub const CBOR_FAST_TYPE_UNDEFINED: cbor_fast_type = 11;
pub const CBOR_FAST_TYPE_FLOAT: cbor_fast_type = 12;
pub const CBOR_FAST_TYPE_END: cbor_fast_type = 13;

pub type cbor_fast_float_width = u32;

pub const CBOR_FAST_FLOAT_SHORTEST: cbor_fast_float_width = 0;
pub const CBOR_FAST_FLOAT_HALF: cbor_fast_float_width = 2;
pub const CBOR_FAST_FLOAT_SINGLE: cbor_fast_float_width = 4;
pub const CBOR_FAST_FLOAT_DOUBLE: cbor_fast_float_width = 8;

pub const CBOR_FAST_ITEM_INDEFINITE: u32 = 1;
pub const CBOR_FAST_ITEM_BREAK: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_item {
    pub struct_size: u32,
    pub type_: cbor_fast_type,
    pub flags: u32,
    pub depth: u32,
    pub offset: usize,
    pub head_size: u32,
    pub float_width: u32,
    pub value: u64,
    pub float_value: f64,
    pub data: *const u8,
    pub size: usize,
}

impl cbor_fast_item {
    /// CBOR_FAST_ITEM_INIT.
    pub const INIT: cbor_fast_item = cbor_fast_item {
        struct_size: std::mem::size_of::<cbor_fast_item>() as u32,
        type_: CBOR_FAST_TYPE_NONE,
        flags: 0,
        depth: 0,
        offset: 0,
        head_size: 0,
        float_width: 0,
        value: 0,
        float_value: 0.0,
        data: std::ptr::null(),
        size: 0,
    };
}

/// Callbacks of `cbor_reader_visit` (since 0.5): each returns 0 to go on,
/// nonzero to stop after that item; a `None` callback sends its kind to
/// `on_item` (or nowhere).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_visit_callbacks {
    pub struct_size: u32,
    pub on_item: Option<unsafe extern "C" fn(*mut c_void, *const cbor_fast_item) -> c_int>,
    pub on_uint: Option<unsafe extern "C" fn(*mut c_void, u64) -> c_int>,
    pub on_negative: Option<unsafe extern "C" fn(*mut c_void, u64) -> c_int>,
    pub on_bytes: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize, u32) -> c_int>,
    pub on_text: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize, u32) -> c_int>,
    pub on_array: Option<unsafe extern "C" fn(*mut c_void, u64, u32) -> c_int>,
    pub on_map: Option<unsafe extern "C" fn(*mut c_void, u64, u32) -> c_int>,
    pub on_end: Option<unsafe extern "C" fn(*mut c_void, u32) -> c_int>,
    pub on_tag: Option<unsafe extern "C" fn(*mut c_void, u64) -> c_int>,
    pub on_simple: Option<unsafe extern "C" fn(*mut c_void, u32) -> c_int>,
    pub on_bool: Option<unsafe extern "C" fn(*mut c_void, c_int) -> c_int>,
    pub on_null: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    pub on_undefined: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    pub on_float: Option<unsafe extern "C" fn(*mut c_void, f64, u64, u32) -> c_int>,
}

impl cbor_fast_visit_callbacks {
    /// CBOR_FAST_VISIT_CALLBACKS_INIT: every callback `None`.
    pub const INIT: cbor_fast_visit_callbacks = cbor_fast_visit_callbacks {
        struct_size: std::mem::size_of::<cbor_fast_visit_callbacks>() as u32,
        on_item: None,
        on_uint: None,
        on_negative: None,
        on_bytes: None,
        on_text: None,
        on_array: None,
        on_map: None,
        on_end: None,
        on_tag: None,
        on_simple: None,
        on_bool: None,
        on_null: None,
        on_undefined: None,
        on_float: None,
    };
}

// ---- opaque handles -----------------------------------------------------------

/// Declares an opaque C type: no size, not constructible, not Send/Sync/Unpin.
macro_rules! opaque {
    ($($name:ident),* $(,)?) => {$(
        #[repr(C)]
        pub struct $name {
            _data: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}
opaque!(
    cbor_reader,
    cbor_writer,
    cbor_doc,
    cbor_node,
    cbor_mdoc,
    cbor_mnode,
    cbor_seq,
    cbor_stream
);

// ---- reader -------------------------------------------------------------------

pub type cbor_fast_option = u32;

pub const CBOR_FAST_OPT_MAX_DEPTH: cbor_fast_option = 1;
pub const CBOR_FAST_OPT_VALIDATE_UTF8: cbor_fast_option = 2;
pub const CBOR_FAST_OPT_MAX_STRING_LENGTH: cbor_fast_option = 3;
pub const CBOR_FAST_OPT_MAX_CONTAINER_ITEMS: cbor_fast_option = 4;
pub const CBOR_FAST_OPT_MAX_ITEMS: cbor_fast_option = 5;
pub const CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS: cbor_fast_option = 6;
pub const CBOR_FAST_OPT_DETERMINISTIC: cbor_fast_option = 7;
/// Since 0.5: the input arrives in parts (`cbor_reader_feed`).
pub const CBOR_FAST_OPT_STREAMING: cbor_fast_option = 8;

// ---- writer -------------------------------------------------------------------

pub type cbor_fast_sink_fn =
    Option<unsafe extern "C" fn(context: *mut c_void, data: *const u8, size: usize) -> c_int>;

// ---- documents ----------------------------------------------------------------

pub const CBOR_FAST_DECODE_NONE: u32 = 0;
pub const CBOR_FAST_DECODE_EXACT: u32 = 1;
pub const CBOR_FAST_DECODE_COPY_STRINGS: u32 = 2;
pub const CBOR_FAST_DECODE_VALIDATE_UTF8: u32 = 4;
pub const CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS: u32 = 8;
pub const CBOR_FAST_DECODE_DETERMINISTIC: u32 = 16;

/// The 0.2 layout (the limits after `alloc` are new in 0.2; 0 = the default).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_decode_options {
    pub struct_size: u32,
    pub max_depth: u32,
    pub alloc: *const cbor_fast_allocator,
    pub max_string_length: u64,
    pub max_container_items: u64,
    pub max_items: u64,
    pub max_memory: u64,
}

impl cbor_fast_decode_options {
    /// CBOR_FAST_DECODE_OPTIONS_INIT.
    pub const INIT: cbor_fast_decode_options = cbor_fast_decode_options {
        struct_size: std::mem::size_of::<cbor_fast_decode_options>() as u32,
        max_depth: 0,
        alloc: std::ptr::null(),
        max_string_length: 0,
        max_container_items: 0,
        max_items: 0,
        max_memory: 0,
    };
}
/// The default budget's bytes per input byte (since 0.4).
pub const CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE: u64 = 32;
/// The default budget's fixed part in bytes (since 0.4).
pub const CBOR_FAST_DEFAULT_MEMORY_SLACK: u64 = 1048576;
/// The default limit of entries in one array or map, 2^24 (since 0.5).
pub const CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS: u64 = 16777216;
/// The default limit of items (of a document, of a reader since its start), 2^28 (since 0.5).
pub const CBOR_FAST_DEFAULT_MAX_ITEMS: u64 = 268435456;

pub const CBOR_FAST_ENCODE_NONE: u32 = 0;
pub const CBOR_FAST_ENCODE_PREFERRED: u32 = 1;

// ---- bulk number arrays and RFC 8746 typed arrays (since 0.4) -------------------

pub const CBOR_FAST_TYPED_UINT8: u32 = 1;
pub const CBOR_FAST_TYPED_UINT8_CLAMPED: u32 = 2;
pub const CBOR_FAST_TYPED_UINT16: u32 = 3;
pub const CBOR_FAST_TYPED_UINT32: u32 = 4;
pub const CBOR_FAST_TYPED_UINT64: u32 = 5;
pub const CBOR_FAST_TYPED_SINT8: u32 = 6;
pub const CBOR_FAST_TYPED_SINT16: u32 = 7;
pub const CBOR_FAST_TYPED_SINT32: u32 = 8;
pub const CBOR_FAST_TYPED_SINT64: u32 = 9;
pub const CBOR_FAST_TYPED_FLOAT16: u32 = 10;
pub const CBOR_FAST_TYPED_FLOAT32: u32 = 11;
pub const CBOR_FAST_TYPED_FLOAT64: u32 = 12;
pub const CBOR_FAST_TYPED_FLOAT128: u32 = 13;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cbor_fast_typed_array {
    pub struct_size: u32,
    pub element: u32,
    pub tag: u64,
    pub element_size: u32,
    pub little_endian: u32,
    pub data: *const u8,
    pub count: usize,
    pub offset: usize,
    pub data_offset: usize,
}

impl cbor_fast_typed_array {
    /// `CBOR_FAST_TYPED_ARRAY_INIT`.
    pub const INIT: cbor_fast_typed_array = cbor_fast_typed_array {
        struct_size: std::mem::size_of::<cbor_fast_typed_array>() as u32,
        element: 0,
        tag: 0,
        element_size: 0,
        little_endian: 0,
        data: std::ptr::null(),
        count: 0,
        offset: 0,
        data_offset: 0,
    };
}

unsafe extern "C" {
    // ---- status strings and version ----
    pub fn cbor_status_string(status: cbor_fast_status) -> *const c_char;
    pub fn cbor_status_name(status: cbor_fast_status) -> *const c_char;
    pub fn cbor_status_is_error(status: cbor_fast_status) -> c_int;
    pub fn cbor_status_is_malformed(status: cbor_fast_status) -> c_int;
    pub fn cbor_fast_version() -> u32;
    pub fn cbor_fast_version_string() -> *const c_char;

    // ---- reader ----
    pub fn cbor_reader_new(
        data: *const c_void,
        size: usize,
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_reader,
    ) -> cbor_fast_status;
    pub fn cbor_reader_free(reader: *mut cbor_reader);
    pub fn cbor_reader_reset(
        reader: *mut cbor_reader,
        data: *const c_void,
        size: usize,
    ) -> cbor_fast_status;
    pub fn cbor_reader_set(
        reader: *mut cbor_reader,
        option: cbor_fast_option,
        value: u64,
    ) -> cbor_fast_status;
    /// Since 0.5: every limit and check from the options of `cbor_decode`.
    pub fn cbor_reader_configure(
        reader: *mut cbor_reader,
        flags: u32,
        options: *const cbor_fast_decode_options,
    ) -> cbor_fast_status;
    pub fn cbor_reader_next(
        reader: *mut cbor_reader,
        item: *mut cbor_fast_item,
    ) -> cbor_fast_status;
    pub fn cbor_reader_next_batch(
        reader: *mut cbor_reader,
        items: *mut cbor_fast_item,
        capacity: usize,
        count: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_reader_skip(reader: *mut cbor_reader) -> cbor_fast_status;
    pub fn cbor_reader_skip_to_end(reader: *mut cbor_reader) -> cbor_fast_status;
    pub fn cbor_reader_join(
        reader: *mut cbor_reader,
        item: *const cbor_fast_item,
        data: *mut *const u8,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_reader_finish(reader: *mut cbor_reader) -> cbor_fast_status;
    /// Since 0.5 (CBOR_FAST_OPT_STREAMING): the stream's bytes from
    /// `first_offset` on, in a new or grown buffer.
    pub fn cbor_reader_feed(
        reader: *mut cbor_reader,
        data: *const c_void,
        size: usize,
        first_offset: usize,
    ) -> cbor_fast_status;
    /// Since 0.5: after CBOR_FAST_NEED_MORE, the fewest further bytes wanted.
    pub fn cbor_reader_needed(reader: *const cbor_reader) -> usize;
    pub fn cbor_reader_offset(reader: *const cbor_reader) -> usize;
    pub fn cbor_reader_depth(reader: *const cbor_reader) -> u32;
    pub fn cbor_reader_error(
        reader: *const cbor_reader,
        error: *mut cbor_fast_error,
    ) -> cbor_fast_status;
    /// Since 0.5: every item to the callback of its kind, until the end, an
    /// error or a callback returning nonzero (then CBOR_FAST_OK).
    pub fn cbor_reader_visit(
        reader: *mut cbor_reader,
        callbacks: *const cbor_fast_visit_callbacks,
        context: *mut c_void,
    ) -> cbor_fast_status;

    // ---- writer ----
    pub fn cbor_writer_new(
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_writer,
    ) -> cbor_fast_status;
    pub fn cbor_writer_new_buffer(
        buffer: *mut c_void,
        capacity: usize,
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_writer,
    ) -> cbor_fast_status;
    pub fn cbor_writer_new_sink(
        sink: cbor_fast_sink_fn,
        context: *mut c_void,
        chunk_size: usize,
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_writer,
    ) -> cbor_fast_status;
    pub fn cbor_writer_free(writer: *mut cbor_writer);
    pub fn cbor_writer_reset(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_uint(writer: *mut cbor_writer, value: u64) -> cbor_fast_status;
    pub fn cbor_writer_int(writer: *mut cbor_writer, value: i64) -> cbor_fast_status;
    pub fn cbor_writer_negative(writer: *mut cbor_writer, n: u64) -> cbor_fast_status;
    pub fn cbor_writer_bignum(
        writer: *mut cbor_writer,
        magnitude: *const u8,
        size: usize,
        negative: c_int,
    ) -> cbor_fast_status;
    pub fn cbor_writer_bytes(
        writer: *mut cbor_writer,
        data: *const c_void,
        size: usize,
    ) -> cbor_fast_status;
    pub fn cbor_writer_text(
        writer: *mut cbor_writer,
        data: *const c_char,
        size: usize,
    ) -> cbor_fast_status;
    pub fn cbor_writer_tag(writer: *mut cbor_writer, tag: u64) -> cbor_fast_status;
    pub fn cbor_writer_bool(writer: *mut cbor_writer, value: c_int) -> cbor_fast_status;
    pub fn cbor_writer_null(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_undefined(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_simple(writer: *mut cbor_writer, value: u8) -> cbor_fast_status;
    pub fn cbor_writer_float(
        writer: *mut cbor_writer,
        value: f64,
        width: cbor_fast_float_width,
    ) -> cbor_fast_status;
    pub fn cbor_writer_array(writer: *mut cbor_writer, count: u64) -> cbor_fast_status;
    pub fn cbor_writer_array_indefinite(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_map(writer: *mut cbor_writer, pairs: u64) -> cbor_fast_status;
    pub fn cbor_writer_map_indefinite(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_bytes_indefinite(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_text_indefinite(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_end(writer: *mut cbor_writer) -> cbor_fast_status;
    pub fn cbor_writer_finish(
        writer: *mut cbor_writer,
        data: *mut *const u8,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_writer_size(writer: *const cbor_writer) -> usize;

    // ---- immutable documents ----
    pub fn cbor_decode(
        data: *const c_void,
        size: usize,
        flags: u32,
        options: *const cbor_fast_decode_options,
        out: *mut *mut cbor_doc,
        error: *mut cbor_fast_error,
    ) -> cbor_fast_status;
    pub fn cbor_doc_free(doc: *mut cbor_doc);
    pub fn cbor_doc_root(doc: *const cbor_doc) -> *const cbor_node;
    pub fn cbor_doc_encoded_size(doc: *const cbor_doc) -> usize;
    pub fn cbor_doc_node_count(doc: *const cbor_doc) -> usize;
    pub fn cbor_encode(
        doc: *const cbor_doc,
        flags: u32,
        writer: *mut cbor_writer,
    ) -> cbor_fast_status;

    pub fn cbor_node_type(node: *const cbor_node) -> cbor_fast_type;
    pub fn cbor_node_is_indefinite(node: *const cbor_node) -> c_int;
    pub fn cbor_node_offset(node: *const cbor_node) -> usize;
    pub fn cbor_node_get_uint64(node: *const cbor_node, out: *mut u64) -> cbor_fast_status;
    pub fn cbor_node_get_int64(node: *const cbor_node, out: *mut i64) -> cbor_fast_status;
    pub fn cbor_node_get_int_raw(
        node: *const cbor_node,
        raw: *mut u64,
        negative: *mut c_int,
    ) -> cbor_fast_status;
    pub fn cbor_node_get_bignum(
        node: *const cbor_node,
        raw: *mut u64,
        magnitude: *mut *const u8,
        size: *mut usize,
        negative: *mut c_int,
    ) -> cbor_fast_status;
    pub fn cbor_node_get_double(node: *const cbor_node, out: *mut f64) -> cbor_fast_status;
    pub fn cbor_node_float_width(node: *const cbor_node) -> u32;
    pub fn cbor_node_get_bool(node: *const cbor_node, out: *mut c_int) -> cbor_fast_status;
    pub fn cbor_node_get_simple(node: *const cbor_node, out: *mut u8) -> cbor_fast_status;
    pub fn cbor_node_get_bytes(
        node: *const cbor_node,
        data: *mut *const u8,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_node_get_text(
        node: *const cbor_node,
        data: *mut *const c_char,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_node_get_tag(node: *const cbor_node, out: *mut u64) -> cbor_fast_status;
    pub fn cbor_node_tag_content(node: *const cbor_node) -> *const cbor_node;

    pub fn cbor_node_size(node: *const cbor_node) -> usize;
    pub fn cbor_node_array_get(node: *const cbor_node, index: usize) -> *const cbor_node;
    pub fn cbor_node_map_key(node: *const cbor_node, index: usize) -> *const cbor_node;
    pub fn cbor_node_map_value(node: *const cbor_node, index: usize) -> *const cbor_node;
    pub fn cbor_node_map_find(
        node: *const cbor_node,
        key: *const c_char,
        key_size: usize,
    ) -> *const cbor_node;
    pub fn cbor_node_map_find_int(node: *const cbor_node, key: i64) -> *const cbor_node;
    pub fn cbor_node_child(node: *const cbor_node) -> *const cbor_node;
    pub fn cbor_node_next(node: *const cbor_node) -> *const cbor_node;

    // ---- mutable documents ----
    pub fn cbor_mdoc_new(
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_mdoc,
    ) -> cbor_fast_status;
    pub fn cbor_mdoc_free(doc: *mut cbor_mdoc);
    pub fn cbor_doc_to_mdoc(
        doc: *const cbor_doc,
        alloc: *const cbor_fast_allocator,
        out: *mut *mut cbor_mdoc,
    ) -> cbor_fast_status;
    pub fn cbor_mdoc_root(doc: *const cbor_mdoc) -> *mut cbor_mnode;
    pub fn cbor_mdoc_set_root(doc: *mut cbor_mdoc, node: *mut cbor_mnode) -> cbor_fast_status;

    pub fn cbor_mdoc_uint(doc: *mut cbor_mdoc, value: u64) -> *mut cbor_mnode;
    pub fn cbor_mdoc_int(doc: *mut cbor_mdoc, value: i64) -> *mut cbor_mnode;
    pub fn cbor_mdoc_negative(doc: *mut cbor_mdoc, n: u64) -> *mut cbor_mnode;
    pub fn cbor_mdoc_bignum(
        doc: *mut cbor_mdoc,
        magnitude: *const u8,
        size: usize,
        negative: c_int,
    ) -> *mut cbor_mnode;
    pub fn cbor_mdoc_float(
        doc: *mut cbor_mdoc,
        value: f64,
        width: cbor_fast_float_width,
    ) -> *mut cbor_mnode;
    pub fn cbor_mdoc_bool(doc: *mut cbor_mdoc, value: c_int) -> *mut cbor_mnode;
    pub fn cbor_mdoc_null(doc: *mut cbor_mdoc) -> *mut cbor_mnode;
    pub fn cbor_mdoc_undefined(doc: *mut cbor_mdoc) -> *mut cbor_mnode;
    pub fn cbor_mdoc_simple(doc: *mut cbor_mdoc, value: u8) -> *mut cbor_mnode;
    pub fn cbor_mdoc_bytes(
        doc: *mut cbor_mdoc,
        data: *const c_void,
        size: usize,
    ) -> *mut cbor_mnode;
    pub fn cbor_mdoc_text(doc: *mut cbor_mdoc, data: *const c_char, size: usize)
    -> *mut cbor_mnode;
    pub fn cbor_mdoc_array(doc: *mut cbor_mdoc) -> *mut cbor_mnode;
    pub fn cbor_mdoc_map(doc: *mut cbor_mdoc) -> *mut cbor_mnode;
    pub fn cbor_mdoc_tag(
        doc: *mut cbor_mdoc,
        tag: u64,
        content: *mut cbor_mnode,
    ) -> *mut cbor_mnode;

    pub fn cbor_mnode_append(array: *mut cbor_mnode, item: *mut cbor_mnode) -> cbor_fast_status;
    pub fn cbor_mnode_array_set(
        array: *mut cbor_mnode,
        index: usize,
        item: *mut cbor_mnode,
    ) -> cbor_fast_status;
    pub fn cbor_mnode_map_put(
        map: *mut cbor_mnode,
        key: *mut cbor_mnode,
        value: *mut cbor_mnode,
    ) -> cbor_fast_status;
    pub fn cbor_mnode_map_set(
        map: *mut cbor_mnode,
        key: *const c_char,
        key_size: usize,
        value: *mut cbor_mnode,
    ) -> cbor_fast_status;
    pub fn cbor_mnode_set_indefinite(node: *mut cbor_mnode, indefinite: c_int) -> cbor_fast_status;

    pub fn cbor_mnode_type(node: *const cbor_mnode) -> cbor_fast_type;
    pub fn cbor_mnode_get_uint64(node: *const cbor_mnode, out: *mut u64) -> cbor_fast_status;
    pub fn cbor_mnode_get_int64(node: *const cbor_mnode, out: *mut i64) -> cbor_fast_status;
    pub fn cbor_mnode_get_double(node: *const cbor_mnode, out: *mut f64) -> cbor_fast_status;
    pub fn cbor_mnode_get_bool(node: *const cbor_mnode, out: *mut c_int) -> cbor_fast_status;
    pub fn cbor_mnode_get_bytes(
        node: *const cbor_mnode,
        data: *mut *const u8,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_mnode_get_text(
        node: *const cbor_mnode,
        data: *mut *const c_char,
        size: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_mnode_get_tag(node: *const cbor_mnode, out: *mut u64) -> cbor_fast_status;
    pub fn cbor_mnode_tag_content(node: *const cbor_mnode) -> *mut cbor_mnode;
    pub fn cbor_mnode_size(node: *const cbor_mnode) -> usize;
    pub fn cbor_mnode_array_get(node: *const cbor_mnode, index: usize) -> *mut cbor_mnode;
    pub fn cbor_mnode_map_key(node: *const cbor_mnode, index: usize) -> *mut cbor_mnode;
    pub fn cbor_mnode_map_value(node: *const cbor_mnode, index: usize) -> *mut cbor_mnode;
    pub fn cbor_mnode_map_find(
        node: *const cbor_mnode,
        key: *const c_char,
        key_size: usize,
    ) -> *mut cbor_mnode;
    pub fn cbor_mdoc_encode(doc: *const cbor_mdoc, writer: *mut cbor_writer) -> cbor_fast_status;

    // ---- sequences ----
    pub fn cbor_seq_new(
        data: *const c_void,
        size: usize,
        options: *const cbor_fast_decode_options,
        out: *mut *mut cbor_seq,
    ) -> cbor_fast_status;
    pub fn cbor_seq_free(seq: *mut cbor_seq);
    pub fn cbor_seq_next(
        seq: *mut cbor_seq,
        flags: u32,
        offset: *mut usize,
        length: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_seq_next_doc(
        seq: *mut cbor_seq,
        flags: u32,
        out: *mut *mut cbor_doc,
    ) -> cbor_fast_status;
    pub fn cbor_seq_error(seq: *const cbor_seq, error: *mut cbor_fast_error) -> cbor_fast_status;

    // ---- streams (since 0.5; the handle's other functions are not declared here yet) ----
    pub fn cbor_stream_set(
        stream: *mut cbor_stream,
        option: cbor_fast_option,
        value: u64,
    ) -> cbor_fast_status;
    pub fn cbor_stream_configure(
        stream: *mut cbor_stream,
        flags: u32,
        options: *const cbor_fast_decode_options,
    ) -> cbor_fast_status;

    // bulk number arrays and RFC 8746 typed arrays (since 0.4)
    pub fn cbor_reader_read_uint64_array(
        reader: *mut cbor_reader,
        out: *mut u64,
        capacity: usize,
        count: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_reader_read_int64_array(
        reader: *mut cbor_reader,
        out: *mut i64,
        capacity: usize,
        count: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_reader_read_double_array(
        reader: *mut cbor_reader,
        out: *mut f64,
        capacity: usize,
        count: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_node_read_uint64_array(
        node: *const cbor_node,
        out: *mut u64,
        capacity: usize,
        count: *mut usize,
        error: *mut cbor_fast_error,
    ) -> cbor_fast_status;
    pub fn cbor_node_read_int64_array(
        node: *const cbor_node,
        out: *mut i64,
        capacity: usize,
        count: *mut usize,
        error: *mut cbor_fast_error,
    ) -> cbor_fast_status;
    pub fn cbor_node_read_double_array(
        node: *const cbor_node,
        out: *mut f64,
        capacity: usize,
        count: *mut usize,
        error: *mut cbor_fast_error,
    ) -> cbor_fast_status;
    pub fn cbor_reader_read_typed_array(
        reader: *mut cbor_reader,
        out: *mut cbor_fast_typed_array,
    ) -> cbor_fast_status;
    pub fn cbor_node_read_typed_array(
        node: *const cbor_node,
        out: *mut cbor_fast_typed_array,
    ) -> cbor_fast_status;
    pub fn cbor_typed_array_copy_uint64(
        array: *const cbor_fast_typed_array,
        out: *mut u64,
        capacity: usize,
        bad_index: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_typed_array_copy_int64(
        array: *const cbor_fast_typed_array,
        out: *mut i64,
        capacity: usize,
        bad_index: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_typed_array_copy_double(
        array: *const cbor_fast_typed_array,
        out: *mut f64,
        capacity: usize,
        bad_index: *mut usize,
    ) -> cbor_fast_status;
    pub fn cbor_writer_write_typed_array(
        writer: *mut cbor_writer,
        element: u32,
        little_endian: c_int,
        data: *const c_void,
        count: usize,
    ) -> cbor_fast_status;
    pub fn cbor_host_is_little_endian() -> c_int;
}

#[cfg(test)]
mod layout {
    //! The struct layouts the header implies on LP64 targets (x86-64, AArch64).
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn error_layout() {
        assert_eq!(offset_of!(cbor_fast_error, struct_size), 0);
        assert_eq!(offset_of!(cbor_fast_error, code), 4);
        assert_eq!(offset_of!(cbor_fast_error, offset), 8);
        assert_eq!(offset_of!(cbor_fast_error, item_offset), 16);
        assert_eq!(offset_of!(cbor_fast_error, depth), 24);
        assert_eq!(offset_of!(cbor_fast_error, message), 32);
        assert_eq!(size_of::<cbor_fast_error>(), 40);
        assert_eq!(align_of::<cbor_fast_error>(), 8);
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn item_layout() {
        assert_eq!(offset_of!(cbor_fast_item, struct_size), 0);
        assert_eq!(offset_of!(cbor_fast_item, type_), 4);
        assert_eq!(offset_of!(cbor_fast_item, flags), 8);
        assert_eq!(offset_of!(cbor_fast_item, depth), 12);
        assert_eq!(offset_of!(cbor_fast_item, offset), 16);
        assert_eq!(offset_of!(cbor_fast_item, head_size), 24);
        assert_eq!(offset_of!(cbor_fast_item, float_width), 28);
        assert_eq!(offset_of!(cbor_fast_item, value), 32);
        assert_eq!(offset_of!(cbor_fast_item, float_value), 40);
        assert_eq!(offset_of!(cbor_fast_item, data), 48);
        assert_eq!(offset_of!(cbor_fast_item, size), 56);
        assert_eq!(size_of::<cbor_fast_item>(), 64);
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn options_and_allocator_layout() {
        assert_eq!(offset_of!(cbor_fast_decode_options, max_depth), 4);
        assert_eq!(offset_of!(cbor_fast_decode_options, alloc), 8);
        assert_eq!(offset_of!(cbor_fast_decode_options, max_string_length), 16);
        assert_eq!(offset_of!(cbor_fast_decode_options, max_container_items), 24);
        assert_eq!(offset_of!(cbor_fast_decode_options, max_items), 32);
        assert_eq!(offset_of!(cbor_fast_decode_options, max_memory), 40);
        assert_eq!(size_of::<cbor_fast_decode_options>(), 48);
        assert_eq!(offset_of!(cbor_fast_allocator, realloc), 8);
        assert_eq!(offset_of!(cbor_fast_allocator, free), 16);
        assert_eq!(offset_of!(cbor_fast_allocator, context), 24);
        assert_eq!(size_of::<cbor_fast_allocator>(), 32);
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn typed_array_layout() {
        assert_eq!(offset_of!(cbor_fast_typed_array, element), 4);
        assert_eq!(offset_of!(cbor_fast_typed_array, tag), 8);
        assert_eq!(offset_of!(cbor_fast_typed_array, element_size), 16);
        assert_eq!(offset_of!(cbor_fast_typed_array, little_endian), 20);
        assert_eq!(offset_of!(cbor_fast_typed_array, data), 24);
        assert_eq!(offset_of!(cbor_fast_typed_array, count), 32);
        assert_eq!(offset_of!(cbor_fast_typed_array, offset), 40);
        assert_eq!(offset_of!(cbor_fast_typed_array, data_offset), 48);
        assert_eq!(size_of::<cbor_fast_typed_array>(), 56);
    }

    #[test]
    fn status_blocks_agree_with_the_library() {
        // The library's own classification of the constants declared here.
        unsafe {
            assert_eq!(cbor_status_is_error(CBOR_FAST_OK), 0);
            assert_eq!(cbor_status_is_error(CBOR_FAST_END), 0);
            for code in [CBOR_FAST_ERR_TRUNCATED, CBOR_FAST_ERR_MAP_MISSING_VALUE] {
                assert_eq!(cbor_status_is_malformed(code), 1);
            }
            assert_eq!(cbor_status_is_malformed(CBOR_FAST_ERR_INVALID_UTF8), 0);
            let name = std::ffi::CStr::from_ptr(cbor_status_name(CBOR_FAST_ERR_TRUNCATED));
            assert_eq!(name.to_str().unwrap(), "truncated");
        }
    }
}
