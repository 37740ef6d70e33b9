/*
 * libcbor_fast: the C API (C99, also valid C++).
 *
 * CBOR (RFC 8949) and CBOR sequences (RFC 8742): a zero-copy pull reader, a
 * push writer with preferred serialization, immutable documents decoded from a
 * buffer, mutable documents built in code, and sequence iteration.
 *
 * Conventions, true for every function below unless its comment says more:
 *  - Fallible calls return cbor_fast_status: CBOR_FAST_OK (0) on success.
 *    CBOR_FAST_END (1) means "nothing more" and is not an error; nor is
 *    CBOR_FAST_NEED_MORE (2): streaming input ends inside an item (feed more).
 *  - A NULL handle or a NULL required pointer gives CBOR_FAST_ERR_INVALID_ARGUMENT
 *    (never a crash). Every *_free function accepts NULL and does nothing.
 *  - Handles are opaque, created and freed by the library. One handle may not be
 *    used from two threads at once; distinct handles are independent. An
 *    immutable document (cbor_doc) may be read from many threads at once.
 *  - Borrowed input: a reader, a sequence and (by default) a document keep
 *    pointers into the caller's input buffer. That buffer must stay alive and
 *    unchanged until the handle is freed; every string view obtained from the
 *    handle points into it.
 *  - No C++ exception crosses this boundary: failures inside the library map to
 *    CBOR_FAST_ERR_OUT_OF_MEMORY or CBOR_FAST_ERR_INTERNAL.
 *  - Structs passed by pointer start with `uint32_t struct_size`. Set it to
 *    sizeof the struct (the *_INIT macros do); 0 means the layout of version 0.1.
 *    New fields are only ever appended, so old callers keep working. Since 0.4
 *    every entry point checks struct_size before it reads or writes anything
 *    else: a size below the struct's oldest layout, one that ends inside a
 *    field, or one above sizeof + 64 bytes gives CBOR_FAST_ERR_INVALID_ARGUMENT
 *    (input structs from a newer, longer header are accepted only when every
 *    byte past the fields this version knows is 0).
 *  - Allocator hooks: a non-NULL cbor_fast_allocator with a NULL malloc,
 *    realloc or free gives CBOR_FAST_ERR_INVALID_ARGUMENT (since 0.4).
 *  - Every symbol here is available since 0.1 unless marked otherwise.
 *
 * Names: functions are cbor_<object>_<verb> for the objects reader, writer,
 * doc, node, mdoc, mnode and seq, plus cbor_decode/cbor_encode; types are
 * cbor_fast_* and macros/enumerators CBOR_FAST_*. None of them is used by
 * libcbor or TinyCBOR, so this header and theirs can be included together.
 */
#ifndef CBOR_FAST_H
#define CBOR_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "cbor_fast_export.h"
#include "cbor_fast_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================== */
/* Status codes                                                               */
/* ========================================================================== */

/**
 * Result of every fallible call. Values never change; new codes are added in
 * their block. Blocks: 1-99 usage, 100-199 not well-formed (RFC 8949
 * Appendix F), 200-299 invalid or refused by a strict check, 300-399 limits and
 * memory.
 */
/* clang-format off */
typedef enum cbor_fast_status {
  CBOR_FAST_OK = 0,
  /** End of input at the top level / end of a sequence. Not an error. */
  CBOR_FAST_END = 1,
  /** Streaming input ends inside an item: feed more and call again (see
   *  CBOR_FAST_OPT_STREAMING). Not an error, not sticky; since 0.5. */
  CBOR_FAST_NEED_MORE = 2,

  /* usage (1-99) */
  CBOR_FAST_ERR_INVALID_ARGUMENT = 10,  /**< NULL handle/pointer, bad option or value */
  CBOR_FAST_ERR_INVALID_STATE = 11,     /**< call does not fit the handle's state */
  CBOR_FAST_ERR_BUFFER_TOO_SMALL = 12,  /**< caller buffer full; size tells bytes needed */
  CBOR_FAST_ERR_WRITER_UNCLOSED = 13,   /**< finish with a container or tag open */
  CBOR_FAST_ERR_WRITER_COUNT = 14,      /**< more/fewer items than a definite head said */
  CBOR_FAST_ERR_WRITER_NO_CONTAINER = 15, /**< end with no open container */
  CBOR_FAST_ERR_WRITER_BAD_CHUNK = 16,  /**< chunk of the wrong type in an indefinite string */
  CBOR_FAST_ERR_WRITER_ODD_MAP = 17,    /**< map ended after a key without value */
  CBOR_FAST_ERR_SINK_FAILED = 18,       /**< the sink callback returned non-zero */
  CBOR_FAST_ERR_TYPE_MISMATCH = 19,     /**< node getter on a node of another type */
  CBOR_FAST_ERR_OUT_OF_RANGE = 20,      /**< value does not fit the out type / bad index */
  CBOR_FAST_ERR_SOURCE_FAILED = 21,     /**< a stream's read callback failed; since 0.5 */

  /* not well-formed (100-199) */
  CBOR_FAST_ERR_TRUNCATED = 100,        /**< input ends inside a head, string or container */
  CBOR_FAST_ERR_RESERVED_AI = 101,      /**< additional information 28, 29 or 30 */
  CBOR_FAST_ERR_INDEFINITE_NOT_ALLOWED = 102, /**< ai 31 on major type 0, 1 or 6 */
  CBOR_FAST_ERR_BAD_SIMPLE = 103,       /**< two-byte simple value below 32 */
  CBOR_FAST_ERR_CHUNK_TYPE = 104,       /**< indefinite string chunk of another type */
  CBOR_FAST_ERR_NESTED_CHUNK = 105,     /**< indefinite chunk inside an indefinite string */
  CBOR_FAST_ERR_UNEXPECTED_BREAK = 106, /**< break outside an indefinite container */
  CBOR_FAST_ERR_MAP_MISSING_VALUE = 107, /**< break where a map value is due */

  /* invalid / strict (200-299) */
  CBOR_FAST_ERR_INVALID_UTF8 = 200,     /**< text string not valid UTF-8 (strict) */
  CBOR_FAST_ERR_TRAILING_BYTES = 201,   /**< bytes after the item (CBOR_FAST_DECODE_EXACT) */
  CBOR_FAST_ERR_NOT_PREFERRED = 202,    /**< head or float longer than needed (deterministic); since 0.2 */
  CBOR_FAST_ERR_INDEFINITE_LENGTH = 203, /**< indefinite-length item (deterministic); since 0.2 */
  CBOR_FAST_ERR_UNSORTED_KEYS = 204,    /**< map keys out of bytewise order (deterministic); since 0.2 */
  CBOR_FAST_ERR_DUPLICATE_KEY = 205,    /**< map key equal to an earlier one; since 0.2 */
  CBOR_FAST_ERR_SYNTAX_ERROR = 220,           /**< JSON or diagnostic-notation text input breaks its grammar; since 0.4 */

  /* limits and memory (300-399) */
  CBOR_FAST_ERR_DEPTH = 300,            /**< nesting deeper than max_depth */
  CBOR_FAST_ERR_OUT_OF_MEMORY = 301,    /**< an allocation failed */
  CBOR_FAST_ERR_TOO_MANY_ITEMS = 302,   /**< more items than max_items / a document can hold */
  CBOR_FAST_ERR_CONTAINER_TOO_LARGE = 303, /**< array or map with more entries than allowed */
  CBOR_FAST_ERR_STRING_TOO_LONG = 304,  /**< string, chunk or joined string over the limit */
  CBOR_FAST_ERR_MEMORY_BUDGET = 305,    /**< decoding would hold more than max_memory bytes; since 0.2 */
  CBOR_FAST_ERR_INTERNAL = 399          /**< a library bug; please report it */
} cbor_fast_status;
/* clang-format on */

/** Static English description of a status ("unexpected end of input"); never NULL. */
CBOR_FAST_API const char* cbor_status_string(cbor_fast_status status);
/** Static name of a status ("truncated"); never NULL ("unknown" for unknown codes). */
CBOR_FAST_API const char* cbor_status_name(cbor_fast_status status);
/** 1 for every failure (every code outside 0-9: CBOR_FAST_OK, CBOR_FAST_END,
 *  CBOR_FAST_NEED_MORE and codes 3-9 are not failures), else 0. */
CBOR_FAST_API int cbor_status_is_error(cbor_fast_status status);
/** 1 for the not-well-formed block (100-199), else 0. */
CBOR_FAST_API int cbor_status_is_malformed(cbor_fast_status status);

/**
 * Where and why an operation failed. Optional out-parameter: pass NULL if you
 * only need the returned status. Initialise with CBOR_FAST_ERROR_INIT (or {0}).
 */
typedef struct cbor_fast_error {
  uint32_t struct_size;  /**< sizeof(cbor_fast_error), or 0 */
  cbor_fast_status code; /**< same as the returned status */
  size_t offset;         /**< byte offset in the input where the problem was found */
  size_t item_offset;    /**< offset of the top-level item that contains it */
  uint32_t depth;        /**< nesting depth at that point */
  const char* message;   /**< static text, never freed; never NULL after a call */
} cbor_fast_error;
#define CBOR_FAST_ERROR_INIT \
  { sizeof(cbor_fast_error), CBOR_FAST_OK, 0, 0, 0, NULL }

/* ========================================================================== */
/* Version                                                                    */
/* ========================================================================== */

/** Runtime version as major * 10000 + minor * 100 + patch (CBOR_FAST_VERSION at build time). */
CBOR_FAST_API uint32_t cbor_fast_version(void);
/** Runtime version string, "major.minor.patch"; static. */
CBOR_FAST_API const char* cbor_fast_version_string(void);

/* ========================================================================== */
/* Memory                                                                     */
/* ========================================================================== */

/**
 * Allocation hooks. Passed at creation (NULL means malloc/realloc/free); the
 * handle copies the three hooks and `context`, so the struct itself may go
 * away after the call (what `context` points to must outlive the handle).
 * All three hooks must be non-NULL (else CBOR_FAST_ERR_INVALID_ARGUMENT).
 * Each hook gets `context`; sizes are passed back to realloc and free. A
 * hook returns NULL on failure, which the library reports as
 * CBOR_FAST_ERR_OUT_OF_MEMORY with nothing leaked. Layout frozen.
 */
typedef struct cbor_fast_allocator {
  void* (*malloc)(void* context, size_t size);
  void* (*realloc)(void* context, void* ptr, size_t old_size, size_t new_size);
  void (*free)(void* context, void* ptr, size_t size);
  void* context;
} cbor_fast_allocator;

/* ========================================================================== */
/* Items (what the reader yields)                                             */
/* ========================================================================== */

/** Kind of an item or document node. */
/* clang-format off */
typedef enum cbor_fast_type {
  CBOR_FAST_TYPE_NONE = 0,        /**< no item / NULL node */
  CBOR_FAST_TYPE_UINT = 1,        /**< major 0: value */
  CBOR_FAST_TYPE_NEGATIVE = 2,    /**< major 1: the integer is -1 - value (down to -2^64) */
  CBOR_FAST_TYPE_BYTES = 3,       /**< major 2 */
  CBOR_FAST_TYPE_TEXT = 4,        /**< major 3 */
  CBOR_FAST_TYPE_ARRAY = 5,       /**< major 4 */
  CBOR_FAST_TYPE_MAP = 6,         /**< major 5 */
  CBOR_FAST_TYPE_TAG = 7,         /**< major 6: value is the tag number, one item follows */
  CBOR_FAST_TYPE_SIMPLE = 8,      /**< simple value other than the four below */
  CBOR_FAST_TYPE_BOOL = 9,        /**< false (20) / true (21) */
  CBOR_FAST_TYPE_NULL = 10,       /**< simple 22 */
  CBOR_FAST_TYPE_UNDEFINED = 11,  /**< simple 23 */
  CBOR_FAST_TYPE_FLOAT = 12,      /**< half, single or double */
  CBOR_FAST_TYPE_END = 13         /**< reader only: end of an array, map or indefinite string */
} cbor_fast_type;
/* clang-format on */

/** Float width on the wire in bytes; SHORTEST lets the writer pick. */
/* clang-format off */
typedef enum cbor_fast_float_width {
  CBOR_FAST_FLOAT_SHORTEST = 0,
  CBOR_FAST_FLOAT_HALF = 2,
  CBOR_FAST_FLOAT_SINGLE = 4,
  CBOR_FAST_FLOAT_DOUBLE = 8
} cbor_fast_float_width;
/* clang-format on */

/** Indefinite-length string, array or map start; also set on the END item that closes one. */
#define CBOR_FAST_ITEM_INDEFINITE 1u
/** END item that consumed a break byte (always together with CBOR_FAST_ITEM_INDEFINITE). */
#define CBOR_FAST_ITEM_BREAK 2u

/**
 * One item from cbor_reader_next(). Plain data, filled by the library; views in
 * it point into the reader's input. Initialise with CBOR_FAST_ITEM_INIT.
 */
typedef struct cbor_fast_item {
  uint32_t struct_size; /**< sizeof(cbor_fast_item), or 0 */
  cbor_fast_type type;
  uint32_t flags;       /**< CBOR_FAST_ITEM_* bits */
  uint32_t depth;       /**< enclosing containers and tags; top level is 0 */
  size_t offset;        /**< byte offset of the item's head */
  uint32_t head_size;   /**< bytes of the head: 1, 2, 3, 5 or 9 (0 for a definite END) */
  uint32_t float_width; /**< FLOAT: 2, 4 or 8 */
  /** UINT: value. NEGATIVE: n, the integer being -1 - n. BYTES/TEXT (definite):
   *  length. ARRAY: item count. MAP: pair count (both 0 if indefinite). TAG:
   *  tag number. SIMPLE/BOOL/NULL/UNDEFINED: simple value. FLOAT: raw wire bits. */
  uint64_t value;
  double float_value;  /**< FLOAT: the value widened to double */
  const uint8_t* data; /**< BYTES/TEXT (definite): content, a view into the input */
  size_t size;         /**< BYTES/TEXT (definite): content length */
} cbor_fast_item;
#define CBOR_FAST_ITEM_INIT \
  { sizeof(cbor_fast_item), CBOR_FAST_TYPE_NONE, 0, 0, 0, 0, 0, 0, 0.0, NULL, 0 }

/* ========================================================================== */
/* Reader: pull items from a borrowed buffer                                   */
/* ========================================================================== */

/** Opaque pull reader over a borrowed buffer. */
typedef struct cbor_reader cbor_reader;

/**
 * Options for cbor_reader_set(). What 0 means, everywhere (the one rule): 0
 * in a limit selects that limit's default, whether it is a field of an
 * options struct (cbor_fast_decode_options, the bindings' option structs) or
 * a value passed to cbor_reader_set() or cbor_stream_set() (since 0.5; from
 * 0.1 to 0.4 a value passed here was literal, so CBOR_FAST_OPT_MAX_DEPTH 0
 * allowed scalars only and CBOR_FAST_OPT_MAX_ITEMS 0 no item at all: the
 * smallest limits now are 1). A reader's limits default to those of
 * documents: depth 512, CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS entries per
 * container and CBOR_FAST_DEFAULT_MAX_ITEMS items (since 0.5; before, no
 * limit), and the string length is unlimited; set a limit to its largest value (UINT64_MAX)
 * to lift it. A reader holds no memory per item, so it has no memory budget.
 */
/* clang-format off */
typedef enum cbor_fast_option {
  /** Maximum nesting depth, 1 .. UINT32_MAX (default, and 0: 512). 1 allows
   *  containers of scalars. No recursion at any depth. */
  CBOR_FAST_OPT_MAX_DEPTH = 1,
  /** 1: reject text strings that are not valid UTF-8 (default 0). */
  CBOR_FAST_OPT_VALIDATE_UTF8 = 2,
  /** Longest string, chunk or joined string in bytes (default, and 0: UINT64_MAX): more
   *  gives CBOR_FAST_ERR_STRING_TOO_LONG at the string's head. */
  CBOR_FAST_OPT_MAX_STRING_LENGTH = 3,
  /** Most entries in one array (items) or map (pairs) (default, and 0:
   *  CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS, 2^24, since 0.5; UINT64_MAX: no
   *  limit, but a map of 2^63 pairs or more, which no input holds, is
   *  CBOR_FAST_ERR_TRUNCATED, or CBOR_FAST_ERR_CONTAINER_TOO_LARGE when
   *  streaming): more gives CBOR_FAST_ERR_CONTAINER_TOO_LARGE at the
   *  offending head, checked before the bytes left. */
  CBOR_FAST_OPT_MAX_CONTAINER_ITEMS = 4,
  /** Most data items (heads) in one top-level item (default, and 0:
   *  CBOR_FAST_DEFAULT_MAX_ITEMS, 2^28, since 0.5; UINT64_MAX: no limit): the
   *  next head of that item gives CBOR_FAST_ERR_TOO_MANY_ITEMS at its offset.
   *  Counted per top-level item since 0.5, so a reader or stream over a long
   *  sequence never runs out between items (from 0.1 to 0.4 it counted every
   *  item since creation or reset, and had no default). */
  CBOR_FAST_OPT_MAX_ITEMS = 5,
  /** 1: reject a map key equal (by value: 1 and 0x1801, half and double of one
   *  value, definite and indefinite strings alike) to an earlier key of the same
   *  map: CBOR_FAST_ERR_DUPLICATE_KEY at the second key's offset, reported
   *  instead of that key when it is a single item, else when its value starts.
   *  Linear time: a hash table per open map with a per-process random seed;
   *  its memory comes from the reader's allocator (default 0). Since 0.2.
   *  Since 0.4 keys compare as in the data model (RFC 8949 5.6, 5.6.1): maps
   *  used as keys as unordered maps ({{1:2,3:4}:0, {3:4,1:2}:1} has a
   *  duplicate), arrays element by element, floats by numeric value (0.0 and
   *  -0.0 are one key) with every NaN one key whatever its sign and payload,
   *  and a bignum (tag 2/3) equal to the integer of the same value (3.4.3).
   *  With CBOR_FAST_OPT_DETERMINISTIC too, the order check stays bytewise and
   *  these equal-valued keys are still refused. */
  CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS = 6,
  /** 1: require RFC 8949 core deterministic encoding (section 4.2.1): shortest
   *  heads and floats (CBOR_FAST_ERR_NOT_PREFERRED), definite lengths
   *  (CBOR_FAST_ERR_INDEFINITE_LENGTH), map keys in strictly increasing
   *  bytewise order (CBOR_FAST_ERR_UNSORTED_KEYS, or CBOR_FAST_ERR_DUPLICATE_KEY
   *  for an equal key), each at the offending head or key (default 0). Since 0.2.
   *  Since 0.4 also bignums in preferred form (RFC 8949 3.4.3): a tag 2/3
   *  whose byte string has 8 bytes or fewer, or a leading zero byte, gives
   *  CBOR_FAST_ERR_NOT_PREFERRED at the tag. */
  CBOR_FAST_OPT_DETERMINISTIC = 7,
  /** 1: the input arrives in parts (default 0; since 0.5). Where the buffer
   *  ends inside an item, calls return CBOR_FAST_NEED_MORE (not an error, not
   *  sticky, nothing of the partial item consumed) and cbor_reader_needed()
   *  tells the fewest further bytes wanted; cbor_reader_feed() continues. At
   *  the end of the buffer at the top level the answer is NEED_MORE too.
   *  Set it to 0 when no more input comes: a partial item then gives
   *  CBOR_FAST_ERR_TRUNCATED, the top level CBOR_FAST_END. Definite array
   *  and map counts are not compared with the bytes at hand while streaming,
   *  so bound them with CBOR_FAST_OPT_MAX_CONTAINER_ITEMS before sizing memory
   *  by them. cbor_reader_skip() and cbor_reader_item_ready() wait for the
   *  whole item (what they scanned is not scanned again after a feed);
   *  cbor_reader_next(), _next_batch() and _skip_to_end() take items as they
   *  come; cbor_reader_join() keeps the chunks it has and goes on when called
   *  again with the same item. */
  CBOR_FAST_OPT_STREAMING = 8
} cbor_fast_option;
/* clang-format on */

/**
 * Creates a reader over data[0, size) (a CBOR sequence: zero or more items).
 * The buffer is borrowed: it must stay alive and unchanged until
 * cbor_reader_free(), and every view from the reader points into it.
 * @param data   input; may be NULL only when size is 0
 * @param alloc  allocation hooks for the nesting stack, or NULL for malloc
 * @param out    receives the handle (set to NULL on failure)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (out NULL, data NULL
 *         with size > 0, or an allocator with a NULL hook); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_new(const void* data, size_t size,
                                               const cbor_fast_allocator* alloc, cbor_reader** out);
/** Frees the reader (not the input). NULL is a no-op. */
CBOR_FAST_API void cbor_reader_free(cbor_reader* reader);
/**
 * Restarts the reader on new input, keeping its options and allocations.
 * Same buffer rules as cbor_reader_new(). Clears any error.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_reset(cbor_reader* reader, const void* data,
                                                 size_t size);
/**
 * Sets an option (cbor_fast_option). Best set before the first item.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT for a NULL reader, an
 *         unknown option, a value out of range, or a max depth below the
 *         current depth.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_set(cbor_reader* reader, cbor_fast_option option,
                                               uint64_t value);
/**
 * Reads the next item into *item (see cbor_fast_item). Arrays, maps and
 * indefinite strings are followed by their children (indefinite string chunks
 * are definite BYTES/TEXT items) and then an END item; a TAG is followed by its
 * one content item and has no END.
 * @return CBOR_FAST_OK; CBOR_FAST_END at the end of the input at top level;
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (NULL reader or item, or an
 *         item->struct_size no version has: not sticky, nothing consumed); or
 *         a not-well-formed, strict or limit error. Errors are sticky: every
 *         later call returns the same one.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_next(cbor_reader* reader, cbor_fast_item* item);
/**
 * Reads up to `capacity` items into items[0 .. *count), the way `capacity`
 * calls of cbor_reader_next() would, in one call: for bindings where each
 * call across the language boundary is expensive (Python ctypes, cgo); in C
 * the batch is also faster per item than single calls (BENCHMARKS.md). To
 * read every item from C, cbor_reader_visit() is faster than both.
 * items[0].struct_size (0: the 0.1 layout) gives the size of every element;
 * it must be 0 or from sizeof(cbor_fast_item) to sizeof + 64, a multiple of
 * the struct's alignment (since 0.4). The other elements' struct_size fields
 * are not read but set to it, so each element may be passed on alone (e.g. to
 * cbor_reader_join()).
 * Stops early at the end of the input or at an error: the items read before
 * it are delivered with CBOR_FAST_OK, and the next call returns the end or
 * the (sticky) error with *count 0. Since 0.2.
 * @param count  receives the number of items written (0 unless CBOR_FAST_OK)
 * @return CBOR_FAST_OK (*count >= 1); CBOR_FAST_END (*count 0);
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (NULL reader, items or count,
 *         capacity 0, or an items[0].struct_size outside the bounds above);
 *         or the reader's error, as cbor_reader_next().
 */
CBOR_FAST_API cbor_fast_status cbor_reader_next_batch(cbor_reader* reader, cbor_fast_item* items,
                                                      size_t capacity, size_t* count);
/**
 * Passes over the next complete item, whatever it contains.
 * @return CBOR_FAST_OK; CBOR_FAST_END (nothing left); CBOR_FAST_ERR_INVALID_STATE
 *         when the next thing is the END of the enclosing container (nothing is
 *         consumed); CBOR_FAST_ERR_INVALID_ARGUMENT; or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_skip(cbor_reader* reader);
/**
 * Passes over the rest of the innermost open container, tag or indefinite
 * string, including its END.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_STATE at the top level;
 *         CBOR_FAST_ERR_INVALID_ARGUMENT; or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_skip_to_end(cbor_reader* reader);
/**
 * The whole content of a string item. For a definite string this is its view
 * into the input (item->data and item->size as given: any definite string
 * item, e.g. from a batch). For an indefinite string (call right after its
 * start item) the chunks and the break are consumed and joined into a buffer
 * owned by the reader, valid until the next cbor_reader_join/reset/free.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_STATE if *item is not a string
 *         item, or is an indefinite string start that is not the open one or
 *         one of whose chunks another call took (cbor_reader_next(), _skip();
 *         since 0.5: the join went on without them); CBOR_FAST_ERR_INVALID_ARGUMENT;
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_join(cbor_reader* reader, const cbor_fast_item* item,
                                                const uint8_t** data, size_t* size);
/**
 * Final check: all input consumed at the top level.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_TRAILING_BYTES (items left unread);
 *         CBOR_FAST_ERR_INVALID_STATE (a container still open: input left,
 *         or none but the END items of definite arrays and maps whose items
 *         are all read; not sticky; since 0.5 the latter was a sticky
 *         CBOR_FAST_ERR_TRUNCATED before);
 *         CBOR_FAST_ERR_TRUNCATED (a container open at end of input that
 *         wants more bytes; sticky); CBOR_FAST_NEED_MORE instead while
 *         streaming (CBOR_FAST_OPT_STREAMING set, not yet set back to 0:
 *         the rest may still come; not sticky, since 0.5);
 *         CBOR_FAST_ERR_INVALID_ARGUMENT; or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_finish(cbor_reader* reader);
/**
 * Hands the reader a new buffer holding the stream's bytes from offset
 * first_offset on, data[0, size) (CBOR_FAST_OPT_STREAMING; since 0.5): the
 * same buffer grown (first_offset 0) or a window that starts at or before
 * cbor_reader_keep_from(). The buffer is borrowed as in cbor_reader_new(),
 * from now on; views from earlier buffers stay valid as long as those bytes
 * do. Offsets (items, errors, cbor_reader_offset) stay those of the stream.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL reader, data NULL
 *         with size > 0, first_offset past cbor_reader_keep_from(), or a buffer
 *         ending before cbor_reader_offset(); nothing changes, not sticky).
 */
CBOR_FAST_API cbor_fast_status cbor_reader_feed(cbor_reader* reader, const void* data, size_t size,
                                                size_t first_offset);
/**
 * Whether the next complete item (what cbor_reader_skip() passes over) is in
 * the buffer, consuming nothing (since 0.5). Without streaming: the sticky
 * status (CBOR_FAST_OK when none).
 * @return CBOR_FAST_OK; CBOR_FAST_NEED_MORE (see cbor_reader_needed());
 *         CBOR_FAST_ERR_INVALID_STATE at the END of the enclosing container;
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (NULL); CBOR_FAST_ERR_OUT_OF_MEMORY;
 *         or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_item_ready(cbor_reader* reader);
/** After CBOR_FAST_NEED_MORE: the fewest bytes past the buffer's end the call
 *  needs (it may want more once they are there); else 0, and 0 for NULL. Since 0.5. */
CBOR_FAST_API size_t cbor_reader_needed(const cbor_reader* reader);
/** The first stream offset the next cbor_reader_feed() buffer must hold: the
 *  offset of the next byte, or earlier while a map key is being read with
 *  duplicate-key or deterministic checks on. 0 for NULL. Since 0.5. */
CBOR_FAST_API size_t cbor_reader_keep_from(const cbor_reader* reader);
/** Offset of the next byte to read; 0 for NULL. */
CBOR_FAST_API size_t cbor_reader_offset(const cbor_reader* reader);
/** Current nesting depth; 0 for NULL. */
CBOR_FAST_API uint32_t cbor_reader_depth(const cbor_reader* reader);
/**
 * The sticky error: fills *error (may be NULL) and returns its code
 * (CBOR_FAST_OK when none; CBOR_FAST_ERR_INVALID_ARGUMENT for a NULL reader,
 * or an error->struct_size no version has, which leaves *error unwritten).
 */
CBOR_FAST_API cbor_fast_status cbor_reader_error(const cbor_reader* reader, cbor_fast_error* error);

/**
 * Callbacks for cbor_reader_visit() (since 0.5): one per item kind, each
 * taking the values that kind has as arguments (in registers: no item struct
 * is filled), and a fallback for every kind whose callback is NULL.
 *
 * Each callback gets the `context` passed to cbor_reader_visit() and returns
 * 0 to go on or any other value to stop after this item. The items, their
 * order and their values are exactly those of cbor_reader_next() calls on
 * the same reader (END items included), split by kind:
 *  - on_uint: UINT, its value. on_negative: NEGATIVE, n with the integer
 *    being -1 - n (so down to -2^64, as cbor_fast_item::value).
 *  - on_bytes / on_text: a definite string or one chunk of an indefinite one
 *    (data is a view into the input, as cbor_fast_item::data; flags 0), or the
 *    start of an indefinite string (data NULL, size 0, flags
 *    CBOR_FAST_ITEM_INDEFINITE); its chunks follow, then an END.
 *  - on_array / on_map: the item count / pair count, flags 0; or 0 with
 *    CBOR_FAST_ITEM_INDEFINITE. Their children follow, then an END.
 *  - on_end: the END of an array, map or indefinite string, with its flags
 *    (CBOR_FAST_ITEM_INDEFINITE | CBOR_FAST_ITEM_BREAK after a break).
 *  - on_tag: the tag number; its one content item follows (no END).
 *  - on_simple: a simple value other than false, true, null and undefined.
 *    on_bool: 0 or 1. on_null, on_undefined: no value.
 *  - on_float: the value widened to double, the raw wire bits (as
 *    cbor_fast_item::value) and the width in bytes (2, 4 or 8).
 *  - on_item: every item whose own callback is NULL (or lies past
 *    struct_size), as cbor_reader_next() fills it (struct_size
 *    sizeof(cbor_fast_item)); the struct is the library's, valid during the
 *    call only. When on_item is NULL too, such items pass unseen.
 * A callback must not call cbor_reader_* on the reader being visited (other
 * handles are fine), and must return normally (no longjmp out of it).
 *
 * struct_size: sizeof(cbor_fast_visit_callbacks), or 0 for the same (this
 * struct's first layout). A caller built with an older, shorter layout gives
 * its size, and every callback past it counts as NULL. Accepted: 0, a size
 * that ends right after a member, from offsetof(on_item) (no callback at
 * all) to sizeof, or a newer header's longer struct up to sizeof + 64 whose
 * callbacks past this version's are all NULL (a non-NULL one would be a kind
 * of callback this library cannot honour, so it is refused).
 */
typedef struct cbor_fast_visit_callbacks {
  uint32_t struct_size; /**< sizeof(cbor_fast_visit_callbacks), or 0 */
  int (*on_item)(void* context, const cbor_fast_item* item);
  int (*on_uint)(void* context, uint64_t value);
  int (*on_negative)(void* context, uint64_t n);
  int (*on_bytes)(void* context, const uint8_t* data, size_t size, uint32_t flags);
  int (*on_text)(void* context, const uint8_t* data, size_t size, uint32_t flags);
  int (*on_array)(void* context, uint64_t count, uint32_t flags);
  int (*on_map)(void* context, uint64_t pairs, uint32_t flags);
  int (*on_end)(void* context, uint32_t flags);
  int (*on_tag)(void* context, uint64_t tag);
  int (*on_simple)(void* context, uint32_t value);
  int (*on_bool)(void* context, int value);
  int (*on_null)(void* context);
  int (*on_undefined)(void* context);
  int (*on_float)(void* context, double value, uint64_t bits, uint32_t width);
} cbor_fast_visit_callbacks;
/** Every callback NULL (set the ones wanted). */
#define CBOR_FAST_VISIT_CALLBACKS_INIT                                                             \
  {                                                                                                \
    sizeof(cbor_fast_visit_callbacks), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
        NULL, NULL, NULL, NULL                                                                     \
  }

/**
 * Delivers the reader's items to callbacks, one call per item, until the end
 * of the input, an error, or a callback returning nonzero (since 0.5). The
 * items are those cbor_reader_next() would return from the same point, in
 * the same order, so this call and cbor_reader_next(), _next_batch(), _skip()
 * etc. may be mixed freely on one reader. The fastest way to read every item
 * from C: the reader's loop runs inside the library with the item's kind a
 * constant at each call, so nothing is stored per item and the caller needs
 * no switch (see cbor_fast_visit_callbacks).
 * @param reader     the reader (any mode, any position)
 * @param callbacks  the callbacks; read once at the start (the struct may
 *                   change or go away after the call)
 * @param context    passed to every callback as is; may be NULL
 * @return CBOR_FAST_OK: a callback returned nonzero; the reader stands right
 *         after that item (call again, or cbor_reader_next(), to go on).
 *         CBOR_FAST_END: every item up to the end of the input at the top
 *         level was delivered. CBOR_FAST_NEED_MORE (CBOR_FAST_OPT_STREAMING):
 *         the items that had arrived were delivered, the next one is partial;
 *         feed and call again. CBOR_FAST_ERR_INVALID_ARGUMENT (NULL reader or
 *         callbacks, or a callbacks->struct_size outside the bounds above:
 *         not sticky, nothing consumed, no callback called). Or the reader's
 *         not-well-formed, strict or limit error (sticky, as for
 *         cbor_reader_next(); the items before it were delivered, and
 *         cbor_reader_error() gives its offset). No recursion: any depth
 *         up to CBOR_FAST_OPT_MAX_DEPTH.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_visit(cbor_reader* reader,
                                                 const cbor_fast_visit_callbacks* callbacks,
                                                 void* context);

/* ========================================================================== */
/* Writer: push items, preferred serialization                                */
/* ========================================================================== */

/** Opaque push writer. */
typedef struct cbor_writer cbor_writer;

/** Receives output in chunks; returns 0 on success, non-zero to stop the writer. */
typedef int (*cbor_fast_sink_fn)(void* context, const uint8_t* data, size_t size);

/**
 * Writer into a growable buffer owned by the writer (see cbor_writer_finish).
 * @param alloc  hooks for the buffer and the container stack, or NULL
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (out NULL, or an allocator
 *         with a NULL hook); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_new(const cbor_fast_allocator* alloc, cbor_writer** out);
/**
 * Writer into the caller's buffer[0, capacity). It never writes past capacity;
 * after an overflow it keeps counting so cbor_writer_size() reports the bytes
 * needed (a count that would pass SIZE_MAX, from lengths no memory holds, is
 * CBOR_FAST_ERR_OUT_OF_MEMORY, sticky; since 0.5). The buffer must outlive
 * the writer's use of it.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (out NULL, or buffer
 *         NULL with capacity > 0); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_new_buffer(void* buffer, size_t capacity,
                                                      const cbor_fast_allocator* alloc,
                                                      cbor_writer** out);
/**
 * Writer that hands output to sink(context, data, size) in chunks of about
 * chunk_size bytes (0: 4096), and the rest at cbor_writer_finish().
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (sink or out NULL);
 *         CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_new_sink(cbor_fast_sink_fn sink, void* context,
                                                    size_t chunk_size,
                                                    const cbor_fast_allocator* alloc,
                                                    cbor_writer** out);
/** Frees the writer and the buffer it owns. NULL is a no-op. */
CBOR_FAST_API void cbor_writer_free(cbor_writer* writer);
/** Empties the writer for new output (same destination), clearing errors. */
CBOR_FAST_API cbor_fast_status cbor_writer_reset(cbor_writer* writer);

/*
 * Item calls. Each returns CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL
 * writer, or a NULL data pointer with a non-zero size); CBOR_FAST_ERR_BUFFER_TOO_SMALL
 * (caller buffer full: counting goes on); CBOR_FAST_ERR_WRITER_COUNT (item past a
 * definite count); CBOR_FAST_ERR_WRITER_BAD_CHUNK (not a chunk of the open
 * indefinite string's type); CBOR_FAST_ERR_OUT_OF_MEMORY; CBOR_FAST_ERR_SINK_FAILED;
 * or the writer's earlier sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_uint(cbor_writer* writer, uint64_t value);
CBOR_FAST_API cbor_fast_status cbor_writer_int(cbor_writer* writer, int64_t value);
/** Writes the integer -1 - n (n = UINT64_MAX gives -2^64). */
CBOR_FAST_API cbor_fast_status cbor_writer_negative(cbor_writer* writer, uint64_t n);
/**
 * Integer of any size from its big-endian magnitude: the value is the magnitude
 * (negative = 0) or -1 - magnitude (negative != 0). Leading zeros are ignored;
 * values that fit 64 bits are written as plain integers, others as tag 2/3.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_bignum(cbor_writer* writer, const uint8_t* magnitude,
                                                  size_t size, int negative);
/** Byte string (or a chunk inside an indefinite byte string); data copied out. */
CBOR_FAST_API cbor_fast_status cbor_writer_bytes(cbor_writer* writer, const void* data,
                                                 size_t size);
/** Text string (or chunk); the bytes are written as given (not validated). */
CBOR_FAST_API cbor_fast_status cbor_writer_text(cbor_writer* writer, const char* data, size_t size);
/** Tag number; the next item (scalar or whole container) is its content. */
CBOR_FAST_API cbor_fast_status cbor_writer_tag(cbor_writer* writer, uint64_t tag);
CBOR_FAST_API cbor_fast_status cbor_writer_bool(cbor_writer* writer, int value);
CBOR_FAST_API cbor_fast_status cbor_writer_null(cbor_writer* writer);
CBOR_FAST_API cbor_fast_status cbor_writer_undefined(cbor_writer* writer);
/** Simple value; 24..31 give CBOR_FAST_ERR_INVALID_ARGUMENT (not sticky). */
CBOR_FAST_API cbor_fast_status cbor_writer_simple(cbor_writer* writer, uint8_t value);
/**
 * Float: CBOR_FAST_FLOAT_SHORTEST picks the shortest width that keeps the value
 * exactly (NaN payloads, infinities, -0.0 included); a forced width rounds to
 * nearest even. Other width values give CBOR_FAST_ERR_INVALID_ARGUMENT.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_float(cbor_writer* writer, double value,
                                                 cbor_fast_float_width width);
/**
 * Float that is half precision already, given as its IEEE 754 binary16 bits:
 * written as they are (0xf9 and two bytes), no width search. Since 0.3.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_float16(cbor_writer* writer, uint16_t bits);
/**
 * Float that is single precision already: written as it is (0xfa and four
 * bytes, NaN payloads kept), no width search. Since 0.3.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_float32(cbor_writer* writer, float value);
/** Array of `count` items; close with cbor_writer_end(). */
CBOR_FAST_API cbor_fast_status cbor_writer_array(cbor_writer* writer, uint64_t count);
CBOR_FAST_API cbor_fast_status cbor_writer_array_indefinite(cbor_writer* writer);
/** Map of `pairs` key/value pairs (2 * pairs items); close with cbor_writer_end(). */
CBOR_FAST_API cbor_fast_status cbor_writer_map(cbor_writer* writer, uint64_t pairs);
CBOR_FAST_API cbor_fast_status cbor_writer_map_indefinite(cbor_writer* writer);
/** Indefinite byte/text string: chunks via cbor_writer_bytes/_text, then cbor_writer_end(). */
CBOR_FAST_API cbor_fast_status cbor_writer_bytes_indefinite(cbor_writer* writer);
CBOR_FAST_API cbor_fast_status cbor_writer_text_indefinite(cbor_writer* writer);
/**
 * Closes the innermost container or indefinite string.
 * @return also CBOR_FAST_ERR_WRITER_NO_CONTAINER, CBOR_FAST_ERR_WRITER_COUNT
 *         (definite count not reached, or a tag without content),
 *         CBOR_FAST_ERR_WRITER_ODD_MAP.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_end(cbor_writer* writer);
/**
 * Writes one data item that is already encoded, data[0, size), as the next
 * item (one item of the enclosing array or map, or a tag's content): for
 * example map keys a canonical encoder sorted by their encoded bytes (since
 * 0.5). The bytes are borrowed for the call only.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL writer or data,
 *         size 0, or bytes that are not exactly one well-formed item, checked
 *         with limits lifted: not sticky, nothing written); else as
 *         cbor_writer_bytes(), CBOR_FAST_ERR_WRITER_BAD_CHUNK inside an
 *         indefinite-length string.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_encoded(cbor_writer* writer, const void* data,
                                                   size_t size);
/**
 * Checks that everything is closed and flushes a sink. For the growable and the
 * caller buffer, *data and *size (each may be NULL) receive the output: the
 * writer's own buffer stays valid until the writer is reset or freed. For a
 * sink writer *data is NULL and *size the total written.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_BUFFER_TOO_SMALL (*size = bytes needed,
 *         *data NULL); CBOR_FAST_ERR_WRITER_UNCLOSED (sticky: *size is the
 *         bytes written so far, *data NULL; only cbor_writer_reset() goes
 *         on); CBOR_FAST_ERR_SINK_FAILED;
 *         CBOR_FAST_ERR_INVALID_ARGUMENT; or the sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_finish(cbor_writer* writer, const uint8_t** data,
                                                  size_t* size);
/** Bytes written so far (or needed, after a caller-buffer overflow); 0 for NULL. */
CBOR_FAST_API size_t cbor_writer_size(const cbor_writer* writer);

/* ========================================================================== */
/* Immutable documents                                                        */
/* ========================================================================== */

/** Opaque immutable document: one data item decoded into a flat node array. */
typedef struct cbor_doc cbor_doc;
/** A node of a cbor_doc; valid as long as the document. */
typedef struct cbor_node cbor_node;

/** cbor_decode() flags (bitwise or). */
#define CBOR_FAST_DECODE_NONE 0u
/** Require exactly one item and no trailing bytes (else CBOR_FAST_ERR_TRAILING_BYTES). */
#define CBOR_FAST_DECODE_EXACT 1u
/** Copy strings into the document, so the input may be freed after decoding. */
#define CBOR_FAST_DECODE_COPY_STRINGS 2u
/** Reject text strings that are not valid UTF-8. */
#define CBOR_FAST_DECODE_VALIDATE_UTF8 4u
/** Reject duplicate map keys (as CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS). Since 0.2. */
#define CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS 8u
/** Require core deterministic encoding (as CBOR_FAST_OPT_DETERMINISTIC). Since 0.2. */
#define CBOR_FAST_DECODE_DETERMINISTIC 16u

/**
 * Limits for decoding. Initialise with CBOR_FAST_DECODE_OPTIONS_INIT; 0 fields
 * mean default. Each limit gives its own status at the offset of the item that
 * exceeds it, the same status and offset as a reader with the same limits.
 *
 * Safe defaults for untrusted input (since 0.4): a document may hold at most
 * CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE (32) times its input size plus
 * CBOR_FAST_DEFAULT_MEMORY_SLACK (1 MiB) and CBOR_FAST_DEFAULT_MAX_ITEMS
 * (2^28) items, nest 512 deep and (since 0.5) hold at most
 * CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS (2^24) entries in one array or map,
 * the defaults of a reader too. No normal document comes near: the benchmark
 * corpus decodes within 9 times its size, a document of one-byte integers
 * within 24 times, and its largest container holds 14310 entries. Deep
 * nesting is denser while the decoder is inside it: each open level of
 * one-byte heads (81 81 81 ...) holds about 71 bytes, so with max_depth
 * raised past about 30,000 such input meets the default budget
 * (CBOR_FAST_ERR_MEMORY_BUDGET), as may a valid input made mostly of keys
 * that are tagged values or containers under the duplicate-key check, whose
 * tables count too. Lift a limit by setting its field; its type's maximum
 * (UINT64_MAX) means no limit but the input's own bound.
 */
typedef struct cbor_fast_decode_options {
  uint32_t struct_size; /**< sizeof(cbor_fast_decode_options), or 0 (= the 0.1 layout) */
  uint32_t max_depth;   /**< nesting limit; 0 means 512 (CBOR_FAST_ERR_DEPTH) */
  const cbor_fast_allocator* alloc; /**< hooks for the document's memory; NULL for malloc */
  /* since 0.2 */
  /** Longest string or chunk, and longest joined indefinite string, in bytes;
   *  0: no limit (CBOR_FAST_ERR_STRING_TOO_LONG). */
  uint64_t max_string_length;
  /** Most entries in one array (items) or map (pairs); 0: the default
   *  CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS (before 0.5: no limit), UINT64_MAX:
   *  no limit (CBOR_FAST_ERR_CONTAINER_TOO_LARGE). */
  uint64_t max_container_items;
  /** Most data items in one document, counting keys, values, tags and
   *  indefinite-string chunks; 0: the default CBOR_FAST_DEFAULT_MAX_ITEMS
   *  (before 0.4: the hard limit), UINT32_MAX or more: the hard limit UINT32_MAX - 1
   *  (CBOR_FAST_ERR_TOO_MANY_ITEMS). */
  uint64_t max_items;
  /** Most bytes the decoder may hold at once through the allocator: the node
   *  array, copied and joined strings, the nesting and duplicate-key tables
   *  (for cbor_seq_next_doc: what the sequence's reader adds while it decodes
   *  that item); not the fixed-size document handle itself. 0: the default,
   *  32 times the input size (for a sequence: the input left at the item)
   *  plus 1 MiB (before 0.4: no limit). UINT64_MAX: no budget, only the
   *  input's own bound of one 24-byte node per input byte plus string copies
   *  and nesting tables (CBOR_FAST_ERR_MEMORY_BUDGET). */
  uint64_t max_memory;
} cbor_fast_decode_options;
#define CBOR_FAST_DECODE_OPTIONS_INIT \
  { sizeof(cbor_fast_decode_options), 0, NULL, 0, 0, 0, 0 }
/** The default memory budget: this many bytes per input byte, plus the slack below. Since 0.4. */
#define CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE 32u
/** The default memory budget's fixed part, in bytes. Since 0.4. */
#define CBOR_FAST_DEFAULT_MEMORY_SLACK 1048576u
/** The default limit of entries in one array or map (2^24) of documents,
 *  sequences and readers. Since 0.5. */
#define CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS 16777216u
/** The default limit of items of a document, of each item of a sequence, and
 *  of each top-level item a reader or stream reads (2^28). Since 0.5. */
#define CBOR_FAST_DEFAULT_MAX_ITEMS 268435456u

/**
 * Sets every limit and check of a reader at once, from the options model of
 * documents (since 0.5): after it the reader reports what cbor_decode() with
 * the same flags and options reports for the first item of the same input,
 * the same status at the same offset. A 0 limit field is its default; the
 * reader keeps its allocator (options->alloc is only checked, as
 * cbor_decode() checks it) and its CBOR_FAST_OPT_STREAMING setting; limits
 * the options struct does not cover (an older struct_size) are defaults.
 * max_items counts the items of each top-level item, in 64 bits (a document
 * clamps it to UINT32_MAX - 1). Best called before the first item; containers already
 * open keep the checks they were opened with.
 * @param reader   the reader
 * @param flags    CBOR_FAST_DECODE_VALIDATE_UTF8, _REJECT_DUPLICATE_KEYS and
 *                 _DETERMINISTIC (0: none of the checks)
 * @param options  NULL for the defaults
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL reader; a flag
 *         without a reader meaning, i.e. CBOR_FAST_DECODE_EXACT,
 *         _COPY_STRINGS, _SKIP_SELF_DESCRIBED, or one no version has; an
 *         options struct cbor_decode() refuses; a max_memory other than 0 and
 *         UINT64_MAX (no budget: accepted since 0.5), since a reader holds no
 *         memory per item; a max_depth below the reader's
 *         current depth). On failure the reader is unchanged.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_configure(cbor_reader* reader, uint32_t flags,
                                                     const cbor_fast_decode_options* options);

/**
 * Decodes the first data item of data[0, size) into a document. Without
 * CBOR_FAST_DECODE_COPY_STRINGS strings are views into `data`, which must then
 * outlive the document unchanged; with it the document owns copies. Memory:
 * one node array and one arena, not one allocation per node. Indefinite-length
 * strings are joined into the arena (their chunks are kept for re-encoding).
 * @param options  NULL for defaults
 * @param out      receives the document (NULL on failure); free with cbor_doc_free()
 * @param error    optional: code, offset and depth of a failure
 * @return CBOR_FAST_OK; CBOR_FAST_END (size is 0 / no item); CBOR_FAST_ERR_INVALID_ARGUMENT
 *         (out NULL, data NULL with size > 0, unknown flags, an options or
 *         error struct_size no version has, an allocator with a NULL hook; a
 *         refused error struct is not written); a not-well-formed error;
 *         CBOR_FAST_ERR_INVALID_UTF8; CBOR_FAST_ERR_TRAILING_BYTES; with the strict flags
 *         CBOR_FAST_ERR_DUPLICATE_KEY, CBOR_FAST_ERR_NOT_PREFERRED,
 *         CBOR_FAST_ERR_INDEFINITE_LENGTH, CBOR_FAST_ERR_UNSORTED_KEYS; the limits'
 *         CBOR_FAST_ERR_DEPTH, CBOR_FAST_ERR_STRING_TOO_LONG,
 *         CBOR_FAST_ERR_CONTAINER_TOO_LARGE, CBOR_FAST_ERR_TOO_MANY_ITEMS,
 *         CBOR_FAST_ERR_MEMORY_BUDGET; CBOR_FAST_ERR_OUT_OF_MEMORY. Offsets are the
 *         reader's for the same input and limits.
 */
CBOR_FAST_API cbor_fast_status cbor_decode(const void* data, size_t size, uint32_t flags,
                                           const cbor_fast_decode_options* options, cbor_doc** out,
                                           cbor_fast_error* error);
/** Frees the document (not the input). NULL is a no-op. */
CBOR_FAST_API void cbor_doc_free(cbor_doc* doc);
/** The root node; NULL for a NULL document. */
CBOR_FAST_API const cbor_node* cbor_doc_root(const cbor_doc* doc);
/** The offset just past the item in its input (for a document from cbor_seq_next_doc:
 *  in the whole sequence); 0 for NULL. */
CBOR_FAST_API size_t cbor_doc_encoded_size(const cbor_doc* doc);
/** Number of nodes (data items, counting keys, values, tags and their content); 0 for NULL. */
CBOR_FAST_API size_t cbor_doc_node_count(const cbor_doc* doc);

/** cbor_encode() flags. */
#define CBOR_FAST_ENCODE_NONE 0u
/**
 * Re-serialize in preferred form: floats in their shortest exact width,
 * indefinite lengths written as definite, joined strings, and since 0.4
 * bignums (tag 2/3) without leading zeros, as plain integers when they fit 64
 * bits (RFC 8949 3.4.3). Without it a decoded document keeps the float widths,
 * indefinite lengths and bignum tags it was read with.
 */
#define CBOR_FAST_ENCODE_PREFERRED 1u

/**
 * Writes the document's item to a writer (any destination; the item may be
 * nested inside items the caller writes around it). Integers and lengths always
 * use the shortest heads.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL doc or writer, or
 *         flags other than CBOR_FAST_ENCODE_*; nothing written); or what the
 *         writer returns.
 */
CBOR_FAST_API cbor_fast_status cbor_encode(const cbor_doc* doc, uint32_t flags,
                                           cbor_writer* writer);

/* ---- node navigation (NULL node in: type NONE / NULL out / INVALID_ARGUMENT) ---- */

/** Node kind; CBOR_FAST_TYPE_NONE for NULL. Never CBOR_FAST_TYPE_END. */
CBOR_FAST_API cbor_fast_type cbor_node_type(const cbor_node* node);
/** 1 if the node was encoded with indefinite length (string, array, map), else 0. */
CBOR_FAST_API int cbor_node_is_indefinite(const cbor_node* node);
/** Byte offset of the node's head in the input. */
CBOR_FAST_API size_t cbor_node_offset(const cbor_node* node);

/*
 * Scalar getters. Each returns CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT
 * (NULL node or out); CBOR_FAST_ERR_TYPE_MISMATCH (other node type; *out
 * untouched); CBOR_FAST_ERR_OUT_OF_RANGE (integer does not fit; *out untouched).
 */
/** UINT only. */
CBOR_FAST_API cbor_fast_status cbor_node_get_uint64(const cbor_node* node, uint64_t* out);
/** UINT up to INT64_MAX, NEGATIVE down to INT64_MIN. */
CBOR_FAST_API cbor_fast_status cbor_node_get_int64(const cbor_node* node, int64_t* out);
/**
 * UINT or NEGATIVE, the full range: *negative = 0 and *raw = value, or
 * *negative = 1 and the integer is -1 - *raw. Never OUT_OF_RANGE.
 */
CBOR_FAST_API cbor_fast_status cbor_node_get_int_raw(const cbor_node* node, uint64_t* raw,
                                                     int* negative);
/**
 * Any integer beyond 64 bits too: UINT/NEGATIVE as above, or tag 2/3 over a
 * byte string (the magnitude view is set, *raw = 0). For UINT/NEGATIVE nodes
 * *magnitude is NULL and *size 0; for a tag 2/3 over an empty byte string
 * *magnitude may be a non-NULL view of size 0 (the value is 0, or -1 for tag 3).
 * @return also CBOR_FAST_ERR_TYPE_MISMATCH for anything else.
 */
CBOR_FAST_API cbor_fast_status cbor_node_get_bignum(const cbor_node* node, uint64_t* raw,
                                                    const uint8_t** magnitude, size_t* size,
                                                    int* negative);
/** FLOAT only (any width, widened exactly). */
CBOR_FAST_API cbor_fast_status cbor_node_get_double(const cbor_node* node, double* out);
/** FLOAT: 2, 4 or 8; 0 for other nodes. */
CBOR_FAST_API uint32_t cbor_node_float_width(const cbor_node* node);
CBOR_FAST_API cbor_fast_status cbor_node_get_bool(const cbor_node* node, int* out);
/** SIMPLE, BOOL, NULL, UNDEFINED: the simple value number. */
CBOR_FAST_API cbor_fast_status cbor_node_get_simple(const cbor_node* node, uint8_t* out);
/** BYTES: content view (joined for indefinite strings), valid as long as the document
 *  and, without COPY_STRINGS, the input. */
CBOR_FAST_API cbor_fast_status cbor_node_get_bytes(const cbor_node* node, const uint8_t** data,
                                                   size_t* size);
/** TEXT: as cbor_node_get_bytes (not NUL-terminated). */
CBOR_FAST_API cbor_fast_status cbor_node_get_text(const cbor_node* node, const char** data,
                                                  size_t* size);
/** TAG: the tag number. */
CBOR_FAST_API cbor_fast_status cbor_node_get_tag(const cbor_node* node, uint64_t* out);
/** TAG: its content node; NULL for other nodes. */
CBOR_FAST_API const cbor_node* cbor_node_tag_content(const cbor_node* node);

/* ---- containers ---- */

/** ARRAY: number of items; MAP: number of pairs; 0 for other nodes and NULL. */
CBOR_FAST_API size_t cbor_node_size(const cbor_node* node);
/** ARRAY: item i (NULL past the end or for other nodes). O(1) for arrays of scalars. */
CBOR_FAST_API const cbor_node* cbor_node_array_get(const cbor_node* node, size_t index);
/** MAP: key / value of pair i (NULL past the end or for other nodes). */
CBOR_FAST_API const cbor_node* cbor_node_map_key(const cbor_node* node, size_t index);
CBOR_FAST_API const cbor_node* cbor_node_map_value(const cbor_node* node, size_t index);
/** MAP: value of the first pair whose key is the text string key[0, key_size); NULL if none. */
CBOR_FAST_API const cbor_node* cbor_node_map_find(const cbor_node* node, const char* key,
                                                  size_t key_size);
/** MAP: value of the first pair whose key is the integer `key` (UINT or NEGATIVE); NULL if none. */
CBOR_FAST_API const cbor_node* cbor_node_map_find_int(const cbor_node* node, int64_t key);
/**
 * Iteration: the first child of an ARRAY, MAP (its first key) or TAG (its
 * content); NULL if empty or not a container.
 */
CBOR_FAST_API const cbor_node* cbor_node_child(const cbor_node* node);
/** The next sibling inside the same container (a map alternates key, value); NULL after the last. */
CBOR_FAST_API const cbor_node* cbor_node_next(const cbor_node* node);

/* ========================================================================== */
/* Mutable documents: build data, then encode it                               */
/* ========================================================================== */

/** Opaque mutable document: owns every node and string made with it. */
typedef struct cbor_mdoc cbor_mdoc;
/** A node owned by a cbor_mdoc; valid until the document is freed. */
typedef struct cbor_mnode cbor_mnode;

/**
 * Creates an empty mutable document.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (out NULL, or an allocator
 *         with a NULL hook); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_mdoc_new(const cbor_fast_allocator* alloc, cbor_mdoc** out);
/** Frees the document and all its nodes. NULL is a no-op. */
CBOR_FAST_API void cbor_mdoc_free(cbor_mdoc* doc);
/**
 * Deep-copies an immutable document (strings included) into a new mutable one,
 * to edit it. The source and its input may be freed afterwards. Floats keep
 * their wire width and arrays/maps their indefinite length (see
 * cbor_mnode_set_indefinite); indefinite strings become definite. No memory
 * budget applies: about 80 bytes per item (a 2 MB array of zeros took
 * 214 MiB in a probe), against the source's 24-byte nodes.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT; CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_doc_to_mdoc(const cbor_doc* doc,
                                                const cbor_fast_allocator* alloc, cbor_mdoc** out);
/** The root (NULL until set). */
CBOR_FAST_API cbor_mnode* cbor_mdoc_root(const cbor_mdoc* doc);
/** Sets the root; node must belong to doc and not be inside a container. */
CBOR_FAST_API cbor_fast_status cbor_mdoc_set_root(cbor_mdoc* doc, cbor_mnode* node);

/*
 * Node constructors: each returns a new detached node owned by doc, or NULL
 * when doc is NULL, an argument is invalid or memory runs out. Strings are
 * copied into the document.
 */
CBOR_FAST_API cbor_mnode* cbor_mdoc_uint(cbor_mdoc* doc, uint64_t value);
CBOR_FAST_API cbor_mnode* cbor_mdoc_int(cbor_mdoc* doc, int64_t value);
/** The integer -1 - n. */
CBOR_FAST_API cbor_mnode* cbor_mdoc_negative(cbor_mdoc* doc, uint64_t n);
/** Big-endian magnitude, as cbor_writer_bignum(); stored as UINT/NEGATIVE when it fits. */
CBOR_FAST_API cbor_mnode* cbor_mdoc_bignum(cbor_mdoc* doc, const uint8_t* magnitude, size_t size,
                                           int negative);
/** Float, encoded in the given width (CBOR_FAST_FLOAT_SHORTEST for preferred). A
 *  half or single width rounds the value to it (past its range to an infinity), so
 *  cbor_mnode_get_double() gives what is written (since 0.5). */
CBOR_FAST_API cbor_mnode* cbor_mdoc_float(cbor_mdoc* doc, double value,
                                          cbor_fast_float_width width);
CBOR_FAST_API cbor_mnode* cbor_mdoc_bool(cbor_mdoc* doc, int value);
CBOR_FAST_API cbor_mnode* cbor_mdoc_null(cbor_mdoc* doc);
CBOR_FAST_API cbor_mnode* cbor_mdoc_undefined(cbor_mdoc* doc);
/** Simple value (not 24..31). */
CBOR_FAST_API cbor_mnode* cbor_mdoc_simple(cbor_mdoc* doc, uint8_t value);
CBOR_FAST_API cbor_mnode* cbor_mdoc_bytes(cbor_mdoc* doc, const void* data, size_t size);
CBOR_FAST_API cbor_mnode* cbor_mdoc_text(cbor_mdoc* doc, const char* data, size_t size);
/** Empty array / map. */
CBOR_FAST_API cbor_mnode* cbor_mdoc_array(cbor_mdoc* doc);
CBOR_FAST_API cbor_mnode* cbor_mdoc_map(cbor_mdoc* doc);
/** Tag over content (a detached node of the same document). */
CBOR_FAST_API cbor_mnode* cbor_mdoc_tag(cbor_mdoc* doc, uint64_t tag, cbor_mnode* content);

/*
 * Building. Each returns CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL
 * node, a node of another document, or one already placed in a container or as
 * root); CBOR_FAST_ERR_TYPE_MISMATCH (container of the wrong kind);
 * CBOR_FAST_ERR_OUT_OF_RANGE (bad index); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
/** ARRAY: appends item. */
CBOR_FAST_API cbor_fast_status cbor_mnode_append(cbor_mnode* array, cbor_mnode* item);
/** ARRAY: replaces item i (the old node is detached and stays owned by the document). */
CBOR_FAST_API cbor_fast_status cbor_mnode_array_set(cbor_mnode* array, size_t index,
                                                    cbor_mnode* item);
/** MAP: appends the pair (no duplicate check). */
CBOR_FAST_API cbor_fast_status cbor_mnode_map_put(cbor_mnode* map, cbor_mnode* key,
                                                  cbor_mnode* value);
/** MAP: sets the value of text key key[0, key_size): replaces the first match or appends.
 *  On a map of 16 pairs or more, cbor_mnode_map_set(), cbor_mnode_map_remove() and
 *  cbor_mnode_map_remove_int() search through a key index they build in the map (from
 *  the document's allocator, 16 to 32 bytes a pair), which cbor_mnode_map_put() and
 *  cbor_mnode_map_set() then keep up to date and cbor_mnode_map_find() and
 *  cbor_mnode_map_find_int() use: O(1) on average per key (since 0.5; before, the search
 *  went from the first pair, and 160,000 keys set this way took 50 s). An index the
 *  allocator refuses leaves the search linear. */
CBOR_FAST_API cbor_fast_status cbor_mnode_map_set(cbor_mnode* map, const char* key, size_t key_size,
                                                  cbor_mnode* value);
/** ARRAY or MAP: encode with indefinite length (1) or definite (0, the default). */
CBOR_FAST_API cbor_fast_status cbor_mnode_set_indefinite(cbor_mnode* node, int indefinite);

/* ---- reading mutable nodes (same rules as the cbor_node_* getters) ---- */
CBOR_FAST_API cbor_fast_type cbor_mnode_type(const cbor_mnode* node);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_uint64(const cbor_mnode* node, uint64_t* out);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_int64(const cbor_mnode* node, int64_t* out);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_double(const cbor_mnode* node, double* out);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_bool(const cbor_mnode* node, int* out);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_bytes(const cbor_mnode* node, const uint8_t** data,
                                                    size_t* size);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_text(const cbor_mnode* node, const char** data,
                                                   size_t* size);
CBOR_FAST_API cbor_fast_status cbor_mnode_get_tag(const cbor_mnode* node, uint64_t* out);
CBOR_FAST_API cbor_mnode* cbor_mnode_tag_content(const cbor_mnode* node);
/** ARRAY: items; MAP: pairs; 0 otherwise. */
CBOR_FAST_API size_t cbor_mnode_size(const cbor_mnode* node);
CBOR_FAST_API cbor_mnode* cbor_mnode_array_get(const cbor_mnode* node, size_t index);
CBOR_FAST_API cbor_mnode* cbor_mnode_map_key(const cbor_mnode* node, size_t index);
CBOR_FAST_API cbor_mnode* cbor_mnode_map_value(const cbor_mnode* node, size_t index);
CBOR_FAST_API cbor_mnode* cbor_mnode_map_find(const cbor_mnode* node, const char* key,
                                              size_t key_size);

/**
 * Writes the mutable document's root to a writer, preferred serialization
 * (floats at the width each node asks for, SHORTEST by default; a tag 2/3
 * over a byte string as cbor_writer_bignum() writes it: no leading zero
 * bytes, an integer when it fits 64 bits, since 0.4).
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL, or no root);
 *         or what the writer returns.
 */
CBOR_FAST_API cbor_fast_status cbor_mdoc_encode(const cbor_mdoc* doc, cbor_writer* writer);

/* ========================================================================== */
/* Sequences (RFC 8742)                                                       */
/* ========================================================================== */

/** Opaque iterator over the top-level items of a CBOR sequence in a borrowed buffer. */
typedef struct cbor_seq cbor_seq;

/**
 * Creates an iterator over data[0, size). The buffer is borrowed until
 * cbor_seq_free() (and, for documents without COPY_STRINGS, until they are freed).
 * @param options  limits for every item (NULL: defaults): max_depth, max_string_length and
 *                 max_container_items for every item, max_items and max_memory for each
 *                 document; alloc is used for the iterator and its documents
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT; CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_seq_new(const void* data, size_t size,
                                            const cbor_fast_decode_options* options,
                                            cbor_seq** out);
/** Frees the iterator. NULL is a no-op. */
CBOR_FAST_API void cbor_seq_free(cbor_seq* seq);
/**
 * Checks the next item for well-formedness (and UTF-8, duplicate keys and
 * deterministic encoding if flags has CBOR_FAST_DECODE_VALIDATE_UTF8,
 * _REJECT_DUPLICATE_KEYS, _DETERMINISTIC) without building anything; *offset and *length
 * (each may be NULL) receive where its encoded bytes are.
 * @return CBOR_FAST_OK; CBOR_FAST_END after the last item (not an error);
 *         CBOR_FAST_NEED_MORE (after cbor_seq_feed(): see there);
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (NULL seq, or flags other than
 *         CBOR_FAST_DECODE_*: not sticky); or the item's error (sticky; see
 *         cbor_seq_error() for the offset and the item's start).
 */
CBOR_FAST_API cbor_fast_status cbor_seq_next(cbor_seq* seq, uint32_t flags, size_t* offset,
                                             size_t* length);
/**
 * Decodes the next item into a new document (flags as cbor_decode; EXACT is
 * ignored). The caller frees it with cbor_doc_free().
 * @return as cbor_seq_next(), plus CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_seq_next_doc(cbor_seq* seq, uint32_t flags, cbor_doc** out);
/** The sticky error (code, offset, item_offset = start of the bad item);
 *  CBOR_FAST_ERR_INVALID_ARGUMENT as cbor_reader_error(). */
CBOR_FAST_API cbor_fast_status cbor_seq_error(const cbor_seq* seq, cbor_fast_error* error);
/**
 * Input in parts (since 0.5): hands the sequence a new buffer holding the
 * stream's bytes from offset first_offset on, data[0, size), as
 * cbor_reader_feed() (the same buffer grown, or a window starting at or before
 * cbor_seq_keep_from()); it is borrowed from now on. The first call makes the
 * sequence streaming: cbor_seq_next() and cbor_seq_next_doc() then return
 * CBOR_FAST_NEED_MORE (not an error, not sticky, nothing consumed, no
 * document made) while the next item is not all in the buffer, and
 * cbor_seq_needed() tells the fewest further bytes. Offsets stay the
 * stream's. Documents made without CBOR_FAST_DECODE_COPY_STRINGS point into
 * the buffer fed: a caller that moves its window asks for copies.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL seq, data NULL
 *         with size > 0, first_offset past cbor_seq_keep_from(), a buffer
 *         ending before the next item: nothing changes, not sticky); or the
 *         sticky error.
 */
CBOR_FAST_API cbor_fast_status cbor_seq_feed(cbor_seq* seq, const void* data, size_t size,
                                             size_t first_offset);
/** No more input comes: an item cut short is then CBOR_FAST_ERR_TRUNCATED,
 *  and the end of the buffer between items CBOR_FAST_END. Since 0.5.
 *  @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL). */
CBOR_FAST_API cbor_fast_status cbor_seq_end_input(cbor_seq* seq);
/** After CBOR_FAST_NEED_MORE: the fewest bytes past the buffer's end wanted;
 *  else 0, and 0 for NULL. Since 0.5. */
CBOR_FAST_API size_t cbor_seq_needed(const cbor_seq* seq);
/** The first stream offset the next cbor_seq_feed() buffer must hold (the
 *  next item's); 0 for NULL. Since 0.5. */
CBOR_FAST_API size_t cbor_seq_keep_from(const cbor_seq* seq);

/* ========================================================================== */
/* Streams: input that arrives in parts, in a buffer of bounded size (0.5)   */
/* ========================================================================== */

/**
 * A stream reads a CBOR sequence from a source (a callback or a file
 * descriptor) through one buffer the stream owns: it reads more whenever an
 * item is not all there and drops the input before the item being read, so
 * memory stays within max_buffer plus the reader's stack, whatever the
 * input's size. Items, statuses and offsets (counted from the start of the
 * input) are those of a cbor_reader over the whole input, except that a
 * definite array or map declaring more entries than the rest of the input
 * could hold is read into (a one-shot reader refuses it at its head with
 * CBOR_FAST_ERR_TRUNCATED): the stream reports the first error inside it, or
 * CBOR_FAST_ERR_TRUNCATED where the input ends (CBOR_FAST_OPT_STREAMING). A
 * stream never returns CBOR_FAST_NEED_MORE. String views in items point into
 * the stream's buffer and are valid until the next call on the stream.
 */
typedef struct cbor_stream cbor_stream;
/** Reads up to `capacity` bytes into `buffer`, stores the count in *got (0:
 *  the input has ended) and returns 0; non-zero means failure (the stream
 *  then fails with CBOR_FAST_ERR_SOURCE_FAILED). Fewer bytes than asked are
 *  fine: the stream asks again only when it needs more. */
typedef int (*cbor_fast_source_fn)(void* context, uint8_t* buffer, size_t capacity, size_t* got);
/**
 * A stream over source(context, ...). The context is the caller's; it must
 * stay valid until cbor_stream_free().
 * @param max_buffer  the most bytes the buffer holds (0: 64 MiB); an item that
 *                    needs more (for next: a head and its string; for skip and
 *                    next_doc: the whole item) fails with CBOR_FAST_ERR_MEMORY_BUDGET
 * @param alloc       hooks for the handle, the buffer and the reader, or NULL
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (source or out NULL, an
 *         allocator with a NULL hook); CBOR_FAST_ERR_OUT_OF_MEMORY.
 */
CBOR_FAST_API cbor_fast_status cbor_stream_new(cbor_fast_source_fn source, void* context,
                                               size_t max_buffer, const cbor_fast_allocator* alloc,
                                               cbor_stream** out);
/** A stream over a POSIX file descriptor (read(2), retried on EINTR; never
 *  closed by the stream). Same parameters and statuses as cbor_stream_new(),
 *  CBOR_FAST_ERR_INVALID_ARGUMENT for a negative fd. */
CBOR_FAST_API cbor_fast_status cbor_stream_new_fd(int fd, size_t max_buffer,
                                                  const cbor_fast_allocator* alloc,
                                                  cbor_stream** out);
/** Frees the stream (not the source). NULL is a no-op. */
CBOR_FAST_API void cbor_stream_free(cbor_stream* stream);
/** Sets a reader option, as cbor_reader_set() (CBOR_FAST_OPT_STREAMING is
 *  refused: a stream always streams). */
CBOR_FAST_API cbor_fast_status cbor_stream_set(cbor_stream* stream, cbor_fast_option option,
                                               uint64_t value);
/** Sets every limit and check of the stream's reader, as cbor_reader_configure()
 *  (since 0.5); same statuses, except that options->max_memory is accepted:
 *  the most bytes each later cbor_stream_next_doc() document may hold through
 *  its allocator, as cbor_fast_decode_options::max_memory counts them
 *  (CBOR_FAST_ERR_MEMORY_BUDGET at the item being added beyond it, sticky).
 *  0 (the default, and what a stream has until this call) or UINT64_MAX: no
 *  budget, the document bounded by its item, which the buffer bounds (since
 *  0.5; before, a non-zero max_memory was refused). */
CBOR_FAST_API cbor_fast_status cbor_stream_configure(cbor_stream* stream, uint32_t flags,
                                                     const cbor_fast_decode_options* options);
/**
 * The next item, as cbor_reader_next() over the whole input.
 * @return CBOR_FAST_OK; CBOR_FAST_END (the input ended at the top level);
 *         CBOR_FAST_ERR_TRUNCATED (it ended inside an item);
 *         CBOR_FAST_ERR_SOURCE_FAILED; CBOR_FAST_ERR_MEMORY_BUDGET;
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL, an
 *         item struct_size no version has); or the reader's error. Sticky.
 */
CBOR_FAST_API cbor_fast_status cbor_stream_next(cbor_stream* stream, cbor_fast_item* item);
/** Passes over the next complete item (as cbor_reader_skip()); statuses as
 *  cbor_stream_next(), and CBOR_FAST_ERR_INVALID_STATE at an END. */
CBOR_FAST_API cbor_fast_status cbor_stream_skip(cbor_stream* stream);
/**
 * The whole content of a string item just read (as cbor_reader_join()),
 * copied into a buffer the stream owns, valid until the next call on it.
 * @return as cbor_reader_join(), plus the stream's own statuses.
 */
CBOR_FAST_API cbor_fast_status cbor_stream_join(cbor_stream* stream, const cbor_fast_item* item,
                                                const uint8_t** data, size_t* size);
/**
 * The next top-level item decoded into a document that owns its strings
 * (the buffer moves on): a streamed cbor_seq_next_doc().
 * @param flags  0 or CBOR_FAST_DECODE_COPY_STRINGS (implied); set strict
 *               checks and limits with cbor_stream_set()
 * @return CBOR_FAST_OK (*out set; free with cbor_doc_free()); CBOR_FAST_END;
 *         CBOR_FAST_ERR_INVALID_STATE (inside an item); statuses as
 *         cbor_stream_next(); CBOR_FAST_ERR_TOO_MANY_ITEMS;
 *         CBOR_FAST_ERR_MEMORY_BUDGET (the budget cbor_stream_configure() set,
 *         at the item being added beyond it). CBOR_FAST_ERR_OUT_OF_MEMORY for
 *         the document handle itself, before anything is read, is the one
 *         status that is not sticky: the stream is as before the call.
 */
CBOR_FAST_API cbor_fast_status cbor_stream_next_doc(cbor_stream* stream, uint32_t flags,
                                                    cbor_doc** out);
/** Offset of the next byte to read, from the start of the input; 0 for NULL. */
CBOR_FAST_API size_t cbor_stream_offset(const cbor_stream* stream);
/** The sticky error, as cbor_reader_error(). */
CBOR_FAST_API cbor_fast_status cbor_stream_error(const cbor_stream* stream, cbor_fast_error* error);

/* ========================================================================== */
/* Status spellings (since 0.4)                                               */
/* ========================================================================== */

/*
 * One spelling policy for C and C++: every status is also
 * CBOR_FAST_ERR_<its C++ name in capitals> (cbor_fast::status::depth_exceeded
 * is CBOR_FAST_ERR_DEPTH_EXCEEDED). Where the 0.1 enumerator is shorter, the
 * full spelling is this alias of it; new codes use the full spelling only.
 * The one table of codes is cbor_fast/status.def; the test capi.status_table
 * checks this header against it, aliases included.
 */
#define CBOR_FAST_ERR_WRITER_COUNT_MISMATCH CBOR_FAST_ERR_WRITER_COUNT
#define CBOR_FAST_ERR_RESERVED_ADDITIONAL_INFO CBOR_FAST_ERR_RESERVED_AI
#define CBOR_FAST_ERR_BAD_SIMPLE_VALUE CBOR_FAST_ERR_BAD_SIMPLE
#define CBOR_FAST_ERR_CHUNK_TYPE_MISMATCH CBOR_FAST_ERR_CHUNK_TYPE
#define CBOR_FAST_ERR_NESTED_INDEFINITE_CHUNK CBOR_FAST_ERR_NESTED_CHUNK
#define CBOR_FAST_ERR_NON_PREFERRED_ENCODING CBOR_FAST_ERR_NOT_PREFERRED
#define CBOR_FAST_ERR_UNSORTED_MAP_KEYS CBOR_FAST_ERR_UNSORTED_KEYS
#define CBOR_FAST_ERR_DEPTH_EXCEEDED CBOR_FAST_ERR_DEPTH
#define CBOR_FAST_ERR_MEMORY_BUDGET_EXCEEDED CBOR_FAST_ERR_MEMORY_BUDGET
#define CBOR_FAST_ERR_INTERNAL_ERROR CBOR_FAST_ERR_INTERNAL
/* Bulk number arrays and RFC 8746 typed arrays (since 0.4)                   */
/* ========================================================================== */

/**
 * Reads the next item, an array of unsigned integers (any head width per
 * element; a tag 41 in front allowed) or an RFC 8746 typed array (tags
 * 64..87 over a byte string), into out[0, capacity) in one call. Since 0.4.
 * @param reader    the reader
 * @param out       receives the elements; may be NULL only if capacity is 0
 * @param capacity  elements out can hold
 * @param count     receives the element count (on CBOR_FAST_ERR_BUFFER_TOO_SMALL:
 *                  the count needed); must not be NULL
 * @return CBOR_FAST_OK; CBOR_FAST_END (no item left at the top level);
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (reader or count NULL, out NULL with capacity > 0);
 *         CBOR_FAST_ERR_INVALID_STATE (the enclosing container has no item left);
 *         CBOR_FAST_ERR_TYPE_MISMATCH: the next item is no such array, and
 *         nothing was read (the reader is where it was); or, sticky, at the
 *         offset of the first element of another type (cbor_reader_error());
 *         CBOR_FAST_ERR_OUT_OF_RANGE: sticky, at the first element that does not
 *         fit (a negative integer here); CBOR_FAST_ERR_BUFFER_TOO_SMALL: a
 *         definite array or typed array longer than capacity, nothing read (an
 *         indefinite array: sticky, at the first element that does not fit);
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; or the reader's own errors (not
 *         well-formed input, limits, strict checks) with their offsets.
 */
CBOR_FAST_API cbor_fast_status cbor_reader_read_uint64_array(cbor_reader* reader, uint64_t* out,
                                                             size_t capacity, size_t* count);
/** As cbor_reader_read_uint64_array(), for integers from -2^63 to 2^63-1 (others:
 *  CBOR_FAST_ERR_OUT_OF_RANGE). Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_reader_read_int64_array(cbor_reader* reader, int64_t* out,
                                                            size_t capacity, size_t* count);
/** As cbor_reader_read_uint64_array(), for floats of any width (half, single,
 *  double; typed float16..float128, float128 rounded to nearest) and integers
 *  that a double holds exactly (others: CBOR_FAST_ERR_OUT_OF_RANGE). Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_reader_read_double_array(cbor_reader* reader, double* out,
                                                             size_t capacity, size_t* count);

/**
 * The same on a document node: an array of numbers (a tag 41 in front
 * allowed) or a typed array. Nothing is sticky. Since 0.4.
 * @param node   the node; NULL gives CBOR_FAST_ERR_INVALID_ARGUMENT
 * @param error  optional: code and offset (of the node, or of the failing element)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT; CBOR_FAST_ERR_TYPE_MISMATCH;
 *         CBOR_FAST_ERR_OUT_OF_RANGE; CBOR_FAST_ERR_BUFFER_TOO_SMALL (*count = the
 *         count needed, nothing written).
 */
CBOR_FAST_API cbor_fast_status cbor_node_read_uint64_array(const cbor_node* node, uint64_t* out,
                                                           size_t capacity, size_t* count,
                                                           cbor_fast_error* error);
/** As cbor_node_read_uint64_array(), for int64_t. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_node_read_int64_array(const cbor_node* node, int64_t* out,
                                                          size_t capacity, size_t* count,
                                                          cbor_fast_error* error);
/** As cbor_node_read_uint64_array(), for double. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_node_read_double_array(const cbor_node* node, double* out,
                                                           size_t capacity, size_t* count,
                                                           cbor_fast_error* error);

/** Element types of RFC 8746 typed arrays (cbor_fast_typed_array.element). Since 0.4. */
#define CBOR_FAST_TYPED_UINT8 1u
#define CBOR_FAST_TYPED_UINT8_CLAMPED 2u
#define CBOR_FAST_TYPED_UINT16 3u
#define CBOR_FAST_TYPED_UINT32 4u
#define CBOR_FAST_TYPED_UINT64 5u
#define CBOR_FAST_TYPED_SINT8 6u
#define CBOR_FAST_TYPED_SINT16 7u
#define CBOR_FAST_TYPED_SINT32 8u
#define CBOR_FAST_TYPED_SINT64 9u
#define CBOR_FAST_TYPED_FLOAT16 10u
#define CBOR_FAST_TYPED_FLOAT32 11u
#define CBOR_FAST_TYPED_FLOAT64 12u
#define CBOR_FAST_TYPED_FLOAT128 13u

/**
 * A typed array read from the input: the tag decoded and the elements as a
 * view into the reader's (or document's) input, valid as long as it. Since 0.4.
 */
typedef struct cbor_fast_typed_array {
  uint32_t struct_size;   /**< sizeof(cbor_fast_typed_array) */
  uint32_t element;       /**< CBOR_FAST_TYPED_* */
  uint64_t tag;           /**< 64..87 */
  uint32_t element_size;  /**< bytes per element: 1, 2, 4, 8 or 16 */
  uint32_t little_endian; /**< 1: elements are little endian; 0: big endian (or single bytes) */
  const uint8_t* data;    /**< the elements, count * element_size bytes; not necessarily aligned */
  size_t count;           /**< number of elements */
  size_t offset;          /**< offset of the tag's head */
  size_t data_offset;     /**< offset of data[0] */
} cbor_fast_typed_array;
#define CBOR_FAST_TYPED_ARRAY_INIT \
  { sizeof(cbor_fast_typed_array), 0, 0, 0, 0, NULL, 0, 0, 0 }

/**
 * Reads the next item as a typed array (tag 64..87 over a definite byte
 * string whose length is a multiple of the element size). Since 0.4.
 * @param out  struct_size set (CBOR_FAST_TYPED_ARRAY_INIT); filled on success
 * @return CBOR_FAST_OK; CBOR_FAST_END; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL, or
 *         struct_size smaller than this layout); CBOR_FAST_ERR_INVALID_STATE;
 *         CBOR_FAST_ERR_TYPE_MISMATCH: not such a tag (nothing read), or,
 *         sticky at the byte string's offset, bad content; CBOR_FAST_NEED_MORE
 *         (a streaming reader whose buffer does not hold the whole tag and
 *         string yet: nothing read; since 0.5); or the reader's errors (a tag
 *         head cut short by the input's end: CBOR_FAST_ERR_TRUNCATED, since
 *         0.5; before, CBOR_FAST_ERR_TYPE_MISMATCH).
 */
CBOR_FAST_API cbor_fast_status cbor_reader_read_typed_array(cbor_reader* reader,
                                                            cbor_fast_typed_array* out);
/** The same for a document node (CBOR_FAST_ERR_TYPE_MISMATCH for other nodes;
 *  data_offset assumes the byte string has a shortest head). A tag over an
 *  indefinite byte string is read too: out->data then points at the chunks
 *  the document joined, valid while the document is (a definite one's point
 *  into the input). Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_node_read_typed_array(const cbor_node* node,
                                                          cbor_fast_typed_array* out);
/**
 * Converts every element of a typed array into out[0, capacity): integers
 * range-checked; floats only into double. Since 0.4.
 * @param bad_index  optional: the index of the failing element
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL, bad struct:
 *         also, since 0.5, a longer struct_size whose bytes past this layout
 *         are not all 0); CBOR_FAST_ERR_BUFFER_TOO_SMALL (count > capacity,
 *         nothing written);
 *         CBOR_FAST_ERR_TYPE_MISMATCH (floats into integers); CBOR_FAST_ERR_OUT_OF_RANGE.
 */
CBOR_FAST_API cbor_fast_status cbor_typed_array_copy_uint64(const cbor_fast_typed_array* array,
                                                            uint64_t* out, size_t capacity,
                                                            size_t* bad_index);
/** As cbor_typed_array_copy_uint64(), for int64_t. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_typed_array_copy_int64(const cbor_fast_typed_array* array,
                                                           int64_t* out, size_t capacity,
                                                           size_t* bad_index);
/** As cbor_typed_array_copy_uint64(), for double. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_typed_array_copy_double(const cbor_fast_typed_array* array,
                                                            double* out, size_t capacity,
                                                            size_t* bad_index);
/**
 * Writes a typed array: the tag for element and byte order, then a byte
 * string of count elements copied from data as they are (data must already
 * be in that byte order: the host's, for a memcpy-speed write of a C array).
 * Since 0.4.
 * @param element        CBOR_FAST_TYPED_*
 * @param little_endian  1 or 0 (ignored for single bytes)
 * @param data           count * element size bytes; may be NULL only if count is 0
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL writer, bad element,
 *         NULL data with count > 0, a size that overflows); or the writer's status.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_write_typed_array(cbor_writer* writer, uint32_t element,
                                                             int little_endian, const void* data,
                                                             size_t count);
/** 1 when this host is little endian (the byte order for cbor_writer_write_typed_array()
 *  of a C array), else 0. Since 0.4. */
CBOR_FAST_API int cbor_host_is_little_endian(void);
/* Canonical encoding, tags as values, editing mutable documents (since 0.4)  */
/* ========================================================================== */

/*
 * Canonical forms, as cbor_encode() flags (at most one of the three; each
 * implies CBOR_FAST_ENCODE_PREFERRED). Every form writes shortest heads and
 * definite lengths, joins indefinite strings, and writes a bignum (tag 2/3)
 * in preferred form (RFC 8949 3.4.3): no leading zero bytes, and a plain
 * integer when it fits 64 bits. Map entries are sorted by their keys'
 * canonical encodings in O(n log n) per map (a map already in order costs one
 * linear pass); two keys with equal canonical encodings (1 and 0x1801, half
 * and double of one value, maps that differ only in entry order) give
 * CBOR_FAST_ERR_DUPLICATE_KEY. Keys whose encodings differ are kept even
 * where CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS counts them as one value (0.0 and
 * -0.0, NaNs of different payloads, containers holding them): decode with that
 * check first when the output must pass it. Scratch memory, from the
 * document's allocator and outside its decode budget: the sort's tables for
 * the map being sorted (a probe measured 50 MiB for one map of 300,000
 * pairs, about 175 bytes a pair) and, for keys that are containers, a few
 * bytes per node and per level of their nesting.
 */
/**
 * RFC 8949 4.2.1 core deterministic: keys in bytewise lexicographic order of
 * their encodings; floats at the shortest width that holds the value exactly,
 * NaN payloads, infinities and -0.0 kept (f97e00 stays, a NaN with a payload
 * keeps it at the shortest width holding it). Output passes
 * CBOR_FAST_DECODE_DETERMINISTIC. Since 0.4.
 */
#define CBOR_FAST_ENCODE_CANONICAL 2u
/**
 * RFC 8949 4.2.3 length-first (RFC 7049 3.9 "canonical CBOR"): shorter key
 * encoding first, then bytewise; floats as CANONICAL except that every NaN is
 * written f97e00. Byte-identical to Python cbor2's dumps(canonical=True)
 * (tests/vectors/canonical.json). Since 0.4.
 */
#define CBOR_FAST_ENCODE_LENGTH_FIRST 4u
/**
 * CTAP2 canonical CBOR (FIDO CTAP 2.x): keys by major type, then length, then
 * bytewise; floats keep their width; no tags: a bignum that fits 64 bits is
 * written as an integer, any other tag gives CBOR_FAST_ERR_INVALID_ARGUMENT.
 * Since 0.4.
 */
#define CBOR_FAST_ENCODE_CTAP2 8u

/**
 * Re-encodes the first item of data[0, size) canonically into a writer (any
 * destination: owned buffer, caller buffer, sink). The input is decoded as
 * cbor_decode(data, size, decode_flags, options) would (strict checks, limits,
 * the allocator), then written with encode_flags. Nothing is kept: the input
 * only needs to live for the call.
 * @param data          input; NULL only with size 0
 * @param encode_flags  exactly one of CBOR_FAST_ENCODE_CANONICAL, _LENGTH_FIRST,
 *                      _CTAP2 (CBOR_FAST_ENCODE_PREFERRED may be added)
 * @param decode_flags  CBOR_FAST_DECODE_* flags except COPY_STRINGS (e.g. EXACT to
 *                      refuse trailing bytes)
 * @param options       limits and allocator, or NULL for the defaults
 * @param writer        destination; must not be NULL
 * @param error         optional: code and offset (for a duplicate key, the later key)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL writer, bad flags,
 *         a tag under CTAP2 with its offset); every cbor_decode() status;
 *         CBOR_FAST_ERR_DUPLICATE_KEY; CBOR_FAST_ERR_OUT_OF_MEMORY; what the
 *         writer returns (CBOR_FAST_ERR_BUFFER_TOO_SMALL: cbor_writer_size()
 *         tells the size needed). On another error, what was written before
 *         it stays (in the writer or handed to its sink; a tag refused under
 *         CTAP2 comes after the items before it) and the writer is left inside
 *         the open containers: reset it before writing anything else. A
 *         duplicate key is found before its map's first byte. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_canonicalize(const void* data, size_t size,
                                                 uint32_t encode_flags, uint32_t decode_flags,
                                                 const cbor_fast_decode_options* options,
                                                 cbor_writer* writer, cbor_fast_error* error);
/**
 * cbor_mdoc_encode() with cbor_encode() flags: 0 or CBOR_FAST_ENCODE_PREFERRED
 * is cbor_mdoc_encode(); a canonical flag encodes, decodes and re-encodes the
 * tree sorted (about three times the work of a plain encode).
 * @return as cbor_mdoc_encode(), plus CBOR_FAST_ERR_INVALID_ARGUMENT for bad
 *         flags (and a tag under CTAP2) and CBOR_FAST_ERR_DUPLICATE_KEY; on an
 *         error the writer keeps what was written before it, as with
 *         cbor_canonicalize(). Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_mdoc_encode_flags(const cbor_mdoc* doc, uint32_t flags,
                                                      cbor_writer* writer);

/* ---- mutable nodes: the rest of the cbor_node_* getters, iteration, removal ---- */

/** 1 if the ARRAY or MAP is set to encode with indefinite length, else 0 (also for NULL). Since 0.4. */
CBOR_FAST_API int cbor_mnode_is_indefinite(const cbor_mnode* node);
/**
 * As cbor_node_get_int_raw(): UINT or NEGATIVE, the full range.
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (a NULL argument);
 *         CBOR_FAST_ERR_TYPE_MISMATCH (outs untouched). Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_mnode_get_int_raw(const cbor_mnode* node, uint64_t* raw,
                                                      int* negative);
/**
 * As cbor_node_get_bignum(): UINT/NEGATIVE (*magnitude NULL, *size 0) or tag
 * 2/3 over a byte string (*raw 0, the magnitude a view into the document,
 * valid until the document is freed).
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (a NULL argument);
 *         CBOR_FAST_ERR_TYPE_MISMATCH. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_mnode_get_bignum(const cbor_mnode* node, uint64_t* raw,
                                                     const uint8_t** magnitude, size_t* size,
                                                     int* negative);
/** FLOAT: the width it will be written with (0 = shortest, 2, 4, 8); 0 for other nodes and NULL. Since 0.4. */
CBOR_FAST_API uint32_t cbor_mnode_float_width(const cbor_mnode* node);
/** SIMPLE, BOOL, NULL, UNDEFINED: the simple value number (as cbor_node_get_simple). Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_mnode_get_simple(const cbor_mnode* node, uint8_t* out);
/** MAP: value of the first pair whose key is the integer `key`; NULL if none or not a map. Since 0.4. */
CBOR_FAST_API cbor_mnode* cbor_mnode_map_find_int(const cbor_mnode* node, int64_t key);
/** First child of an ARRAY, MAP (its first key) or TAG (its content); NULL if none. Since 0.4. */
CBOR_FAST_API cbor_mnode* cbor_mnode_child(const cbor_mnode* node);
/**
 * The next sibling in the same ARRAY or MAP (a map alternates key, value), in
 * O(1); NULL after the last, for a tag's content, the root, a detached node
 * and NULL. Since 0.4.
 */
CBOR_FAST_API cbor_mnode* cbor_mnode_next(const cbor_mnode* node);
/** The container or tag holding the node; NULL for the root, detached nodes and NULL. Since 0.4. */
CBOR_FAST_API cbor_mnode* cbor_mnode_parent(const cbor_mnode* node);
/**
 * Position among the parent's children: an array item's index; in a map
 * 2 * pair for a key, 2 * pair + 1 for a value; 0 for a tag's content, the
 * root, detached nodes and NULL. Since 0.4.
 */
CBOR_FAST_API size_t cbor_mnode_index(const cbor_mnode* node);

/*
 * Removal. The removed nodes are detached, stay owned by the document (valid
 * until cbor_mdoc_free) and may be placed again. Later entries move down,
 * keeping their order (O(entries after it)). Removing while iterating: by
 * index, do not advance after removing entry i (entry i is now the next one)
 * or iterate from the end; by cbor_mnode_child/cbor_mnode_next, fetch the next
 * sibling before removing the current node (a detached node has none). Each
 * returns CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL node, or NULL key
 * with key_size > 0); CBOR_FAST_ERR_TYPE_MISMATCH (not an ARRAY / not a MAP);
 * CBOR_FAST_ERR_OUT_OF_RANGE (index past the end, or no pair with that key).
 * Since 0.4.
 */
/** ARRAY: removes item `index`. */
CBOR_FAST_API cbor_fast_status cbor_mnode_array_remove(cbor_mnode* array, size_t index);
/** MAP: removes pair `index` (key and value). */
CBOR_FAST_API cbor_fast_status cbor_mnode_map_remove_at(cbor_mnode* map, size_t index);
/** MAP: removes the first pair whose key is the text string key[0, key_size). */
CBOR_FAST_API cbor_fast_status cbor_mnode_map_remove(cbor_mnode* map, const char* key,
                                                     size_t key_size);
/** MAP: removes the first pair whose key is the integer `key` (UINT or NEGATIVE). */
CBOR_FAST_API cbor_fast_status cbor_mnode_map_remove_int(cbor_mnode* map, int64_t key);

/* ---- tags as values ---- */

/**
 * cbor_decode() flag: the root is the item inside any self-described CBOR
 * tags (55799, RFC 8949 3.4.6) at the top; the document still holds and
 * counts them. For cbor_decode(), cbor_canonicalize() and cbor_seq_next_doc()
 * (cbor_seq_next() ignores it). Since 0.4.
 */
#define CBOR_FAST_DECODE_SKIP_SELF_DESCRIBED 256u

/**
 * A point in time: seconds since 1970-01-01T00:00:00Z (negative before),
 * plus nanoseconds (0..999999999, always added: -0.5 s is seconds -1,
 * nanoseconds 500000000), plus the UTC offset in minutes (-1439..1439) that
 * RFC 3339 text was read with or is to be written with (the local time is
 * seconds + 60 * offset_minutes). POSIX time: no leap seconds (a parsed ":60"
 * is the second after ":59"). Initialise with CBOR_FAST_TIME_INIT. Since 0.4.
 */
typedef struct cbor_fast_time {
  uint32_t struct_size; /**< sizeof(cbor_fast_time), or 0 */
  int32_t offset_minutes;
  int64_t seconds;
  uint32_t nanoseconds;
} cbor_fast_time;
#define CBOR_FAST_TIME_INIT \
  { sizeof(cbor_fast_time), 0, 0, 0 }

/*
 * Statuses of the tag readers below: CBOR_FAST_ERR_INVALID_ARGUMENT (a NULL
 * argument, or a bad struct_size); CBOR_FAST_ERR_TYPE_MISMATCH (not the tag,
 * or its content not of the type, asked for); CBOR_FAST_ERR_OUT_OF_RANGE
 * (the right type but not a valid value: a bad RFC 3339 string, month 13,
 * February 29 of a common year, seconds beyond int64, a non-finite epoch, a
 * UUID that is not 16 bytes), with error->offset (optional) at the offending
 * input byte; for text content that offset counts the string's head at its
 * shortest size (exact for preferred serialization).
 */

/**
 * Parses RFC 3339 date-time text[0, size) ("1985-04-12T23:20:50.52Z",
 * "1996-12-19T16:39:57-08:00"): 'T'/'t', 'Z'/'z', 1 to 9 fraction digits,
 * offsets up to 23:59, seconds up to 60, days checked against the month.
 * @param error_pos  optional: the first bad character (size when text ends early)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT; CBOR_FAST_ERR_OUT_OF_RANGE. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_time_parse(const char* text, size_t size, cbor_fast_time* out,
                                               size_t* error_pos);
/**
 * Formats t as RFC 3339 at out[0, capacity) (no NUL; 35 bytes always suffice):
 * the local time of t->offset_minutes, then "Z" (offset 0) or "+HH:MM".
 * fraction_digits 0..9: that many digits (truncated); -1: as few as keep the
 * nanoseconds exactly. @return the length; 0 for a NULL argument, a year
 * outside 0..9999, bad fields or digits, or too little capacity. Since 0.4.
 */
CBOR_FAST_API size_t cbor_time_format(const cbor_fast_time* t, int fraction_digits, char* out,
                                      size_t capacity);
/**
 * Tag 0 (RFC 3339 text), 1 (epoch seconds: integer, or float whose fraction
 * becomes nanoseconds, rounded), 100 (days since the epoch) or 1004
 * (RFC 8943 full-date text): the time (for 100 and 1004 midnight UTC).
 * Statuses as above. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_node_get_time(const cbor_node* node, cbor_fast_time* out,
                                                  cbor_fast_error* error);
/** Tag 100 or 1004: days since 1970-01-01. Statuses as above. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_node_get_date(const cbor_node* node, int64_t* days,
                                                  cbor_fast_error* error);
/**
 * Tag 4 (decimal fraction, mantissa * 10^exponent) or 5 (bigfloat, mantissa *
 * 2^exponent) over [exponent, mantissa]: *tag, *exponent (an integer within
 * int64), and the mantissa as cbor_node_get_bignum() gives it (integer: *raw
 * and *negative, *magnitude NULL; bignum: the big-endian *magnitude view).
 * Statuses as above (a 3-element array: OUT_OF_RANGE). Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_node_get_decimal(const cbor_node* node, uint64_t* tag,
                                                     int64_t* exponent, uint64_t* raw,
                                                     const uint8_t** magnitude, size_t* size,
                                                     int* negative, cbor_fast_error* error);
/** Tag 37 over 16 bytes: *bytes points at them (in the document). Statuses as above. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_node_get_uuid(const cbor_node* node, const uint8_t** bytes,
                                                  cbor_fast_error* error);
/**
 * Tag 24 over a byte string: the embedded encoded item (decode it with
 * cbor_decode to read it). @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT;
 * CBOR_FAST_ERR_TYPE_MISMATCH. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_node_get_embedded(const cbor_node* node, const uint8_t** data,
                                                      size_t* size);
/** The node without any self-described CBOR tags (55799) around it; NULL for NULL. Since 0.4. */
CBOR_FAST_API const cbor_node* cbor_node_skip_self_described(const cbor_node* node);

/*
 * Tag writers. Each returns CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_ARGUMENT (NULL
 * writer or pointer, bad struct_size, a value these forms cannot carry:
 * nothing is written then); or what the writer returns.
 */
/** Tag 0 over cbor_time_format(t, fraction_digits) text. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_time_string(cbor_writer* writer, const cbor_fast_time* t,
                                                       int fraction_digits);
/**
 * Tag 1: the integer seconds when nanoseconds is 0, else the float seconds +
 * nanoseconds / 10^9 (a double: about microsecond precision today). Since 0.4.
 * Since 0.5 CBOR_FAST_ERR_INVALID_ARGUMENT also for a fraction whose double
 * rounds to 2^63 seconds or more (seconds within about 512 of INT64_MAX),
 * which cbor_node_get_time() could not read back.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_time_epoch(cbor_writer* writer, const cbor_fast_time* t);
/** Tag 100 over the integer days since 1970-01-01 (RFC 8943). Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_epoch_days(cbor_writer* writer, int64_t days);
/** Tag 1004 over "YYYY-MM-DD" (RFC 8943); years 0..9999. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_full_date(cbor_writer* writer, int64_t days);
/** Tag 4 (tag = 4) or 5 (tag = 5) over [exponent, mantissa]. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_decimal(cbor_writer* writer, uint64_t tag,
                                                   int64_t exponent, int64_t mantissa);
/**
 * As cbor_writer_decimal() with a big-endian mantissa magnitude (negative: the
 * mantissa is -1 - magnitude), an integer when it fits 64 bits. Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_decimal_bignum(cbor_writer* writer, uint64_t tag,
                                                          int64_t exponent,
                                                          const uint8_t* magnitude, size_t size,
                                                          int negative);
/** Tag 37 over the 16 bytes at uuid. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_uuid(cbor_writer* writer, const uint8_t* uuid);
/** Tag 55799 (d9 d9f7): the next item is marked as self-described CBOR. Since 0.4. */
CBOR_FAST_API cbor_fast_status cbor_writer_self_described(cbor_writer* writer);
/**
 * Wraps what follows in a byte string until cbor_writer_end_embedded():
 * with_tag != 0 writes tag 24 (embedded CBOR) first; 0 the bare byte string
 * (COSE protected headers and Sig_structure: bstr .cbor). Any number of
 * complete items (none gives h''). The closing call writes the head with the
 * shortest length, moving the content once. Every destination works: a caller
 * buffer (an output that fits never overflows on the way; when it does not
 * fit, cbor_writer_size() is still the exact size needed), the owned buffer,
 * and a sink, which is not called while a wrap is open (the staging buffer
 * grows to hold the wrapped bytes). While a wrap is open, cbor_writer_size()
 * (and the *size of a cbor_writer_finish() that fails with
 * CBOR_FAST_ERR_WRITER_UNCLOSED) counts the room reserved for its head: 9
 * bytes in the owned buffer and a sink's staging, 1 in a caller buffer.
 * Each close moves everything inside it, so wraps nested n deep move O(n^2)
 * bytes (160,000 levels: 1.7 s in a probe).
 * @return as cbor_writer_array(). Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_begin_embedded(cbor_writer* writer, int with_tag);
/**
 * Closes the innermost cbor_writer_begin_embedded() (cbor_writer_end() does too).
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_INVALID_STATE (not sticky) when the
 *         innermost open item is not a wrap; else as cbor_writer_end(). Since 0.4.
 */
CBOR_FAST_API cbor_fast_status cbor_writer_end_embedded(cbor_writer* writer);
/* JSON and diagnostic notation: text <-> CBOR (since 0.4)                     */
/* ========================================================================== */

/*
 * Flags of the CBOR -> JSON calls (cbor_reader_json, cbor_json_from_cbor):
 * KEEP_TAGS writes tags other than 2, 3 and 21-23 as {"tag":N,"value":X}
 * instead of dropping them. Flag of cbor_json_to_cbor: REJECT_DUPLICATE_KEYS
 * refuses an object with two equal member names (CBOR_FAST_ERR_DUPLICATE_KEY
 * at the second). Since 0.4.
 */
#define CBOR_FAST_JSON_NONE 0u
#define CBOR_FAST_JSON_KEEP_TAGS 1u
#define CBOR_FAST_JSON_REJECT_DUPLICATE_KEYS 2u

/*
 * Flags of the diagnostic-notation calls. Output (cbor_reader_diag,
 * cbor_diag_from_cbor): FLOAT_WIDTHS appends _1/_2/_3 to floats; INDICATORS
 * appends every encoding indicator (non-shortest heads as _0.._3, float
 * widths), so that cbor_diag_to_cbor() of the text gives back the same bytes
 * (NaN payloads aside, and text strings that are not valid UTF-8, printed as
 * they are and refused by the parser); PRETTY puts each array element and map entry on its
 * own line, indented by two spaces per level. Input (cbor_diag_to_cbor):
 * SEQUENCE accepts several items separated by commas or whitespace (RFC 8742).
 * Since 0.4.
 */
#define CBOR_FAST_DIAG_NONE 0u
#define CBOR_FAST_DIAG_FLOAT_WIDTHS 1u
#define CBOR_FAST_DIAG_INDICATORS 2u
#define CBOR_FAST_DIAG_PRETTY 4u
#define CBOR_FAST_DIAG_SEQUENCE 8u

/** Receives text output in chunks (not NUL-terminated); returns 0 on success,
 *  non-zero to stop with CBOR_FAST_ERR_SINK_FAILED. Since 0.4. */
typedef int (*cbor_fast_text_sink_fn)(void* context, const char* data, size_t size);

/**
 * Converts the reader's next complete data item to one JSON text (RFC 8949
 * section 6.1; no newline), streamed to sink in chunks of about 64 KiB: memory
 * stays bounded whatever the item's size. Rules: integers in decimal (any
 * 64-bit value of either sign); floats as the shortest text that reads back as
 * the same double, NaN and infinities as null; byte strings base64url without
 * padding (base64 inside tag 22, base16 inside tag 23, base64url again inside
 * tag 21; those tags are dropped); text as JSON strings (invalid UTF-8 gives
 * CBOR_FAST_ERR_INVALID_UTF8); indefinite strings joined; false/true/null as
 * themselves, undefined and other simple values as null; bignums (tag 2/3 over
 * at most 4300 decimal digits, what cbor_json_to_cbor() reads) as numbers, longer or indefinite ones as the RFC's
 * base64url string ("~" first for tag 3); other tags dropped (or kept, with
 * CBOR_FAST_JSON_KEEP_TAGS); a map key that is not a text string becomes the
 * JSON string of its diagnostic notation (1 -> "1", h'01' -> "h'01'"). The
 * reader's options apply (limits, strict checks). Never recurses.
 * @param reader   the reader (NULL: CBOR_FAST_ERR_INVALID_ARGUMENT)
 * @param flags    CBOR_FAST_JSON_* (unknown bits: CBOR_FAST_ERR_INVALID_ARGUMENT)
 * @param sink     receives the text (NULL: CBOR_FAST_ERR_INVALID_ARGUMENT)
 * @param error    receives the status and the byte offset in the CBOR input (may be NULL)
 * @return CBOR_FAST_OK; CBOR_FAST_END (nothing left at the top level);
 *         CBOR_FAST_NEED_MORE (a streaming reader whose buffer does not hold
 *         the whole item yet: nothing sent to sink, nothing consumed; feed and
 *         call again; before 0.5 a part of the item was printed);
 *         CBOR_FAST_ERR_INVALID_STATE (at the END of the enclosing container
 *         or indefinite string: no item there; nothing consumed, not sticky;
 *         since 0.5, before an internal error that consumed the END);
 *         CBOR_FAST_ERR_INVALID_UTF8; CBOR_FAST_ERR_SINK_FAILED;
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; or the reader's (sticky) error. On error the
 *         sink may have received part of the text.
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_reader_json(cbor_reader* reader, uint32_t flags,
                                                cbor_fast_text_sink_fn sink, void* context,
                                                cbor_fast_error* error);
/**
 * Prints the reader's next complete data item in diagnostic notation (RFC 8949
 * section 8; the style of Appendix A: h'..', [_ ..], 1(..), simple(16)),
 * streamed to sink as cbor_reader_json() does. Never recurses.
 * @param flags  CBOR_FAST_DIAG_FLOAT_WIDTHS, _INDICATORS, _PRETTY (others:
 *               CBOR_FAST_ERR_INVALID_ARGUMENT)
 * @return as cbor_reader_json() (no CBOR_FAST_ERR_INVALID_UTF8 of its own:
 *         text is printed as it is unless the reader validates it).
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_reader_diag(cbor_reader* reader, uint32_t flags,
                                                cbor_fast_text_sink_fn sink, void* context,
                                                cbor_fast_error* error);
/**
 * Converts exactly one CBOR data item in data[0, size) to JSON text (rules of
 * cbor_reader_json) in buffer[0, capacity), NUL-terminated when it fits. The
 * buffer is never overrun: on CBOR_FAST_ERR_BUFFER_TOO_SMALL *length tells the
 * text's length (call again with capacity > *length).
 * @param data     input; NULL only with size 0
 * @param buffer   output; NULL only with capacity 0 (to ask for the length)
 * @param length   receives the text length without the NUL (may be NULL)
 * @param error    offset of a failure in the input (may be NULL)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_BUFFER_TOO_SMALL; CBOR_FAST_ERR_TRUNCATED
 *         (no item); CBOR_FAST_ERR_TRAILING_BYTES (more after the item);
 *         CBOR_FAST_ERR_INVALID_ARGUMENT (also an error->struct_size no
 *         version has, *error unwritten); CBOR_FAST_ERR_INVALID_UTF8;
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; a not-well-formed error; or a limit of
 *         the default reader: CBOR_FAST_ERR_DEPTH past 512 levels,
 *         CBOR_FAST_ERR_CONTAINER_TOO_LARGE, CBOR_FAST_ERR_TOO_MANY_ITEMS
 *         (cbor_reader_json() on a configured reader takes other limits).
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_json_from_cbor(const void* data, size_t size, uint32_t flags,
                                                   char* buffer, size_t capacity, size_t* length,
                                                   cbor_fast_error* error);
/**
 * The same for diagnostic notation (flags CBOR_FAST_DIAG_FLOAT_WIDTHS,
 * _INDICATORS, _PRETTY), one item exactly.
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_diag_from_cbor(const void* data, size_t size, uint32_t flags,
                                                   char* buffer, size_t capacity, size_t* length,
                                                   cbor_fast_error* error);
/**
 * Parses one JSON text (RFC 8259, by simdjson) and writes it as one CBOR item
 * (RFC 8949 section 6.2) to writer, preferred serialization, definite lengths:
 * integers as major type 0/1 (beyond 64 bits as tag 2/3 bignums, up to 4300
 * digits), other numbers as the shortest float that holds the parsed double
 * exactly, strings as text, objects as maps in document order. Nothing reaches
 * the writer unless the whole text is valid.
 * @param json    the text (need not be NUL-terminated); NULL only with size 0
 * @param flags   CBOR_FAST_JSON_REJECT_DUPLICATE_KEYS or 0
 * @param writer  destination (NULL: CBOR_FAST_ERR_INVALID_ARGUMENT)
 * @param error   receives the status and the byte offset in the JSON text (may be NULL)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_SYNTAX_ERROR; CBOR_FAST_ERR_INVALID_UTF8;
 *         CBOR_FAST_ERR_DEPTH (more than 1024 levels); CBOR_FAST_ERR_OUT_OF_RANGE
 *         (a number beyond the double range or a longer integer);
 *         CBOR_FAST_ERR_DUPLICATE_KEY; CBOR_FAST_ERR_INVALID_ARGUMENT;
 *         CBOR_FAST_ERR_OUT_OF_MEMORY; or the writer's error.
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_json_to_cbor(const char* json, size_t size, uint32_t flags,
                                                 cbor_writer* writer, cbor_fast_error* error);
/**
 * Parses diagnostic notation (RFC 8949 section 8 and the EDN literals of RFC
 * 8610 Appendix G: h'', b64'', b32'', h32'', 'text', encoding indicators _0.._3
 * and _ for indefinite lengths, (_ ..) strings, << >> embedded CBOR, NaN,
 * Infinity, simple(N), N(..) tags, /comments/ and # comments) into CBOR in
 * buffer[0, capacity); never overrun: on CBOR_FAST_ERR_BUFFER_TOO_SMALL
 * *length is the size needed. Without indicators the shortest heads and
 * floats are written. Nesting beyond 512 levels gives CBOR_FAST_ERR_DEPTH; no
 * recursion.
 * @param text    the text; NULL only with size 0
 * @param flags   CBOR_FAST_DIAG_SEQUENCE or 0
 * @param buffer  output; NULL only with capacity 0
 * @param length  receives the encoded size (may be NULL)
 * @param error   the status and the byte offset in the text (may be NULL)
 * @return CBOR_FAST_OK; CBOR_FAST_ERR_BUFFER_TOO_SMALL; CBOR_FAST_ERR_SYNTAX_ERROR;
 *         CBOR_FAST_ERR_OUT_OF_RANGE; CBOR_FAST_ERR_INVALID_UTF8; CBOR_FAST_ERR_DEPTH;
 *         CBOR_FAST_ERR_INVALID_ARGUMENT; CBOR_FAST_ERR_OUT_OF_MEMORY.
 * @since 0.4
 */
CBOR_FAST_API cbor_fast_status cbor_diag_to_cbor(const char* text, size_t size, uint32_t flags,
                                                 uint8_t* buffer, size_t capacity, size_t* length,
                                                 cbor_fast_error* error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CBOR_FAST_H */
