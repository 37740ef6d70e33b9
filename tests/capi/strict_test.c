/*
 * The strict checks and limits of issue 5 through every C entry point:
 * cbor_reader_set (CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, _DETERMINISTIC and the
 * size limits), cbor_decode (CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS,
 * _DETERMINISTIC and the 0.2 fields of cbor_fast_decode_options) and cbor_seq
 * (options at creation, flags per call). Each row runs through all of them
 * and every one must give the same status and offset. Expected offsets are
 * counted from the bytes of each row, not taken from the library.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

#define DUP CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS
#define DET CBOR_FAST_DECODE_DETERMINISTIC

/* ========================================================================== */
/* A heap that counts blocks and bytes, checks sizes, and fails on demand     */
/* ========================================================================== */

/* Each block carries its size in a header, so free/realloc sizes are checked
 * without a table and any number of blocks can be live. */
#define HEAP_HEADER 16

typedef struct counting_heap {
  long fail_at;  /* the call (0-based) that returns NULL; -1: never */
  long calls;    /* malloc + realloc calls */
  long blocks;   /* successful mallocs minus frees */
  size_t live;   /* bytes held by the library now */
  size_t peak;   /* most bytes held at once since heap_mark() */
  int bad_sizes; /* free/realloc given a size other than the block's */
} counting_heap;

static void heap_init(counting_heap* h, long fail_at) {
  memset(h, 0, sizeof *h);
  h->fail_at = fail_at;
}

/* Starts a peak measurement from what is held now. */
static void heap_mark(counting_heap* h) { h->peak = h->live; }

static void heap_grew(counting_heap* h) {
  if (h->live > h->peak) h->peak = h->live;
}

static void* heap_malloc(void* context, size_t size) {
  counting_heap* h = (counting_heap*)context;
  unsigned char* p;
  if (h->calls++ == h->fail_at) return NULL;
  p = (unsigned char*)malloc(HEAP_HEADER + size);
  if (p == NULL) return NULL;
  memcpy(p, &size, sizeof size);
  ++h->blocks;
  h->live += size;
  heap_grew(h);
  return p + HEAP_HEADER;
}

static void* heap_realloc(void* context, void* ptr, size_t old_size, size_t new_size) {
  counting_heap* h = (counting_heap*)context;
  unsigned char* base = (unsigned char*)ptr - HEAP_HEADER;
  unsigned char* p;
  size_t held;
  memcpy(&held, base, sizeof held);
  if (held != old_size) ++h->bad_sizes;
  if (h->calls++ == h->fail_at) return NULL;
  p = (unsigned char*)realloc(base, HEAP_HEADER + new_size);
  if (p == NULL) return NULL;
  memcpy(p, &new_size, sizeof new_size);
  h->live = h->live - held + new_size;
  heap_grew(h);
  return p + HEAP_HEADER;
}

static void heap_free(void* context, void* ptr, size_t size) {
  counting_heap* h = (counting_heap*)context;
  unsigned char* base;
  size_t held;
  if (ptr == NULL) return;
  base = (unsigned char*)ptr - HEAP_HEADER;
  memcpy(&held, base, sizeof held);
  if (held != size) ++h->bad_sizes;
  --h->blocks;
  h->live -= held;
  free(base);
}

static cbor_fast_allocator heap_hooks(counting_heap* h) {
  cbor_fast_allocator a;
  a.malloc = heap_malloc;
  a.realloc = heap_realloc;
  a.free = heap_free;
  a.context = h;
  return a;
}

/* Everything handed out came back, with the sizes it was given. */
#define CHECK_HEAP_CLEAN(h)          \
  do {                               \
    CHECK_EQ_INT((h)->blocks, 0);    \
    CHECK_EQ_UINT((h)->live, 0);     \
    CHECK_EQ_INT((h)->bad_sizes, 0); \
  } while (0)

/* ========================================================================== */
/* Inputs                                                                     */
/* ========================================================================== */

/* Bytes built in code, for inputs too long to spell in hex. */
typedef struct bytes {
  uint8_t* data;
  size_t size;
  size_t cap;
} bytes;

static void put(bytes* b, uint8_t v) {
  if (b->size < b->cap) b->data[b->size] = v;
  ++b->size;
}

/* A head in its shortest form. */
static void put_head(bytes* b, unsigned major, uint64_t v) {
  const uint8_t m = (uint8_t)(major << 5);
  int n, i;
  if (v < 24) {
    put(b, (uint8_t)(m | v));
    return;
  }
  n = v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffffu ? 4 : 8;
  put(b, (uint8_t)(m | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27)));
  for (i = n - 1; i >= 0; --i) put(b, (uint8_t)(v >> (8 * i)));
}

static void put_text(bytes* b, const char* s) {
  size_t i, n = strlen(s);
  put_head(b, 3, n);
  for (i = 0; i < n; ++i) put(b, (uint8_t)s[i]);
}

static uint8_t g_big[1 << 18]; /* programmatic inputs */
static uint8_t g_hex[512];     /* hex rows */

static bytes big_buffer(void) {
  bytes b;
  b.data = g_big;
  b.size = 0;
  b.cap = sizeof g_big;
  return b;
}

/* ========================================================================== */
/* One input through every entry point                                        */
/* ========================================================================== */

/* What a row asks for: strict flags and the size limits (0: none). */
typedef struct limits {
  uint32_t flags; /* DUP and/or DET */
  uint64_t max_string_length;
  uint64_t max_container_items;
  uint64_t max_items;
} limits;

/* What one entry point did with the input. */
typedef struct outcome {
  cbor_fast_status code;
  size_t offset;
  size_t item_offset;
  uint32_t depth;
  long ok_items; /* reader only: next() calls that returned CBOR_FAST_OK */
} outcome;

static char g_label[200];
static const char* g_test = "";

/* Names the row and entry point in failure messages. */
static void label(const char* row, const char* entry) {
  snprintf(g_label, sizeof g_label, "%s: %s [%s]", g_test, row, entry);
  check_current_ = g_label;
}

static void set_reader_limits(cbor_reader* r, const limits* l) {
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, (l->flags & DUP) != 0),
               CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_DETERMINISTIC, (l->flags & DET) != 0),
               CBOR_FAST_OK);
  if (l->max_string_length != 0)
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, l->max_string_length),
                 CBOR_FAST_OK);
  if (l->max_container_items != 0)
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, l->max_container_items),
                 CBOR_FAST_OK);
  if (l->max_items != 0)
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, l->max_items), CBOR_FAST_OK);
}

static cbor_fast_decode_options decode_options_for(const limits* l) {
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  o.max_string_length = l->max_string_length;
  o.max_container_items = l->max_container_items;
  o.max_items = l->max_items;
  return o;
}

/* The input alone, or after the one-byte item 0x00 (`prefixed`): a copy the
 * caller frees. */
static uint8_t* copy_input(const uint8_t* in, size_t n, size_t prefixed) {
  uint8_t* buf = (uint8_t*)malloc(n + 1);
  if (buf == NULL) {
    fprintf(stderr, "out of memory in the test\n");
    exit(2);
  }
  buf[0] = 0x00;
  memcpy(buf + prefixed, in, n);
  return buf;
}

/* The reader, item by item with cbor_reader_next() (or by cbor_reader_skip()).
 * After the 0x00 prefix the row's offsets are reported minus 1 (so they
 * compare with the others); max_items is the row's, since it bounds each
 * top-level item (since 0.5; it counted the whole input before). */
static outcome run_reader(const uint8_t* in, size_t n, const limits* l, int by_skip, int prefixed) {
  outcome o = {CBOR_FAST_OK, 0, 0, 0, 0};
  const size_t p = prefixed ? 1 : 0;
  uint8_t* buf = copy_input(in, n, p);
  limits lp = *l;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_status s;
  cbor_reader* r = NULL;
  CHECK_STATUS(cbor_reader_new(buf, n + p, NULL, &r), CBOR_FAST_OK);
  set_reader_limits(r, &lp);
  while ((s = by_skip ? cbor_reader_skip(r) : cbor_reader_next(r, &it)) == CBOR_FAST_OK)
    ++o.ok_items;
  o.ok_items -= (long)p;
  if (s != CBOR_FAST_END) {
    CHECK_STATUS(cbor_reader_error(r, &e), s);
    CHECK_STATUS(e.code, s);
    CHECK_EQ_STR(e.message, cbor_status_string(s));
    o.code = s;
    o.offset = e.offset - p;
    o.item_offset = e.item_offset - p;
    o.depth = e.depth;
  }
  cbor_reader_free(r);
  free(buf);
  return o;
}

/* cbor_decode with EXACT (every row is one item) plus `extra` flags. */
static outcome run_decode(const uint8_t* in, size_t n, const limits* l, uint32_t extra) {
  outcome o = {CBOR_FAST_OK, 0, 0, 0, -1};
  cbor_fast_decode_options opt = decode_options_for(l);
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_doc* doc = (cbor_doc*)&o; /* must become NULL on failure */
  o.code = cbor_decode(in, n, l->flags | CBOR_FAST_DECODE_EXACT | extra, &opt, &doc, &e);
  CHECK_STATUS(e.code, o.code);
  CHECK_EQ_STR(e.message, cbor_status_string(o.code));
  if (o.code == CBOR_FAST_OK) {
    CHECK(doc != NULL);
    CHECK_EQ_UINT(cbor_doc_encoded_size(doc), n);
  } else {
    CHECK(doc == NULL);
    o.offset = e.offset;
    o.item_offset = e.item_offset;
    o.depth = e.depth;
  }
  cbor_doc_free(doc);
  return o;
}

/* cbor_seq over the input, or over the item 0x00 followed by the input
 * (`prefixed`): then the row's item starts at 1 and its offsets are reported
 * minus 1, so they compare with the others. as_doc: cbor_seq_next_doc. */
static outcome run_seq(const uint8_t* in, size_t n, const limits* l, int as_doc, int prefixed) {
  outcome o = {CBOR_FAST_OK, 0, 0, 0, -1};
  const size_t p = prefixed ? 1 : 0;
  cbor_fast_decode_options opt = decode_options_for(l);
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  uint8_t* buf = copy_input(in, n, p);
  cbor_seq* seq = NULL;
  cbor_doc* doc = NULL;
  size_t off = 99, len = 99;
  cbor_fast_status s;
  CHECK_STATUS(cbor_seq_new(buf, n + p, &opt, &seq), CBOR_FAST_OK);
  if (prefixed) {
    if (as_doc) {
      CHECK_STATUS(cbor_seq_next_doc(seq, l->flags, &doc), CBOR_FAST_OK);
      CHECK_EQ_UINT(cbor_doc_encoded_size(doc), 1);
      cbor_doc_free(doc);
      doc = NULL;
    } else {
      CHECK_STATUS(cbor_seq_next(seq, l->flags, &off, &len), CBOR_FAST_OK);
      CHECK_EQ_UINT(off, 0);
      CHECK_EQ_UINT(len, 1);
    }
  }
  s = as_doc ? cbor_seq_next_doc(seq, l->flags, &doc) : cbor_seq_next(seq, l->flags, &off, &len);
  o.code = s;
  if (s == CBOR_FAST_OK) {
    if (as_doc) {
      CHECK(doc != NULL);
      CHECK_EQ_UINT(cbor_doc_encoded_size(doc), p + n); /* the offset just past it */
      cbor_doc_free(doc);
      CHECK_STATUS(cbor_seq_next_doc(seq, l->flags, &doc), CBOR_FAST_END);
    } else {
      CHECK_EQ_UINT(off, p);
      CHECK_EQ_UINT(len, n);
      CHECK_STATUS(cbor_seq_next(seq, l->flags, &off, &len), CBOR_FAST_END);
    }
  } else {
    if (as_doc) CHECK(doc == NULL);
    CHECK_STATUS(cbor_seq_error(seq, &e), s);
    CHECK_EQ_STR(e.message, cbor_status_string(s));
    o.offset = e.offset - p;
    o.item_offset = e.item_offset - p;
    o.depth = e.depth;
    /* Sticky, for both calls. */
    CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), s);
    CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), s);
  }
  cbor_seq_free(seq);
  free(buf);
  return o;
}

static void check_outcome(const outcome* got, cbor_fast_status code, size_t offset) {
  CHECK_STATUS(got->code, code);
  if (code != CBOR_FAST_OK) {
    CHECK_EQ_UINT(got->offset, offset);
    CHECK_EQ_UINT(got->item_offset, 0);
  }
}

/*
 * Runs one input through the reader (next, alone and after another item;
 * skip), cbor_decode (strings as views and copied), cbor_seq_next and
 * cbor_seq_next_doc (alone and after another item) and checks each gives
 * `code` at `offset` (item_offset 0, or 1 after the prefix; the same depth
 * everywhere). ok_items >= 0: the number of cbor_reader_next() calls that
 * succeed first. max_items bounds the items of each top-level item, whether
 * cbor_seq_next only checks it or cbor_seq_next_doc builds a document.
 */
static void check_everywhere(const char* name, const uint8_t* in, size_t n, const limits* l,
                             cbor_fast_status code, size_t offset, long ok_items) {
  outcome next, got;
  int prefixed;

  label(name, "reader next");
  next = run_reader(in, n, l, 0, 0);
  check_outcome(&next, code, offset);
  if (ok_items >= 0) CHECK_EQ_INT(next.ok_items, ok_items);

  label(name, "reader next after 00");
  got = run_reader(in, n, l, 0, 1);
  check_outcome(&got, code, offset);
  if (ok_items >= 0) CHECK_EQ_INT(got.ok_items, ok_items);
  CHECK_EQ_UINT(got.depth, next.depth);

  label(name, "reader skip");
  got = run_reader(in, n, l, 1, 0);
  check_outcome(&got, code, offset);
  CHECK_EQ_UINT(got.depth, next.depth);

  label(name, "cbor_decode");
  got = run_decode(in, n, l, 0);
  check_outcome(&got, code, offset);
  CHECK_EQ_UINT(got.depth, next.depth);

  label(name, "cbor_decode COPY_STRINGS");
  got = run_decode(in, n, l, CBOR_FAST_DECODE_COPY_STRINGS);
  check_outcome(&got, code, offset);
  CHECK_EQ_UINT(got.depth, next.depth);

  for (prefixed = 0; prefixed <= 1; ++prefixed) {
    label(name, prefixed ? "cbor_seq_next after 00" : "cbor_seq_next");
    got = run_seq(in, n, l, 0, prefixed);
    check_outcome(&got, code, offset);
    CHECK_EQ_UINT(got.depth, next.depth);

    label(name, prefixed ? "cbor_seq_next_doc after 00" : "cbor_seq_next_doc");
    got = run_seq(in, n, l, 1, prefixed);
    check_outcome(&got, code, offset);
    CHECK_EQ_UINT(got.depth, next.depth);
  }
  check_current_ = g_test;
}

/* A row of hex: strict flags, expected status, offset and successful next() calls. */
typedef struct strict_row {
  const char* name;
  const char* hex;
  uint32_t flags;
  cbor_fast_status code;
  size_t offset;
  long ok_items; /* -1: the call that reports it is not specified */
} strict_row;

static void run_strict_rows(const strict_row* rows, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) {
    limits l = {0, 0, 0, 0};
    const size_t n = unhex(rows[i].hex, g_hex, sizeof g_hex);
    l.flags = rows[i].flags;
    check_everywhere(rows[i].name, g_hex, n, &l, rows[i].code, rows[i].offset, rows[i].ok_items);
    /* The checks are off by default: every row is well-formed. */
    l.flags = 0;
    check_everywhere(rows[i].name, g_hex, n, &l, CBOR_FAST_OK, 0, -1);
  }
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define S_OK CBOR_FAST_OK
#define S_DUP CBOR_FAST_ERR_DUPLICATE_KEY
#define S_NP CBOR_FAST_ERR_NOT_PREFERRED
#define S_INDEF CBOR_FAST_ERR_INDEFINITE_LENGTH
#define S_UNSORTED CBOR_FAST_ERR_UNSORTED_KEYS

/* ========================================================================== */
/* cbor_reader_set: the two new options                                       */
/* ========================================================================== */

static void test_option_values(void) {
  static const cbor_fast_option options[] = {CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS,
                                             CBOR_FAST_OPT_DETERMINISTIC};
  /* {1: 0, 1: 0}: a duplicate (both options) at offset 3. */
  static const uint8_t twice[] = {0xa2, 0x01, 0x00, 0x01, 0x00};
  size_t i;
  for (i = 0; i < COUNT(options); ++i) {
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    cbor_reader* r = NULL;
    CHECK_STATUS(cbor_reader_new(twice, sizeof twice, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, options[i], 0), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, options[i], 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, options[i], 2), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_reader_set(r, options[i], UINT64_MAX), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_reader_set(NULL, options[i], 1), CBOR_FAST_ERR_INVALID_ARGUMENT);
    /* A refused value leaves the option as it was (1). */
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_ERR_DUPLICATE_KEY);
    CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_DUPLICATE_KEY);
    CHECK_EQ_UINT(e.offset, 3);
    CHECK_EQ_UINT(e.item_offset, 0);
    /* 0 turns it off again; reset keeps options. */
    CHECK_STATUS(cbor_reader_set(r, options[i], 0), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_reset(r, twice, sizeof twice), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, options[i], 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_reset(r, twice, sizeof twice), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_skip(r), CBOR_FAST_ERR_DUPLICATE_KEY);
    cbor_reader_free(r);
  }
  {
    /* The option after the last one is unknown. */
    cbor_reader* r = NULL;
    CHECK_STATUS(cbor_reader_new(twice, sizeof twice, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, (cbor_fast_option)9, 0), CBOR_FAST_ERR_INVALID_ARGUMENT);
    cbor_reader_free(r);
  }
}

/* ========================================================================== */
/* Duplicate keys                                                             */
/* ========================================================================== */

static void test_duplicate_keys(void) {
  static const strict_row rows[] = {
      /* Equal by value: the second key's head; a single-item key is refused
       * instead of being returned, so the map, key and value come first. */
      {"text key twice", "a2 6161 00 6161 01", DUP, S_DUP, 4, 3},
      {"int key, second in a 2-byte head", "a2 01 00 1801 00", DUP, S_DUP, 3, 3},
      {"int key, second in a 9-byte head", "a2 01 00 1b0000000000000001 00", DUP, S_DUP, 3, 3},
      {"negative key, second in a 2-byte head", "a2 20 00 3800 00", DUP, S_DUP, 3, 3},
      {"half and double 1.0", "a2 f93c00 00 fb3ff0000000000000 00", DUP, S_DUP, 5, 3},
      {"single and half 1.0", "a2 fa3f800000 00 f93c00 00", DUP, S_DUP, 7, 3},
      {"simple false twice", "a2 f4 00 f4 00", DUP, S_DUP, 3, 3},
      {"indefinite map", "bf 01 00 01 00 ff", DUP, S_DUP, 3, 3},
      {"third key equals the first", "a3 01 00 02 00 01 00", DUP, S_DUP, 5, 5},
      /* Equal in the data model (0.4): maps as unordered maps (refused when
       * the value starts: 14 items first), 0.0 and -0.0, NaN payloads, a
       * bignum and the integer of the same value. */
      {"maps with their entries in another order", "a2 a2 0100 0200 00 a2 0200 0100 00", DUP, S_DUP,
       7, 14},
      {"0.0 and -0.0", "a2 f90000 00 f98000 00", DUP, S_DUP, 5, 3},
      {"NaN and NaN with a payload", "a2 f97e00 00 fa7fc00001 00", DUP, S_DUP, 5, 3},
      {"bignum 1 and 1", "a2 c24101 00 01 00", DUP, S_DUP, 5, 4},
      /* "ab" then (_ "a" "b"): multi-item key, refused when its value starts
       * (map, "ab", 0, start, "a", "b", end: 7 items first). */
      {"definite then indefinite string", "a2 626162 00 7f 6161 6162 ff 00", DUP, S_DUP, 5, 7},
      {"indefinite then definite string", "a2 7f 6161 6162 ff 00 626162 00", DUP, S_DUP, 8, 6},
      {"empty string, definite then indefinite", "a2 60 00 7f ff 00", DUP, S_DUP, 3, 5},
      /* [1,2] twice: map, [, 1, 2, end, 0, [, 1, 2, end, then the value fails. */
      {"array key [1,2] twice", "a2 820102 00 820102 00", DUP, S_DUP, 5, 10},
      {"array key, second with a 2-byte 1", "a2 820102 00 82 1801 02 00", DUP, S_DUP, 5, 10},
      {"map key {1:0} twice", "a2 a10100 00 a10100 01", DUP, S_DUP, 5, 10},
      {"tag key 1(1) twice", "a2 c101 00 c101 00", DUP, S_DUP, 4, 6},
      /* Nesting: each map has its own keys. */
      {"duplicate in the nested map", "a1 01 a2 02 00 02 01", DUP, S_DUP, 5, 5},
      {"outer key repeated after a nested map", "a2 01 a1 02 00 01 00", DUP, S_DUP, 5, 6},
      {"same key in inner and outer map", "a2 01 a1 01 00 02 00", DUP, S_OK, 0, -1},
      {"inner key reused by the outer map", "a2 01 a1 02 00 02 00", DUP, S_OK, 0, -1},
      {"same key in sibling maps", "82 a1 01 00 a1 01 00", DUP, S_OK, 0, -1},
      {"same key in a map inside a key", "a2 a1 01 00 00 01 00", DUP, S_OK, 0, -1},
      /* Not equal. */
      {"int 1 and float 1.0", "a2 01 00 f93c00 00", DUP, S_OK, 0, -1},
      {"uint 0 and negative -1", "a2 00 00 20 00", DUP, S_OK, 0, -1},
      {"bytes and text \"a\"", "a2 4161 00 6161 00", DUP, S_OK, 0, -1},
      {"\"a\" and \"ab\"", "a2 6161 00 626162 00", DUP, S_OK, 0, -1},
      {"[1,2] and [2,1]", "a2 820102 00 820201 00", DUP, S_OK, 0, -1},
      {"[1] and [1,2]", "a2 8101 00 820102 00", DUP, S_OK, 0, -1},
      {"tags 1(1) and 2(1)", "a2 c101 00 c201 00", DUP, S_OK, 0, -1},
      {"equal values are fine", "a2 01 00 02 00", DUP, S_OK, 0, -1},
  };
  run_strict_rows(rows, COUNT(rows));
}

/* 1000 distinct keys (uint or "k000".."k999", both in increasing bytewise
 * order), then optionally a 1001st key equal to the first. */
static size_t build_wide_map(int text_keys, int repeat_first, size_t* last_key_offset) {
  bytes b = big_buffer();
  unsigned i;
  char key[8];
  put_head(&b, 5, repeat_first ? 1001 : 1000);
  for (i = 0; i < 1000; ++i) {
    *last_key_offset = b.size;
    if (text_keys) {
      snprintf(key, sizeof key, "k%03u", i);
      put_text(&b, key);
    } else {
      put_head(&b, 0, i);
    }
    put_head(&b, 0, i % 24);
  }
  if (repeat_first) {
    *last_key_offset = b.size;
    if (text_keys)
      put_text(&b, "k000");
    else
      put_head(&b, 0, 0);
    put_head(&b, 0, 0);
  }
  CHECK(b.size <= b.cap);
  return b.size;
}

static void test_duplicate_keys_wide_map(void) {
  /* DUP alone looks keys up in the hash table; with DET the order alone
   * proves them distinct. Neither may see a duplicate that is not there. */
  static const uint32_t flags[] = {DUP, DUP | DET};
  limits l = {0, 0, 0, 0};
  size_t last = 0, n, f;
  for (f = 0; f < COUNT(flags); ++f) {
    l.flags = flags[f];
    n = build_wide_map(0, 0, &last);
    check_everywhere("1000 uint keys", g_big, n, &l, S_OK, 0, -1);
    n = build_wide_map(1, 0, &last);
    check_everywhere("1000 text keys", g_big, n, &l, S_OK, 0, -1);
  }
  /* The map head, then 1000 keys and values. */
  l.flags = DUP;
  n = build_wide_map(0, 1, &last);
  CHECK_EQ_UINT(last, n - 2); /* key 0 and value 0, one byte each */
  check_everywhere("1001st uint key repeats the first", g_big, n, &l, S_DUP, last, 2001);
  n = build_wide_map(1, 1, &last);
  CHECK_EQ_UINT(last, n - 6); /* 64 6b303030 00 */
  check_everywhere("1001st text key repeats the first", g_big, n, &l, S_DUP, last, 2001);
}

/* ========================================================================== */
/* Deterministic encoding                                                     */
/* ========================================================================== */

static void test_deterministic_heads(void) {
  static const strict_row rows[] = {
      /* Integer heads: each length boundary from both sides. */
      {"uint 23 in 1 byte", "17", DET, S_OK, 0, -1},
      {"uint 23 in 2 bytes", "1817", DET, S_NP, 0, 0},
      {"uint 5 in 2 bytes", "1805", DET, S_NP, 0, 0},
      {"uint 24 in 2 bytes", "1818", DET, S_OK, 0, -1},
      {"uint 255 in 3 bytes", "1900ff", DET, S_NP, 0, 0},
      {"uint 256 in 3 bytes", "190100", DET, S_OK, 0, -1},
      {"uint 65535 in 5 bytes", "1a0000ffff", DET, S_NP, 0, 0},
      {"uint 65536 in 5 bytes", "1a00010000", DET, S_OK, 0, -1},
      {"uint 2^32-1 in 9 bytes", "1b00000000ffffffff", DET, S_NP, 0, 0},
      {"uint 2^32 in 9 bytes", "1b0000000100000000", DET, S_OK, 0, -1},
      {"negative -24 in 2 bytes", "3817", DET, S_NP, 0, 0},
      {"negative -25 in 2 bytes", "3818", DET, S_OK, 0, -1},
      {"inside an array", "82 01 1805", DET, S_NP, 2, 2},
      {"map key", "a1 1801 00", DET, S_NP, 1, 1},
      {"map value", "a1 01 1801", DET, S_NP, 2, 2},
      /* Lengths and tags. */
      {"text length 1 in 2 bytes", "7801 61", DET, S_NP, 0, 0},
      {"bytes length 0 in 2 bytes", "5800", DET, S_NP, 0, 0},
      {"array length 1 in 2 bytes", "9801 00", DET, S_NP, 0, 0},
      {"map length 1 in 2 bytes", "b801 00 00", DET, S_NP, 0, 0},
      {"map length 1 in 3 bytes", "b90001 00 00", DET, S_NP, 0, 0},
      {"tag 1 in 2 bytes", "d801 00", DET, S_NP, 0, 0},
      {"tag 24 in 2 bytes", "d818 40", DET, S_OK, 0, -1},
      {"tag content", "c1 1801", DET, S_NP, 1, 1},
      /* Floats: the shortest width that holds the value exactly. */
      {"half 1.0", "f93c00", DET, S_OK, 0, -1},
      {"single 1.0", "fa3f800000", DET, S_NP, 0, 0},
      {"double 1.0", "fb3ff0000000000000", DET, S_NP, 0, 0},
      {"single 1+2^-23 (needs single)", "fa3f800001", DET, S_OK, 0, -1},
      {"double 1+2^-23 (fits single)", "fb3ff0000020000000", DET, S_NP, 0, 0},
      {"double 1+2^-52 (needs double)", "fb3ff0000000000001", DET, S_OK, 0, -1},
      {"single 65504 (largest half)", "fa477fe000", DET, S_NP, 0, 0},
      {"single 65536 (past half)", "fa47800000", DET, S_OK, 0, -1},
      {"single 2^-24 (smallest half subnormal)", "fa33800000", DET, S_NP, 0, 0},
      {"single 2^-25 (below half)", "fa33000000", DET, S_OK, 0, -1},
      {"half -0.0", "f98000", DET, S_OK, 0, -1},
      {"double -0.0", "fb8000000000000000", DET, S_NP, 0, 0},
      {"double infinity", "fb7ff0000000000000", DET, S_NP, 0, 0},
      {"float key", "a1 fa3f800000 00", DET, S_NP, 1, 1},
      /* NaN: the payload is kept, so it decides the width. */
      {"half NaN", "f97e00", DET, S_OK, 0, -1},
      {"single NaN", "fa7fc00000", DET, S_NP, 0, 0},
      {"double NaN", "fb7ff8000000000000", DET, S_NP, 0, 0},
      {"half NaN with payload", "f97e01", DET, S_OK, 0, -1},
      {"single NaN, payload fits half", "fa7fc02000", DET, S_NP, 0, 0},
      {"single NaN, payload needs single", "fa7fc01000", DET, S_OK, 0, -1},
      {"double NaN, payload needs double", "fb7ff8000000000001", DET, S_OK, 0, -1},
      /* Indefinite lengths, at their head. */
      {"indefinite array", "9f ff", DET, S_INDEF, 0, 0},
      {"indefinite map", "bf ff", DET, S_INDEF, 0, 0},
      {"indefinite bytes", "5f ff", DET, S_INDEF, 0, 0},
      {"indefinite text", "7f 6161 ff", DET, S_INDEF, 0, 0},
      {"nested indefinite array", "81 9f ff", DET, S_INDEF, 1, 1},
      {"indefinite map value", "a1 01 9f ff", DET, S_INDEF, 2, 2},
      {"indefinite key", "a1 7f ff 00", DET, S_INDEF, 1, 1},
  };
  run_strict_rows(rows, COUNT(rows));
}

static void test_deterministic_key_order(void) {
  static const strict_row rows[] = {
      {"keys 1, 2", "a2 01 00 02 00", DET, S_OK, 0, -1},
      {"keys 2, 1", "a2 02 00 01 00", DET, S_UNSORTED, 3, 3},
      {"keys 1, 3, 2", "a3 01 00 03 00 02 00", DET, S_UNSORTED, 5, 5},
      /* By encoding, not by value: 10 (0x0a) before -1 (0x20). */
      {"10 before -1", "a2 0a 00 20 00", DET, S_OK, 0, -1},
      {"-1 before 10", "a2 20 00 0a 00", DET, S_UNSORTED, 3, 3},
      {"1 before \"b\"", "a2 01 00 6162 00", DET, S_OK, 0, -1},
      {"\"b\" before 1", "a2 6162 00 01 00", DET, S_UNSORTED, 4, 3},
      /* Bytewise, not length first: 24 (18 18) before -1 (20); "b" before "aa". */
      {"24 before -1", "a2 1818 00 20 00", DET, S_OK, 0, -1},
      {"-1 before 24", "a2 20 00 1818 00", DET, S_UNSORTED, 3, 3},
      {"\"b\" before \"aa\"", "a2 6162 00 626161 00", DET, S_OK, 0, -1},
      {"\"aa\" before \"b\"", "a2 626161 00 6162 00", DET, S_UNSORTED, 5, 3},
      {"[1] (81) after [1,2] (82)", "a2 820102 00 8101 00", DET, S_UNSORTED, 5, -1},
      /* Equal keys are duplicates, not unsorted. */
      {"keys 1, 1", "a2 01 00 01 00", DET, S_DUP, 3, 3},
      {"keys 1, 2, 2", "a3 01 00 02 00 02 00", DET, S_DUP, 5, 5},
      {"keys 1, 1 with both checks", "a2 01 00 01 00", DET | DUP, S_DUP, 3, 3},
      /* Each map has its own order. */
      {"nested map unsorted", "a1 01 a2 02 00 01 00", DET, S_UNSORTED, 5, 5},
      {"outer order ignores inner keys", "a2 01 a1 05 00 02 00", DET, S_OK, 0, -1},
      {"sibling maps", "82 a2 01 00 02 00 a2 01 00 02 00", DET, S_OK, 0, -1},
  };
  run_strict_rows(rows, COUNT(rows));
}

/* RFC 8949 Appendix A: the rows in deterministic encoding pass with both
 * checks; the others fail where they first leave it. */
static void test_deterministic_appendix_a(void) {
  static const char* const deterministic[] = {
      "00",
      "01",
      "0a",
      "17",
      "1818",
      "1819",
      "1864",
      "1903e8",
      "1a000f4240",
      "1b000000e8d4a51000",
      "1bffffffffffffffff",
      "c249010000000000000000",
      "3bffffffffffffffff",
      "c349010000000000000000",
      "20",
      "29",
      "3863",
      "3903e7",
      "f90000",
      "f98000",
      "f93c00",
      "fb3ff199999999999a",
      "f93e00",
      "f97bff",
      "fa47c35000",
      "fa7f7fffff",
      "fb7e37e43c8800759c",
      "f90001",
      "f90400",
      "f9c400",
      "fbc010666666666666",
      "f97c00",
      "f97e00",
      "f9fc00",
      "f4",
      "f5",
      "f6",
      "f7",
      "f0",
      "f8ff",
      "c074323031332d30332d32315432303a30343a30305a",
      "c11a514b67b0",
      "c1fb41d452d9ec200000",
      "d74401020304",
      "d818456449455446",
      "d82076687474703a2f2f7777772e6578616d706c652e636f6d",
      "40",
      "4401020304",
      "60",
      "6161",
      "6449455446",
      "62225c",
      "62c3bc",
      "63e6b0b4",
      "64f0908591",
      "80",
      "83010203",
      "8301820203820405",
      "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
      "a0",
      "a201020304",
      "a26161016162820203",
      "826161a161626163",
      "a56161614161626142616361436164614461656145",
  };
  static const strict_row not_deterministic[] = {
      {"Infinity as single", "fa7f800000", DET | DUP, S_NP, 0, 0},
      {"NaN as single", "fa7fc00000", DET | DUP, S_NP, 0, 0},
      {"-Infinity as single", "faff800000", DET | DUP, S_NP, 0, 0},
      {"Infinity as double", "fb7ff0000000000000", DET | DUP, S_NP, 0, 0},
      {"NaN as double", "fb7ff8000000000000", DET | DUP, S_NP, 0, 0},
      {"-Infinity as double", "fbfff0000000000000", DET | DUP, S_NP, 0, 0},
      {"(_ h'0102', h'030405')", "5f42010243030405ff", DET | DUP, S_INDEF, 0, 0},
      {"(_ \"strea\", \"ming\")", "7f657374726561646d696e67ff", DET | DUP, S_INDEF, 0, 0},
      {"[_ ]", "9fff", DET | DUP, S_INDEF, 0, 0},
      {"[1, [2, 3], [_ 4, 5]]", "83018202039f0405ff", DET | DUP, S_INDEF, 5, 6},
      {"[1, [_ 2, 3], [4, 5]]", "83019f0203ff820405", DET | DUP, S_INDEF, 2, 2},
      {"{_ \"a\": 1, \"b\": [_ 2, 3]}", "bf61610161629f0203ffff", DET | DUP, S_INDEF, 0, 0},
      {"[\"a\", {_ \"b\": \"c\"}]", "826161bf61626163ff", DET | DUP, S_INDEF, 3, 2},
  };
  size_t i;
  for (i = 0; i < COUNT(deterministic); ++i) {
    limits l = {DET | DUP, 0, 0, 0};
    const size_t n = unhex(deterministic[i], g_hex, sizeof g_hex);
    check_everywhere(deterministic[i], g_hex, n, &l, S_OK, 0, -1);
  }
  run_strict_rows(not_deterministic, COUNT(not_deterministic));
}

/* Flags are per call on a sequence: the same bytes pass, then fail. */
static void test_sequence_flags_per_call(void) {
  /* {1: 0, 1: 0} twice: the second copy starts at 5, its duplicate at 8. */
  static const uint8_t twice[] = {0xa2, 0x01, 0x00, 0x01, 0x00, 0xa2, 0x01, 0x00, 0x01, 0x00};
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_seq* seq = NULL;
  cbor_doc* doc = NULL;
  size_t off = 0, len = 0;
  CHECK_STATUS(cbor_seq_new(twice, sizeof twice, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_OK);
  CHECK_EQ_UINT(off, 0);
  CHECK_EQ_UINT(len, 5);
  CHECK_STATUS(cbor_seq_next(seq, DUP, &off, &len), CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_EQ_UINT(e.offset, 8);
  CHECK_EQ_UINT(e.item_offset, 5);
  cbor_seq_free(seq);

  CHECK_STATUS(cbor_seq_new(twice, sizeof twice, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_node_size(cbor_doc_root(doc)), 2);
  cbor_doc_free(doc);
  CHECK_STATUS(cbor_seq_next_doc(seq, DET, &doc), CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_DUPLICATE_KEY);
  CHECK_EQ_UINT(e.offset, 8);
  CHECK_EQ_UINT(e.item_offset, 5);
  cbor_seq_free(seq);
}

/* ========================================================================== */
/* Flags of cbor_decode and cbor_seq                                          */
/* ========================================================================== */

static void test_flag_values(void) {
  static const uint8_t one[] = {0x01};
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_doc* doc = NULL;
  cbor_seq* seq = NULL;
  size_t off = 0, len = 0;
  CHECK_EQ_UINT(DUP, 8);
  CHECK_EQ_UINT(DET, 16);
  /* Every known flag together is accepted; bit 32 is not. */
  CHECK_STATUS(cbor_decode(one, 1, 31u, NULL, &doc, &e), CBOR_FAST_OK);
  cbor_doc_free(doc);
  doc = (cbor_doc*)&e;
  CHECK_STATUS(cbor_decode(one, 1, 32u, NULL, &doc, &e), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_decode(one, 1, DUP | DET | 32u, NULL, &doc, &e),
               CBOR_FAST_ERR_INVALID_ARGUMENT);

  CHECK_STATUS(cbor_seq_new(one, 1, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 32u, &off, &len), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_next_doc(seq, 32u, &doc), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  /* A bad flag is the call's mistake, not the item's: nothing sticks. */
  CHECK_STATUS(cbor_seq_next(seq, DUP | DET, &off, &len), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, DUP | DET, &off, &len), CBOR_FAST_END);
  cbor_seq_free(seq);
}

/* ========================================================================== */
/* Size limits                                                                */
/* ========================================================================== */

typedef struct limit_row {
  const char* name;
  const char* hex;
  uint64_t max_string_length;
  uint64_t max_container_items;
  uint64_t max_items;
  cbor_fast_status code;
  size_t offset;
  long ok_items;
} limit_row;

/* Each row runs without flags (cbor_decode's fast path) and with
 * REJECT_DUPLICATE_KEYS (its reader path; no row has a duplicate). */
static void run_limit_rows(const limit_row* rows, size_t count) {
  size_t i;
  for (i = 0; i < count; ++i) {
    limits l;
    const size_t n = unhex(rows[i].hex, g_hex, sizeof g_hex);
    l.flags = 0;
    l.max_string_length = rows[i].max_string_length;
    l.max_container_items = rows[i].max_container_items;
    l.max_items = rows[i].max_items;
    check_everywhere(rows[i].name, g_hex, n, &l, rows[i].code, rows[i].offset, rows[i].ok_items);
    l.flags = DUP;
    check_everywhere(rows[i].name, g_hex, n, &l, rows[i].code, rows[i].offset, rows[i].ok_items);
  }
}

#define S_LONG CBOR_FAST_ERR_STRING_TOO_LONG
#define S_LARGE CBOR_FAST_ERR_CONTAINER_TOO_LARGE
#define S_MANY CBOR_FAST_ERR_TOO_MANY_ITEMS
#define TEN "30313233343536373839" /* "0123456789" */
#define FIVE "3031323334"

static void test_max_string_length(void) {
  static const limit_row rows[] = {
      {"10-byte string, limit 9", "4a" TEN, 9, 0, 0, S_LONG, 0, 0},
      {"10-byte string, limit 10", "4a" TEN, 10, 0, 0, S_OK, 0, -1},
      {"10-byte text, limit 9", "6a" TEN, 9, 0, 0, S_LONG, 0, 0},
      {"10-byte string in an array, limit 9", "82 00 4a" TEN, 9, 0, 0, S_LONG, 2, 2},
      {"10-byte map key, limit 9", "a1 6a" TEN " 00", 9, 0, 0, S_LONG, 1, 1},
      /* Chunks of 5, 5 and 1 at 1, 7 and 13: the joined total crosses 10 at
       * the third and 9 at the second. */
      {"chunks 5+5+1, limit 11", "5f 45" FIVE " 45" FIVE " 4130 ff", 11, 0, 0, S_OK, 0, -1},
      {"chunks 5+5+1, limit 10", "5f 45" FIVE " 45" FIVE " 4130 ff", 10, 0, 0, S_LONG, 13, 3},
      {"chunks 5+5+1, limit 9", "5f 45" FIVE " 45" FIVE " 4130 ff", 9, 0, 0, S_LONG, 7, 2},
      {"text chunks 5+5+1, limit 10", "7f 65" FIVE " 65" FIVE " 6130 ff", 10, 0, 0, S_LONG, 13, 3},
      {"one chunk over the limit", "5f 4a" TEN " ff", 9, 0, 0, S_LONG, 1, 1},
      /* Each joined string starts from 0: two of 5 at 1 and 9, limit 5. */
      {"two joined strings of 5, limit 5", "82 5f 45" FIVE " ff 5f 45" FIVE " ff", 5, 0, 0, S_OK, 0,
       -1},
      {"two joined strings of 5, limit 4", "82 5f 45" FIVE " ff 5f 45" FIVE " ff", 4, 0, 0, S_LONG,
       2, 2},
  };
  run_limit_rows(rows, COUNT(rows));
}

static void test_max_container_items(void) {
  static const limit_row rows[] = {
      {"array of 5, limit 4", "85 01 02 03 04 05", 0, 4, 0, S_LARGE, 0, 0},
      {"array of 5, limit 5", "85 01 02 03 04 05", 0, 5, 0, S_OK, 0, -1},
      {"map of 5 pairs, limit 4", "a5 0100 0200 0300 0400 0500", 0, 4, 0, S_LARGE, 0, 0},
      {"map of 5 pairs, limit 5", "a5 0100 0200 0300 0400 0500", 0, 5, 0, S_OK, 0, -1},
      {"map of 4 pairs (8 items), limit 4", "a4 0100 0200 0300 0400", 0, 4, 0, S_OK, 0, -1},
      /* Indefinite: at the head of the entry that goes over. */
      {"indefinite array of 5, limit 4", "9f 01 02 03 04 05 ff", 0, 4, 0, S_LARGE, 5, 5},
      {"indefinite array of 4, limit 4", "9f 01 02 03 04 ff", 0, 4, 0, S_OK, 0, -1},
      {"indefinite map of 5 pairs, limit 4", "bf 0100 0200 0300 0400 0500 ff", 0, 4, 0, S_LARGE, 9,
       9},
      {"inner array of 5, limit 4", "82 85 01 02 03 04 05 00", 0, 4, 0, S_LARGE, 1, 1},
      {"string chunks are no entries", "5f 4161 4161 4161 ff", 0, 2, 0, S_OK, 0, -1},
  };
  run_limit_rows(rows, COUNT(rows));
}

static void test_max_items(void) {
  static const limit_row rows[] = {
      {"3 items, limit 2", "82 01 02", 0, 0, 2, S_MANY, 2, 2},
      {"3 items, limit 3", "82 01 02", 0, 0, 3, S_OK, 0, -1},
      {"key and value count", "a1 01 02", 0, 0, 2, S_MANY, 2, 2},
      {"a tag counts", "c1 01", 0, 0, 1, S_MANY, 1, 1},
      {"chunks count", "5f 4161 4162 ff", 0, 0, 2, S_MANY, 3, 2},
      {"breaks do not count", "5f 4161 4162 ff", 0, 0, 3, S_OK, 0, -1},
      {"ends do not count", "81 80", 0, 0, 2, S_OK, 0, -1},
  };
  run_limit_rows(rows, COUNT(rows));
}

/* The sequence applies max_items to each document, not to the whole input. */
static void test_max_items_per_document(void) {
  static const uint8_t three[] = {0x82, 0x01, 0x02, 0x82, 0x01, 0x02, 0x82, 0x01, 0x02};
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_seq* seq = NULL;
  cbor_doc* doc = NULL;
  int i;
  o.max_items = 3;
  CHECK_STATUS(cbor_seq_new(three, sizeof three, &o, &seq), CBOR_FAST_OK);
  for (i = 0; i < 3; ++i) {
    CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
    CHECK_EQ_UINT(cbor_doc_node_count(doc), 3);
    cbor_doc_free(doc);
  }
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_END);
  cbor_seq_free(seq);

  o.max_items = 2;
  CHECK_STATUS(cbor_seq_new(three, sizeof three, &o, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(e.offset, 2);
  CHECK_EQ_UINT(e.item_offset, 0);
  cbor_seq_free(seq);
}

/* ========================================================================== */
/* cbor_fast_decode_options: struct_size and 0 fields                         */
/* ========================================================================== */

static cbor_fast_status decode_hex(const char* hex, const cbor_fast_decode_options* o,
                                   cbor_fast_error* e) {
  cbor_doc* doc = NULL;
  const size_t n = unhex(hex, g_hex, sizeof g_hex);
  const cbor_fast_status s = cbor_decode(g_hex, n, 0, o, &doc, e);
  cbor_doc_free(doc);
  return s;
}

static void test_options_struct_size(void) {
  counting_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_decode_options o;
  memset(&o, 0, sizeof o);
  /* Every 0.2 field at its tightest: a 0.2 reader of the struct would refuse
   * "ab" (STRING_TOO_LONG), [1, 2] (CONTAINER_TOO_LARGE, TOO_MANY_ITEMS) and
   * anything at all (MEMORY_BUDGET). */
  o.max_string_length = 1;
  o.max_container_items = 1;
  o.max_items = 1;
  o.max_memory = 1;

  /* struct_size 0: the 0.1 layout, only max_depth and alloc. */
  o.struct_size = 0;
  o.alloc = &hooks;
  heap_init(&heap, -1);
  CHECK_STATUS(decode_hex("42 6162", &o, &e), CBOR_FAST_OK);
  CHECK_STATUS(decode_hex("82 01 02", &o, &e), CBOR_FAST_OK);
  CHECK(heap.calls > 0);
  CHECK_HEAP_CLEAN(&heap);
  o.max_depth = 1;
  CHECK_STATUS(decode_hex("81 81 00", &o, &e), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(e.offset, 1);
  o.max_depth = 0;

  /* Up to max_container_items: only max_string_length of the new fields. */
  o.struct_size = (uint32_t)offsetof(cbor_fast_decode_options, max_container_items);
  CHECK_STATUS(decode_hex("42 6162", &o, &e), CBOR_FAST_ERR_STRING_TOO_LONG);
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_STATUS(decode_hex("82 01 02", &o, &e), CBOR_FAST_OK);

  /* Up to max_items: max_container_items too. */
  o.struct_size = (uint32_t)offsetof(cbor_fast_decode_options, max_items);
  CHECK_STATUS(decode_hex("82 01 02", &o, &e), CBOR_FAST_ERR_CONTAINER_TOO_LARGE);
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_STATUS(decode_hex("81 01", &o, &e), CBOR_FAST_OK);

  /* Up to max_memory: max_items too. */
  o.struct_size = (uint32_t)offsetof(cbor_fast_decode_options, max_memory);
  CHECK_STATUS(decode_hex("81 01", &o, &e), CBOR_FAST_ERR_TOO_MANY_ITEMS);
  CHECK_EQ_UINT(e.offset, 1);
  CHECK_STATUS(decode_hex("00", &o, &e), CBOR_FAST_OK);

  /* The whole struct: a 1-byte budget holds no node. */
  o.struct_size = (uint32_t)sizeof o;
  CHECK_STATUS(decode_hex("00", &o, &e), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK_EQ_UINT(e.offset, 0);
  CHECK_EQ_UINT(e.item_offset, 0);
  CHECK_HEAP_CLEAN(&heap);

  /* 0 in every field: no limit (and max_depth 512). */
  memset(&o, 0, sizeof o);
  o.struct_size = (uint32_t)sizeof o;
  CHECK_STATUS(decode_hex("4a" TEN, &o, &e), CBOR_FAST_OK);
  CHECK_STATUS(decode_hex("85 01 02 03 04 05", &o, &e), CBOR_FAST_OK);

  /* cbor_seq_new reads the struct the same way. */
  {
    static const uint8_t ab[] = {0x42, 'a', 'b'};
    cbor_seq* seq = NULL;
    size_t off, len;
    memset(&o, 0, sizeof o);
    o.max_string_length = 1;
    CHECK_STATUS(cbor_seq_new(ab, sizeof ab, &o, &seq), CBOR_FAST_OK); /* struct_size 0 */
    CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_OK);
    cbor_seq_free(seq);
    o.struct_size = (uint32_t)offsetof(cbor_fast_decode_options, max_container_items);
    CHECK_STATUS(cbor_seq_new(ab, sizeof ab, &o, &seq), CBOR_FAST_OK);
    CHECK_STATUS(cbor_seq_next(seq, 0, &off, &len), CBOR_FAST_ERR_STRING_TOO_LONG);
    CHECK_STATUS(cbor_seq_error(seq, &e), CBOR_FAST_ERR_STRING_TOO_LONG);
    CHECK_EQ_UINT(e.offset, 0);
    cbor_seq_free(seq);
  }
}

/* ========================================================================== */
/* max_memory                                                                 */
/* ========================================================================== */

/* [1, 1, ... 1]: 100000 items after a 5-byte head (9a 000186a0). */
static size_t build_int_array(void) {
  bytes b = big_buffer();
  int i;
  put_head(&b, 4, 100000);
  for (i = 0; i < 100000; ++i) put(&b, 0x01);
  CHECK_EQ_UINT(b.size, 100005);
  return b.size;
}

/* A map of 5000 uint keys, each with value 0, in increasing order. */
static size_t build_key_map(void) {
  bytes b = big_buffer();
  unsigned i;
  put_head(&b, 5, 5000);
  for (i = 0; i < 5000; ++i) {
    put_head(&b, 0, i);
    put(&b, 0x00);
  }
  CHECK(b.size <= b.cap);
  return b.size;
}

/* The document handle is allocated before the decode starts and is not part
 * of its budget (the header lists the node array, strings and tables): the
 * most a decode of nothing holds. */
static size_t handle_overhead(void) {
  counting_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_doc* doc = NULL;
  static const uint8_t nothing[1] = {0};
  heap_init(&heap, -1);
  o.alloc = &hooks;
  CHECK_STATUS(cbor_decode(nothing, 0, 0, &o, &doc, NULL), CBOR_FAST_END);
  CHECK_HEAP_CLEAN(&heap);
  CHECK(heap.peak <= 1024);
  return heap.peak;
}

/* One budgeted decode with the counting heap: its status and error, and the
 * most it held at once must stay within budget + handle. */
static cbor_fast_status budgeted_decode(const uint8_t* in, size_t n, uint32_t flags,
                                        uint64_t budget, cbor_fast_error* e, size_t* peak) {
  counting_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_doc* doc = NULL;
  cbor_fast_status s;
  heap_init(&heap, -1);
  o.alloc = &hooks;
  o.max_memory = budget;
  heap_mark(&heap);
  s = cbor_decode(in, n, flags, &o, &doc, e);
  CHECK_EQ_INT(s == CBOR_FAST_OK, doc != NULL);
  cbor_doc_free(doc);
  CHECK_HEAP_CLEAN(&heap);
  *peak = heap.peak;
  return s;
}

/* The same through cbor_seq_next_doc; the sequence's own handle is not counted. */
static cbor_fast_status budgeted_seq_doc(const uint8_t* in, size_t n, uint32_t flags,
                                         uint64_t budget, cbor_fast_error* e, size_t* peak) {
  counting_heap heap;
  cbor_fast_allocator hooks = heap_hooks(&heap);
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_seq* seq = NULL;
  cbor_doc* doc = NULL;
  cbor_fast_status s;
  heap_init(&heap, -1);
  o.alloc = &hooks;
  o.max_memory = budget;
  CHECK_STATUS(cbor_seq_new(in, n, &o, &seq), CBOR_FAST_OK);
  heap_mark(&heap);
  {
    const size_t before = heap.live;
    s = cbor_seq_next_doc(seq, flags, &doc);
    *peak = heap.peak - before;
  }
  if (s != CBOR_FAST_OK) CHECK_STATUS(cbor_seq_error(seq, e), s);
  cbor_doc_free(doc);
  cbor_seq_free(seq);
  CHECK_HEAP_CLEAN(&heap);
  return s;
}

static void test_max_memory(void) {
  const size_t overhead = handle_overhead();
  cbor_fast_error e = CBOR_FAST_ERROR_INIT, se = CBOR_FAST_ERROR_INIT;
  size_t n, peak;
  uint64_t budget;

  /* 100000 one-byte items need 100001 nodes of 24 bytes: not in 64 KiB. A
   * budget of B holds at most B / 24 nodes, so the item refused is at most
   * node B / 24, the item at 5 + B / 24 - 1. */
  n = build_int_array();
  budget = 64 * 1024;
  CHECK_STATUS(budgeted_decode(g_big, n, 0, budget, &e, &peak), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(peak <= budget + overhead);
  CHECK_STATUS(e.code, CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(e.offset <= 4 + budget / 24);
  CHECK(e.offset == 0 || e.offset >= 5);
  CHECK_EQ_UINT(e.item_offset, 0);
  CHECK_STATUS(budgeted_seq_doc(g_big, n, 0, budget, &se, &peak), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(peak <= budget + overhead);
  /* The same bound (the sequence's reader holds a small stack as well, so
   * the refused item may come a little earlier than in cbor_decode). */
  CHECK(se.offset <= 4 + budget / 24);
  CHECK(se.offset == 0 || se.offset >= 5);
  CHECK_EQ_UINT(se.item_offset, 0);
  /* The reader path (strict flags) is held to the budget too. */
  CHECK_STATUS(budgeted_decode(g_big, n, DUP, budget, &se, &peak), CBOR_FAST_ERR_MEMORY_BUDGET);
  CHECK(peak <= budget + overhead);

  budget = 16 * 1024 * 1024;
  CHECK_STATUS(budgeted_decode(g_big, n, 0, budget, &e, &peak), CBOR_FAST_OK);
  CHECK(peak <= budget + overhead);
  CHECK(peak >= 100001 * 24); /* the nodes were counted by the hooks */
  CHECK_STATUS(budgeted_seq_doc(g_big, n, 0, budget, &se, &peak), CBOR_FAST_OK);
  CHECK(peak <= budget + overhead);

  /* A sweep: never over budget, and once a budget suffices every larger one does. */
  {
    static const uint32_t sweep_flags[] = {0, DUP, DUP | DET};
    size_t f;
    for (f = 0; f < COUNT(sweep_flags); ++f) {
      int fits = 0;
      for (budget = 1024; budget <= 4 * 1024 * 1024; budget *= 2) {
        const cbor_fast_status s = budgeted_decode(g_big, n, sweep_flags[f], budget, &e, &peak);
        CHECK(s == CBOR_FAST_OK || s == CBOR_FAST_ERR_MEMORY_BUDGET);
        CHECK(peak <= budget + overhead);
        if (fits) CHECK_STATUS(s, CBOR_FAST_OK);
        if (s == CBOR_FAST_OK) fits = 1;
      }
      CHECK(fits);
    }
  }

  /* Key tables count too: 5000 keys, checked through the hash table (DUP)
   * and through the order alone (DUP | DET: sorted keys cannot repeat). The
   * sequence's document has the same budget, so the same outcome. */
  n = build_key_map();
  {
    static const uint32_t sweep_flags[] = {DUP, DUP | DET};
    size_t f;
    for (f = 0; f < COUNT(sweep_flags); ++f) {
      int fits = 0;
      for (budget = 1024; budget <= 4 * 1024 * 1024; budget *= 2) {
        size_t seq_peak;
        const cbor_fast_status s = budgeted_decode(g_big, n, sweep_flags[f], budget, &e, &peak);
        const cbor_fast_status t =
            budgeted_seq_doc(g_big, n, sweep_flags[f], budget, &se, &seq_peak);
        CHECK(s == CBOR_FAST_OK || s == CBOR_FAST_ERR_MEMORY_BUDGET);
        CHECK(peak <= budget + overhead);
        CHECK(seq_peak <= budget + overhead);
        CHECK_STATUS(t, s);
        if (s != CBOR_FAST_OK && t == s) CHECK_EQ_UINT(se.offset, e.offset);
        if (fits) CHECK_STATUS(s, CBOR_FAST_OK);
        if (s == CBOR_FAST_OK) fits = 1;
      }
      CHECK(fits);
    }
  }

  /* Copied strings count: a 100000-byte string (head 5a 000186a0) fits 64 KiB
   * as a view, not as a copy, refused at its head. */
  {
    bytes b = big_buffer();
    int i;
    put_head(&b, 2, 100000);
    for (i = 0; i < 100000; ++i) put(&b, 0x61);
    n = b.size;
    budget = 64 * 1024;
    CHECK_STATUS(budgeted_decode(g_big, n, 0, budget, &e, &peak), CBOR_FAST_OK);
    CHECK(peak <= budget + overhead);
    CHECK_STATUS(budgeted_decode(g_big, n, CBOR_FAST_DECODE_COPY_STRINGS, budget, &e, &peak),
                 CBOR_FAST_ERR_MEMORY_BUDGET);
    CHECK(peak <= budget + overhead);
    CHECK_EQ_UINT(e.offset, 0);
    CHECK_STATUS(budgeted_seq_doc(g_big, n, CBOR_FAST_DECODE_COPY_STRINGS, budget, &se, &peak),
                 CBOR_FAST_ERR_MEMORY_BUDGET);
    CHECK_EQ_UINT(se.offset, 0);
  }

  /* A joined string is held in the document: two 40000-byte chunks. */
  {
    bytes b = big_buffer();
    int i, c;
    put(&b, 0x5f);
    for (c = 0; c < 2; ++c) {
      put_head(&b, 2, 40000);
      for (i = 0; i < 40000; ++i) put(&b, 0x62);
    }
    put(&b, 0xff);
    n = b.size;
    CHECK_STATUS(budgeted_decode(g_big, n, 0, 64 * 1024, &e, &peak), CBOR_FAST_ERR_MEMORY_BUDGET);
    CHECK(peak <= 64 * 1024 + overhead);
    CHECK_STATUS(budgeted_decode(g_big, n, 0, 1024 * 1024, &e, &peak), CBOR_FAST_OK);
    CHECK(peak >= 80000);
    CHECK(peak <= 1024 * 1024 + overhead);
  }
}

/* ========================================================================== */
/* Allocation failures                                                        */
/* ========================================================================== */

/* 200 distinct keys: 0..195, "nested" -> a map of 20 pairs, [1, 2],
 * (_ "a" "b") and 1000 in a 5-byte head (the last two are compared in a
 * canonical copy, not as they stand). */
static size_t build_mixed_map(void) {
  bytes b = big_buffer();
  unsigned i;
  static const uint8_t array_key[] = {0x82, 0x01, 0x02};
  static const uint8_t indefinite_key[] = {0x7f, 0x61, 'a', 0x61, 'b', 0xff};
  static const uint8_t long_head_key[] = {0x1a, 0x00, 0x00, 0x03, 0xe8};
  put_head(&b, 5, 200);
  for (i = 0; i < 196; ++i) {
    put_head(&b, 0, i);
    put_head(&b, 0, i);
  }
  put_text(&b, "nested");
  put_head(&b, 5, 20);
  for (i = 0; i < 20; ++i) {
    put_head(&b, 0, i);
    put_head(&b, 0, i);
  }
  for (i = 0; i < sizeof array_key; ++i) put(&b, array_key[i]);
  put(&b, 0x00);
  for (i = 0; i < sizeof indefinite_key; ++i) put(&b, indefinite_key[i]);
  put(&b, 0x00);
  for (i = 0; i < sizeof long_head_key; ++i) put(&b, long_head_key[i]);
  put(&b, 0x00);
  return b.size;
}

/* What each pass of the failure loop runs. */
typedef enum oom_target { OOM_DECODE, OOM_DECODE_BUDGET, OOM_READER, OOM_SEQ } oom_target;

static cbor_fast_status run_oom_target(oom_target t, const uint8_t* in, size_t n,
                                       counting_heap* heap) {
  cbor_fast_allocator hooks = heap_hooks(heap);
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  cbor_fast_status s;
  o.alloc = &hooks;
  if (t == OOM_DECODE || t == OOM_DECODE_BUDGET) {
    cbor_doc* doc = (cbor_doc*)&o;
    if (t == OOM_DECODE_BUDGET) o.max_memory = 1024 * 1024;
    s = cbor_decode(in, n, DUP | CBOR_FAST_DECODE_EXACT, &o, &doc, &e);
    CHECK_STATUS(e.code, s);
    if (s == CBOR_FAST_OK) {
      CHECK_EQ_UINT(cbor_node_size(cbor_doc_root(doc)), 200);
      CHECK(cbor_node_size(cbor_node_map_find(cbor_doc_root(doc), "nested", 6)) == 20);
    } else {
      CHECK(doc == NULL);
    }
    cbor_doc_free(doc);
  } else if (t == OOM_READER) {
    cbor_reader* r = (cbor_reader*)&o;
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    s = cbor_reader_new(in, n, &hooks, &r);
    if (s != CBOR_FAST_OK) {
      CHECK(r == NULL);
      return s;
    }
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, 1), CBOR_FAST_OK);
    while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) {}
    if (s == CBOR_FAST_END) s = cbor_reader_finish(r);
    if (s != CBOR_FAST_OK) CHECK_STATUS(cbor_reader_error(r, &e), s);
    cbor_reader_free(r);
  } else {
    cbor_seq* seq = NULL;
    cbor_doc* doc = NULL;
    size_t off, len;
    s = cbor_seq_new(in, n, &o, &seq);
    if (s == CBOR_FAST_OK) s = cbor_seq_next(seq, DUP, &off, &len);
    cbor_seq_free(seq);
    seq = NULL;
    if (s == CBOR_FAST_OK) s = cbor_seq_new(in, n, &o, &seq);
    if (s == CBOR_FAST_OK) s = cbor_seq_next_doc(seq, DUP, &doc);
    if (s != CBOR_FAST_OK) CHECK(doc == NULL);
    cbor_doc_free(doc);
    cbor_seq_free(seq);
  }
  return s;
}

static void test_out_of_memory(void) {
  static const struct {
    const char* name;
    oom_target target;
  } targets[] = {
      {"cbor_decode REJECT_DUPLICATE_KEYS", OOM_DECODE},
      {"cbor_decode REJECT_DUPLICATE_KEYS, 1 MiB budget", OOM_DECODE_BUDGET},
      {"reader REJECT_DUPLICATE_KEYS", OOM_READER},
      {"cbor_seq_next and _next_doc REJECT_DUPLICATE_KEYS", OOM_SEQ},
  };
  const size_t n = build_mixed_map();
  size_t t;
  for (t = 0; t < COUNT(targets); ++t) {
    counting_heap heap;
    long calls, fail_at;
    label(targets[t].name, "no failure");
    /* Unfailed: how many allocations the call makes. */
    heap_init(&heap, -1);
    CHECK_STATUS(run_oom_target(targets[t].target, g_big, n, &heap), CBOR_FAST_OK);
    CHECK_HEAP_CLEAN(&heap);
    calls = heap.calls;
    CHECK(calls >= 3);
    /* Each one failing in turn: reported, and nothing leaks. */
    for (fail_at = 0; fail_at <= calls; ++fail_at) {
      cbor_fast_status s;
      heap_init(&heap, fail_at);
      s = run_oom_target(targets[t].target, g_big, n, &heap);
      label(targets[t].name, fail_at < calls ? "allocation fails" : "all allocations succeed");
      CHECK_STATUS(s, fail_at < calls ? CBOR_FAST_ERR_OUT_OF_MEMORY : CBOR_FAST_OK);
      CHECK_HEAP_CLEAN(&heap);
    }
  }
  check_current_ = g_test;
}

/* ========================================================================== */

#define RUN(fn)   \
  do {            \
    g_test = #fn; \
    RUN_TEST(fn); \
  } while (0)

int main(void) {
  RUN(test_option_values);
  RUN(test_duplicate_keys);
  RUN(test_duplicate_keys_wide_map);
  RUN(test_deterministic_heads);
  RUN(test_deterministic_key_order);
  RUN(test_deterministic_appendix_a);
  RUN(test_sequence_flags_per_call);
  RUN(test_flag_values);
  RUN(test_max_string_length);
  RUN(test_max_container_items);
  RUN(test_max_items);
  RUN(test_max_items_per_document);
  RUN(test_options_struct_size);
  RUN(test_max_memory);
  RUN(test_out_of_memory);
  return check_summary();
}
