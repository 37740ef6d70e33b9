/*
 * Misuse of the C API: what a careless or hostile caller passes in, not what
 * the input holds. Every case must give a status (never a crash, a write past
 * the caller's struct or a call through a NULL hook); this program runs under
 * ASan+UBSan (capi.misuse_test) and valgrind (memcheck.capi.misuse_test).
 *
 *  - test_null_everywhere: every function cbor_fast.h declares, called with
 *    every pointer NULL and every number 0 (generated from the header by
 *    gen_null_calls.py, so a new function is covered when it is declared);
 *  - struct_size tables for each struct passed by pointer (cbor_fast_item,
 *    including cbor_reader_next_batch's stride; cbor_fast_error;
 *    cbor_fast_decode_options), at the named boundaries: below the oldest
 *    layout, inside a field, sizeof, sizeof + 64 (the margin), one past it,
 *    200, 0x10000, 0xffffffff;
 *  - allocator structs with each hook NULL, for every constructor;
 *  - out-of-range options, flags, widths and enum values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"

static int g_null_calls = 0;
#include "misuse_null_calls.inc"

/* [1, "ab"]: an array, a UINT and a definite TEXT. */
static const uint8_t k_input[] = {0x82, 0x01, 0x62, 'a', 'b'};
/* [[0]]: nesting depth 2. */
static const uint8_t k_deep[] = {0x81, 0x81, 0x00};
/* _("a" "b"): an indefinite text string for cbor_reader_join. */
static const uint8_t k_indefinite[] = {0x7f, 0x61, 'a', 0x61, 'b', 0xff};

/* Bytes past sizeof a newer header could append (the library's margin). */
#define MARGIN 64

static void* std_malloc(void* ctx, size_t n) {
  (void)ctx;
  return malloc(n);
}
static void* std_realloc(void* ctx, void* p, size_t old_size, size_t n) {
  (void)ctx;
  (void)old_size;
  return realloc(p, n);
}
static void std_free(void* ctx, void* p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

/* ========================================================================== */
/* cbor_fast_item.struct_size                                                 */
/* ========================================================================== */

typedef struct {
  const char* name;
  uint32_t size;
  cbor_fast_status expected; /* CBOR_FAST_OK: accepted */
} size_row;

#define ITEM_SIZE ((uint32_t)sizeof(cbor_fast_item))
static const size_row k_item_sizes[] = {
    {"0 (the 0.1 layout)", 0, CBOR_FAST_OK},
    {"1", 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"4 (struct_size only)", 4, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"8", 8, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"sizeof - 1", ITEM_SIZE - 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"sizeof", ITEM_SIZE, CBOR_FAST_OK},
    {"sizeof + 1 (misaligned stride)", ITEM_SIZE + 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"sizeof + 8", ITEM_SIZE + 8, CBOR_FAST_OK},
    {"sizeof + 64 (the margin)", ITEM_SIZE + MARGIN, CBOR_FAST_OK},
    {"sizeof + 72 (past the margin)", ITEM_SIZE + MARGIN + 8, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"200", 200, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"0x10000", 0x10000u, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"0x7fffffff", 0x7fffffffu, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"0xffffffff", 0xffffffffu, CBOR_FAST_ERR_INVALID_ARGUMENT},
};

/* Room for 4 elements of the largest accepted stride, plus a guard zone. */
#define BATCH_BYTES (4 * (sizeof(cbor_fast_item) + MARGIN) + 64)
static union {
  cbor_fast_item align;
  unsigned char bytes[BATCH_BYTES];
} g_batch;

static void test_item_struct_size(void) {
  size_t i;
  for (i = 0; i < sizeof k_item_sizes / sizeof k_item_sizes[0]; ++i) {
    const size_row* row = &k_item_sizes[i];
    cbor_reader* r = NULL;
    cbor_fast_item* items = &g_batch.align;
    size_t count = 99;
    size_t j;
    check_current_ = row->name;

    /* cbor_reader_next: refused calls consume nothing and write nothing. */
    CHECK_STATUS(cbor_reader_new(k_input, sizeof k_input, NULL, &r), CBOR_FAST_OK);
    memset(g_batch.bytes, 0x5a, sizeof g_batch.bytes);
    items->struct_size = row->size;
    CHECK_STATUS(cbor_reader_next(r, items), row->expected);
    if (row->expected == CBOR_FAST_OK) {
      CHECK_EQ_INT(items->type, CBOR_FAST_TYPE_ARRAY);
      CHECK_EQ_UINT(items->value, 2);
      CHECK_EQ_UINT(cbor_reader_offset(r), 1);
    } else {
      CHECK_EQ_UINT(cbor_reader_offset(r), 0);
      for (j = sizeof items->struct_size; j < sizeof g_batch.bytes; ++j)
        if (g_batch.bytes[j] != 0x5a) break;
      CHECK_EQ_UINT(j, sizeof g_batch.bytes);
      CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK); /* not sticky */
    }
    cbor_reader_free(r);

    /* cbor_reader_next_batch: the size is the stride of 3 elements. */
    CHECK_STATUS(cbor_reader_new(k_input, sizeof k_input, NULL, &r), CBOR_FAST_OK);
    memset(g_batch.bytes, 0x5a, sizeof g_batch.bytes);
    items->struct_size = row->size;
    CHECK_STATUS(cbor_reader_next_batch(r, items, 3, &count), row->expected);
    if (row->expected == CBOR_FAST_OK) {
      const size_t stride = row->size == 0 ? sizeof(cbor_fast_item) : row->size;
      const cbor_fast_item* third = (const cbor_fast_item*)(g_batch.bytes + 2 * stride);
      CHECK_EQ_UINT(count, 3);
      CHECK_EQ_INT(third->type, CBOR_FAST_TYPE_TEXT);
      CHECK_EQ_BYTES(third->data, third->size, "ab", 2);
      CHECK_EQ_UINT(third->struct_size, row->size);
      /* Nothing written past the third element's fields. */
      for (j = 2 * stride + sizeof(cbor_fast_item); j < sizeof g_batch.bytes; ++j)
        if (g_batch.bytes[j] != 0x5a) break;
      CHECK_EQ_UINT(j, sizeof g_batch.bytes);
    } else {
      CHECK_EQ_UINT(count, 0);
      for (j = sizeof items->struct_size; j < sizeof g_batch.bytes; ++j)
        if (g_batch.bytes[j] != 0x5a) break;
      CHECK_EQ_UINT(j, sizeof g_batch.bytes);
      CHECK_EQ_UINT(cbor_reader_offset(r), 0);
    }
    cbor_reader_free(r);

    /* cbor_reader_join reads the caller's item: the same rule. */
    {
      cbor_fast_item it = CBOR_FAST_ITEM_INIT;
      const uint8_t* data = NULL;
      size_t size = 0;
      CHECK_STATUS(cbor_reader_new(k_indefinite, sizeof k_indefinite, NULL, &r), CBOR_FAST_OK);
      CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
      if (row->size <= sizeof it) {
        it.struct_size = row->size;
        CHECK_STATUS(cbor_reader_join(r, &it, &data, &size), row->expected);
        if (row->expected == CBOR_FAST_OK) CHECK_EQ_BYTES(data, size, "ab", 2);
      }
      cbor_reader_free(r);
    }
  }
  check_current_ = "";
}

/* ========================================================================== */
/* cbor_fast_error.struct_size                                                */
/* ========================================================================== */

#define ERROR_SIZE ((uint32_t)sizeof(cbor_fast_error))
static const size_row k_error_sizes[] = {
    {"error 0 (the 0.1 layout)", 0, CBOR_FAST_OK},
    {"error 1", 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error 4 (struct_size only)", 4, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error 8 (up to code)", 8, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error sizeof - 1", ERROR_SIZE - 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error sizeof", ERROR_SIZE, CBOR_FAST_OK},
    {"error sizeof + 64", ERROR_SIZE + MARGIN, CBOR_FAST_OK},
    {"error sizeof + 65", ERROR_SIZE + MARGIN + 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error 200", 200, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error 0x10000", 0x10000u, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"error 0xffffffff", 0xffffffffu, CBOR_FAST_ERR_INVALID_ARGUMENT},
};

static union {
  cbor_fast_error align;
  unsigned char bytes[sizeof(cbor_fast_error) + MARGIN + 16];
} g_error;

/* The bytes past the library's struct (or all but struct_size, if refused) still 0x3c. */
static void check_error_untouched_from(size_t from) {
  size_t j;
  for (j = from; j < sizeof g_error.bytes; ++j)
    if (g_error.bytes[j] != 0x3c) break;
  CHECK_EQ_UINT(j, sizeof g_error.bytes);
}

static void test_error_struct_size(void) {
  static const uint8_t truncated[] = {0x82, 0x18, 0x01}; /* [1, ... (as document_test) */
  size_t i;
  for (i = 0; i < sizeof k_error_sizes / sizeof k_error_sizes[0]; ++i) {
    const size_row* row = &k_error_sizes[i];
    cbor_fast_error* e = &g_error.align;
    const size_t filled =
        row->expected == CBOR_FAST_OK ? sizeof(cbor_fast_error) : sizeof e->struct_size;
    cbor_doc* doc = NULL;
    cbor_reader* r = NULL;
    cbor_seq* seq = NULL;
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    check_current_ = row->name;

    memset(g_error.bytes, 0x3c, sizeof g_error.bytes);
    e->struct_size = row->size;
    CHECK_STATUS(cbor_decode(truncated, sizeof truncated, 0, NULL, &doc, e),
                 row->expected == CBOR_FAST_OK ? CBOR_FAST_ERR_TRUNCATED : row->expected);
    CHECK(doc == NULL);
    if (row->expected == CBOR_FAST_OK) {
      CHECK_STATUS(e->code, CBOR_FAST_ERR_TRUNCATED);
      CHECK_EQ_UINT(e->offset, 3);
      CHECK_EQ_UINT(e->depth, 1);
    }
    check_error_untouched_from(filled);

    CHECK_STATUS(cbor_reader_new(truncated, sizeof truncated, NULL, &r), CBOR_FAST_OK);
    while (cbor_reader_next(r, &it) == CBOR_FAST_OK) {}
    memset(g_error.bytes, 0x3c, sizeof g_error.bytes);
    e->struct_size = row->size;
    CHECK_STATUS(cbor_reader_error(r, e),
                 row->expected == CBOR_FAST_OK ? CBOR_FAST_ERR_TRUNCATED : row->expected);
    check_error_untouched_from(filled);
    cbor_reader_free(r);

    CHECK_STATUS(cbor_seq_new(truncated, sizeof truncated, NULL, &seq), CBOR_FAST_OK);
    CHECK_STATUS(cbor_seq_next(seq, 0, NULL, NULL), CBOR_FAST_ERR_TRUNCATED);
    memset(g_error.bytes, 0x3c, sizeof g_error.bytes);
    e->struct_size = row->size;
    CHECK_STATUS(cbor_seq_error(seq, e),
                 row->expected == CBOR_FAST_OK ? CBOR_FAST_ERR_TRUNCATED : row->expected);
    check_error_untouched_from(filled);
    cbor_seq_free(seq);

    /* A NULL handle with a bad struct: still refused, still nothing written. */
    memset(g_error.bytes, 0x3c, sizeof g_error.bytes);
    e->struct_size = row->size;
    CHECK_STATUS(cbor_reader_error(NULL, e), CBOR_FAST_ERR_INVALID_ARGUMENT);
    check_error_untouched_from(filled);
  }
  check_current_ = "";
}

/* ========================================================================== */
/* cbor_fast_decode_options.struct_size                                       */
/* ========================================================================== */

#define OPTIONS_SIZE ((uint32_t)sizeof(cbor_fast_decode_options))
#define OPTIONS_0_1 ((uint32_t)(offsetof(cbor_fast_decode_options, alloc) + sizeof(void*)))
static const size_row k_options_sizes[] = {
    {"options 0 (the 0.1 layout)", 0, CBOR_FAST_OK},
    {"options 3", 3, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 4 (no max_depth)", 4, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 8 (max_depth, no alloc)", 8, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 0.1 - 1", OPTIONS_0_1 - 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 0.1", OPTIONS_0_1, CBOR_FAST_OK},
    {"options 0.1 + 4 (inside max_string_length)", OPTIONS_0_1 + 4, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options up to max_string_length",
     (uint32_t)offsetof(cbor_fast_decode_options, max_container_items), CBOR_FAST_OK},
    {"options sizeof - 1", OPTIONS_SIZE - 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options sizeof", OPTIONS_SIZE, CBOR_FAST_OK},
    {"options sizeof + 1 (zero tail)", OPTIONS_SIZE + 1, CBOR_FAST_OK},
    {"options sizeof + 64 (zero tail)", OPTIONS_SIZE + MARGIN, CBOR_FAST_OK},
    {"options sizeof + 65", OPTIONS_SIZE + MARGIN + 1, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 200", 200, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 0x10000", 0x10000u, CBOR_FAST_ERR_INVALID_ARGUMENT},
    {"options 0xffffffff", 0xffffffffu, CBOR_FAST_ERR_INVALID_ARGUMENT},
};

static union {
  cbor_fast_decode_options align;
  unsigned char bytes[sizeof(cbor_fast_decode_options) + MARGIN + 16];
} g_options;

static void test_options_struct_size(void) {
  size_t i;
  for (i = 0; i < sizeof k_options_sizes / sizeof k_options_sizes[0]; ++i) {
    const size_row* row = &k_options_sizes[i];
    cbor_fast_decode_options* o = &g_options.align;
    cbor_doc* doc = NULL;
    cbor_seq* seq = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    check_current_ = row->name;

    memset(g_options.bytes, 0, sizeof g_options.bytes);
    o->struct_size = row->size;
    o->max_depth = 1; /* [[0]] nests 2 deep: an accepted struct applies the limit */
    CHECK_STATUS(cbor_decode(k_deep, sizeof k_deep, 0, o, &doc, &e),
                 row->expected == CBOR_FAST_OK ? CBOR_FAST_ERR_DEPTH : row->expected);
    CHECK(doc == NULL);
    CHECK_STATUS(e.code, row->expected == CBOR_FAST_OK ? CBOR_FAST_ERR_DEPTH : row->expected);
    CHECK_EQ_UINT(e.offset, row->expected == CBOR_FAST_OK ? 1 : 0);
    CHECK_STATUS(cbor_seq_new(k_deep, sizeof k_deep, o, &seq), row->expected);
    CHECK((seq != NULL) == (row->expected == CBOR_FAST_OK));
    if (seq != NULL) CHECK_STATUS(cbor_seq_next(seq, 0, NULL, NULL), CBOR_FAST_ERR_DEPTH);
    cbor_seq_free(seq);
    seq = NULL;

    /* A longer struct whose tail is not zero asks for an option this
     * version does not know: refused, not ignored. */
    if (row->expected == CBOR_FAST_OK && row->size > OPTIONS_SIZE) {
      g_options.bytes[row->size - 1] = 1;
      CHECK_STATUS(cbor_decode(k_input, sizeof k_input, 0, o, &doc, &e),
                   CBOR_FAST_ERR_INVALID_ARGUMENT);
      CHECK_STATUS(cbor_seq_new(k_input, sizeof k_input, o, &seq), CBOR_FAST_ERR_INVALID_ARGUMENT);
      CHECK(seq == NULL);
    }
  }
  check_current_ = "";
}

/* ========================================================================== */
/* Allocator hooks                                                            */
/* ========================================================================== */

static int constructor_call(int which, const cbor_fast_allocator* a) {
  cbor_reader* r = (cbor_reader*)(uintptr_t)1;
  cbor_writer* w = (cbor_writer*)(uintptr_t)1;
  cbor_mdoc* m = (cbor_mdoc*)(uintptr_t)1;
  cbor_doc* d = (cbor_doc*)(uintptr_t)1;
  cbor_seq* s = (cbor_seq*)(uintptr_t)1;
  uint8_t buffer[16];
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_status st = CBOR_FAST_ERR_INTERNAL;
  int out_null = 0;
  o.alloc = a;
  switch (which) {
    case 0:
      st = cbor_reader_new(k_input, sizeof k_input, a, &r);
      out_null = r == NULL;
      cbor_reader_free(r);
      break;
    case 1:
      st = cbor_writer_new(a, &w);
      out_null = w == NULL;
      cbor_writer_free(w);
      break;
    case 2:
      st = cbor_writer_new_buffer(buffer, sizeof buffer, a, &w);
      out_null = w == NULL;
      cbor_writer_free(w);
      break;
    case 3:
      st = cbor_mdoc_new(a, &m);
      out_null = m == NULL;
      cbor_mdoc_free(m);
      break;
    case 4:
      st = cbor_decode(k_input, sizeof k_input, 0, &o, &d, NULL);
      out_null = d == NULL;
      cbor_doc_free(d);
      break;
    case 5:
      st = cbor_seq_new(k_input, sizeof k_input, &o, &s);
      out_null = s == NULL;
      cbor_seq_free(s);
      break;
    default: {
      cbor_doc* src = NULL;
      CHECK_STATUS(cbor_decode(k_input, sizeof k_input, 0, NULL, &src, NULL), CBOR_FAST_OK);
      st = cbor_doc_to_mdoc(src, a, &m);
      out_null = m == NULL;
      cbor_mdoc_free(m);
      cbor_doc_free(src);
      break;
    }
  }
  CHECK_STATUS(st,
               a->malloc && a->realloc && a->free ? CBOR_FAST_OK : CBOR_FAST_ERR_INVALID_ARGUMENT);
  return out_null;
}

static int sink_ok(void* ctx, const uint8_t* data, size_t size) {
  (void)ctx;
  (void)data;
  (void)size;
  return 0;
}

static void test_null_hooks(void) {
  int which;
  int mask;
  for (mask = 0; mask < 8; ++mask) {
    cbor_fast_allocator a;
    a.malloc = (mask & 1) ? NULL : std_malloc;
    a.realloc = (mask & 2) ? NULL : std_realloc;
    a.free = (mask & 4) ? NULL : std_free;
    a.context = NULL;
    for (which = 0; which < 7; ++which) {
      const int out_null = constructor_call(which, &a);
      CHECK_EQ_INT(out_null, mask != 0);
    }
    {
      cbor_writer* w = (cbor_writer*)(uintptr_t)1;
      CHECK_STATUS(cbor_writer_new_sink(sink_ok, NULL, 0, &a, &w),
                   mask == 0 ? CBOR_FAST_OK : CBOR_FAST_ERR_INVALID_ARGUMENT);
      CHECK((w == NULL) == (mask != 0));
      cbor_writer_free(w);
    }
  }
}

/* ========================================================================== */
/* Out-of-range options, flags, widths and enum values                        */
/* ========================================================================== */

static void test_out_of_range_values(void) {
  cbor_reader* r = NULL;
  cbor_writer* w = NULL;
  cbor_mdoc* m = NULL;
  cbor_doc* doc = NULL;
  cbor_seq* seq = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  const uint8_t* data = NULL;
  size_t size = 0;
  static const int bad_options[] = {0, 9, 10, 100, -1, 0x7fffffff};
  static const cbor_fast_option bool_options[] = {CBOR_FAST_OPT_VALIDATE_UTF8,
                                                  CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS,
                                                  CBOR_FAST_OPT_DETERMINISTIC};
  size_t i;

  CHECK_STATUS(cbor_reader_new(k_input, sizeof k_input, NULL, &r), CBOR_FAST_OK);
  for (i = 0; i < sizeof bad_options / sizeof bad_options[0]; ++i)
    CHECK_STATUS(cbor_reader_set(r, (cbor_fast_option)bad_options[i], 1),
                 CBOR_FAST_ERR_INVALID_ARGUMENT);
  for (i = 0; i < sizeof bool_options / sizeof bool_options[0]; ++i) {
    CHECK_STATUS(cbor_reader_set(r, bool_options[i], 2), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_reader_set(r, bool_options[i], UINT64_MAX), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(cbor_reader_set(r, bool_options[i], 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, bool_options[i], 0), CBOR_FAST_OK);
  }
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, (uint64_t)UINT32_MAX + 1),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, UINT32_MAX), CBOR_FAST_OK);
  /* None of the refused calls changed anything: [1, "ab"] reads as before. */
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_ARRAY);
  /* join on an item whose type is no enumerator: a status, not UB. */
  {
    cbor_fast_item bogus = it;
    const int type = 99;
    memcpy(&bogus.type, &type, sizeof type);
    CHECK_STATUS(cbor_reader_join(r, &bogus, &data, &size), CBOR_FAST_ERR_INVALID_STATE);
    CHECK(data == NULL);
    CHECK_EQ_UINT(size, 0);
  }
  cbor_reader_free(r);

  /* Unknown decode / encode / sequence flags. */
  CHECK_STATUS(cbor_decode(k_input, sizeof k_input, 32u, NULL, &doc, NULL),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_decode(k_input, sizeof k_input, 0x80000000u, NULL, &doc, NULL),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  CHECK_STATUS(cbor_seq_new(k_input, sizeof k_input, NULL, &seq), CBOR_FAST_OK);
  CHECK_STATUS(cbor_seq_next(seq, 32u, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_seq_next_doc(seq, 32u, &doc), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK(doc == NULL);
  /* Not sticky: the item is still there. */
  CHECK_STATUS(cbor_seq_next_doc(seq, 0, &doc), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_doc_node_count(doc), 3);
  CHECK_STATUS(cbor_writer_new(NULL, &w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_encode(doc, 16u, w), CBOR_FAST_ERR_INVALID_ARGUMENT); /* after _CTAP2 (8) */
  CHECK_STATUS(cbor_encode(doc, 0x80000000u, w), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_encode(doc, CBOR_FAST_ENCODE_PREFERRED, w), CBOR_FAST_OK);
  CHECK_EQ_UINT(cbor_writer_size(w), sizeof k_input);
  cbor_doc_free(doc);
  cbor_seq_free(seq);

  /* Float widths and simple values outside their ranges. */
  CHECK_STATUS(cbor_writer_reset(w), CBOR_FAST_OK);
  CHECK_STATUS(cbor_writer_float(w, 1.5, (cbor_fast_float_width)1), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float(w, 1.5, (cbor_fast_float_width)3), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_float(w, 1.5, (cbor_fast_float_width)16),
               CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_simple(w, 24), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_writer_simple(w, 31), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_writer_size(w), 0);
  CHECK_STATUS(cbor_writer_simple(w, 32), CBOR_FAST_OK); /* f8 20 */
  CHECK_EQ_UINT(cbor_writer_size(w), 2);
  cbor_writer_free(w);

  CHECK_STATUS(cbor_mdoc_new(NULL, &m), CBOR_FAST_OK);
  CHECK(cbor_mdoc_float(m, 1.5, (cbor_fast_float_width)3) == NULL);
  CHECK(cbor_mdoc_simple(m, 24) == NULL);
  CHECK(cbor_mdoc_simple(m, 31) == NULL);
  CHECK(cbor_mdoc_simple(m, 32) != NULL);
  cbor_mdoc_free(m);

  /* Status lookups of numbers that are no status. */
  CHECK_EQ_STR(cbor_status_name((cbor_fast_status)65636), "unknown");
  CHECK_EQ_STR(cbor_status_name((cbor_fast_status)-1), "unknown");
  CHECK_EQ_STR(cbor_status_string((cbor_fast_status)7), "unknown status");
}

int main(void) {
  RUN_TEST(test_null_everywhere);
  CHECK_EQ_INT(g_null_calls, MISUSE_NULL_CALL_COUNT);
  RUN_TEST(test_item_struct_size);
  RUN_TEST(test_error_struct_size);
  RUN_TEST(test_options_struct_size);
  RUN_TEST(test_null_hooks);
  RUN_TEST(test_out_of_range_values);
  return check_summary();
}
