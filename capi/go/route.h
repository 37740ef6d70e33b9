/*
 * C side of the Go binding: static inline helpers over the public cbor_fast.h
 * API only (no flattening of its own: values come through
 * cbor_reader_next_batch, the one batched route every binding shares).
 */
#ifndef CBORFAST_GO_ROUTE_H
#define CBORFAST_GO_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cbor_fast.h"

/* Reader options of one decoding mode, set in one cgo call. */
typedef struct cf_reader_opts {
  uint64_t max_depth;
  uint64_t validate_utf8;
  uint64_t max_string_length;
  uint64_t max_container_items;
  uint64_t max_items;
  uint64_t reject_duplicate_keys;
  uint64_t deterministic;
} cf_reader_opts;

/* Restarts r on data[0, size) and, when o is not NULL, sets every option. */
static inline cbor_fast_status cf_reader_prepare(cbor_reader* r, const void* data, size_t size,
                                                 const cf_reader_opts* o) {
  cbor_fast_status s = cbor_reader_reset(r, data, size);
  if (s != CBOR_FAST_OK || o == NULL) return s;
  /* Depth first: a new limit below the current depth is refused, and the
   * reset reader is at depth 0. */
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, o->max_depth)) != CBOR_FAST_OK) return s;
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, o->validate_utf8)) != CBOR_FAST_OK) return s;
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, o->max_string_length)) != CBOR_FAST_OK) return s;
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, o->max_container_items)) != CBOR_FAST_OK) return s;
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, o->max_items)) != CBOR_FAST_OK) return s;
  if ((s = cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS, o->reject_duplicate_keys)) != CBOR_FAST_OK) return s;
  return cbor_reader_set(r, CBOR_FAST_OPT_DETERMINISTIC, o->deterministic);
}

/* A batch buffer in C memory with items[0].struct_size set. */
static inline cbor_fast_item* cf_items_new(size_t n) {
  cbor_fast_item* items = (cbor_fast_item*)calloc(n, sizeof(cbor_fast_item));
  if (items != NULL) items[0].struct_size = sizeof(cbor_fast_item);
  return items;
}

/*
 * Reader calls taking the handle as an integer: cgo boxes a pointer to an
 * incomplete C struct when it checks the argument, an allocation per call.
 */
static inline cbor_fast_status cf_reader_next(uintptr_t r, cbor_fast_item* item) {
  return cbor_reader_next((cbor_reader*)r, item);
}
static inline cbor_fast_status cf_reader_skip(uintptr_t r) {
  return cbor_reader_skip((cbor_reader*)r);
}
static inline cbor_fast_status cf_reader_next_batch(uintptr_t r, cbor_fast_item* items,
                                                    size_t capacity, size_t* count) {
  return cbor_reader_next_batch((cbor_reader*)r, items, capacity, count);
}

/*
 * The streaming Decoder's boundary finder: a reader that only finds where the
 * next top-level item ends (the decoding pass makes the UTF-8 and strict
 * checks, so they stay off here). cf_stream_begin restarts it at the item's
 * first byte, data[0, size) (offsets from there), setting the mode's
 * structural limits when o is not NULL, and passes over the item as one-shot
 * input; only when the item is not all there (truncated, or no byte yet) does
 * it start again with CBOR_FAST_OPT_STREAMING (*streamed = 1), which answers
 * CBOR_FAST_NEED_MORE. cf_stream_more hands it the same item's bytes grown
 * (data[0, size), from the item's first byte) and tries again:
 * cbor_reader_item_ready goes on where the last try stopped, so each byte is
 * scanned once however many reads the item takes; only a complete item is
 * skipped. *end gets the offset after the item when CBOR_FAST_OK.
 * A reader that streamed may keep pointers into the buffer in its scout (a
 * second reader inside it) after a reset, so the Go side frees it rather
 * than pooling it; a one-shot pass makes no scout.
 */
static inline cbor_fast_status cf_stream_begin(uintptr_t r, const void* data, size_t size,
                                               const cf_reader_opts* o, size_t* end,
                                               int* streamed) {
  cbor_reader* rd = (cbor_reader*)r;
  *streamed = 0;
  cbor_fast_status s = cbor_reader_reset(rd, data, size);
  if (s != CBOR_FAST_OK) return s;
  if (o != NULL) {
    if ((s = cbor_reader_set(rd, CBOR_FAST_OPT_MAX_DEPTH, o->max_depth)) != CBOR_FAST_OK) return s;
    if ((s = cbor_reader_set(rd, CBOR_FAST_OPT_MAX_STRING_LENGTH, o->max_string_length)) != CBOR_FAST_OK) return s;
    if ((s = cbor_reader_set(rd, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS, o->max_container_items)) != CBOR_FAST_OK) return s;
    if ((s = cbor_reader_set(rd, CBOR_FAST_OPT_MAX_ITEMS, o->max_items)) != CBOR_FAST_OK) return s;
  }
  s = cbor_reader_skip(rd);
  if (s == CBOR_FAST_ERR_TRUNCATED || s == CBOR_FAST_END) {
    *streamed = 1;
    if ((s = cbor_reader_reset(rd, data, size)) != CBOR_FAST_OK) return s;
    if ((s = cbor_reader_set(rd, CBOR_FAST_OPT_STREAMING, 1)) != CBOR_FAST_OK) return s;
    s = cbor_reader_skip(rd);
  }
  *end = cbor_reader_offset(rd);
  return s;
}
static inline cbor_fast_status cf_stream_more(uintptr_t r, const void* data, size_t size,
                                              size_t* end) {
  cbor_reader* rd = (cbor_reader*)r;
  cbor_fast_status s = cbor_reader_feed(rd, data, size, 0);
  if (s != CBOR_FAST_OK) return s;
  s = cbor_reader_item_ready(rd);
  if (s == CBOR_FAST_OK) s = cbor_reader_skip(rd);
  *end = cbor_reader_offset(rd);
  return s;
}

/*
 * One bulk number read (cbor_reader_read_*_array) on reader r, restarted over
 * data[0, size): kind 0 uint64, 1 int64, 2 double. *end gets the reader's
 * offset after it, *sticky whether the failure (if any) is the reader's
 * sticky error (then in *err). One cgo call.
 */
static inline cbor_fast_status cf_bulk_read(uintptr_t r, const void* data, size_t size, int kind,
                                            void* out, size_t capacity, size_t* count,
                                            size_t* end, cbor_fast_error* err, int* sticky) {
  cbor_reader* rd = (cbor_reader*)r;
  cbor_fast_status s = cbor_reader_reset(rd, data, size);
  if (s != CBOR_FAST_OK) return s;
  switch (kind) {
    case 0: s = cbor_reader_read_uint64_array(rd, (uint64_t*)out, capacity, count); break;
    case 1: s = cbor_reader_read_int64_array(rd, (int64_t*)out, capacity, count); break;
    default: s = cbor_reader_read_double_array(rd, (double*)out, capacity, count); break;
  }
  *end = cbor_reader_offset(rd);
  *sticky = 0;
  if (s != CBOR_FAST_OK) *sticky = cbor_reader_error(rd, err) != CBOR_FAST_OK;
  cbor_reader_reset(rd, NULL, 0);
  return s;
}

/* Passes over the rest of the value the batch ended inside of, until the
 * reader is back at depth (a tag closes with its content). */
static inline cbor_fast_status cf_skip_out_to(uintptr_t r, uint32_t depth) {
  cbor_reader* rd = (cbor_reader*)r;
  while (cbor_reader_depth(rd) > depth) {
    cbor_fast_status s = cbor_reader_skip_to_end(rd);
    if (s != CBOR_FAST_OK) return s;
  }
  return CBOR_FAST_OK;
}

/*
 * Unmarshal's first pass: with the options `check` (the mode's structural
 * limits, no UTF-8 or strict checks), passes over the first item of
 * data[0, size); *end gets the offset after it, or *err the reader's error.
 * Then restarts r on the same bytes with the options `decode`. Returns the
 * pass's status (CBOR_FAST_END: no item), else the restart's.
 */
static inline cbor_fast_status cf_well_formed(uintptr_t h, const void* data, size_t size,
                                              const cf_reader_opts* check,
                                              const cf_reader_opts* decode, size_t* end,
                                              cbor_fast_error* err) {
  cbor_reader* r = (cbor_reader*)h;
  cbor_fast_status s = cf_reader_prepare(r, data, size, check);
  if (s != CBOR_FAST_OK) return s;
  s = cbor_reader_skip(r);
  if (s == CBOR_FAST_OK) {
    *end = cbor_reader_offset(r);
  } else if (s != CBOR_FAST_END) {
    cbor_reader_error(r, err);
  }
  const cbor_fast_status restart = cf_reader_prepare(r, data, size, decode);
  return s != CBOR_FAST_OK ? s : restart;
}

/*
 * What cf_begin reports, in C memory beside a pooled reader (the Go side
 * passes only integers to the call: no pointer checks).
 */
typedef struct cf_begun {
  cbor_fast_item* items;  /* the reader's batch buffer, capacity items */
  size_t capacity;
  size_t count;           /* items the first batch holds */
  size_t end;             /* where the first item ends (the check pass) */
  cbor_fast_status check; /* the check pass's status (CBOR_FAST_OK when none) */
  cbor_fast_error err;    /* its error */
} cf_begun;

static inline cf_begun* cf_begun_new(cbor_fast_item* items, size_t capacity) {
  cf_begun* b = (cf_begun*)calloc(1, sizeof(cf_begun));
  if (b != NULL) {
    b->items = items;
    b->capacity = capacity;
    b->err.struct_size = sizeof(cbor_fast_error);
  }
  return b;
}

/*
 * Unmarshal's start in one cgo call. When chk is not 0, that reader (which
 * keeps the mode's check options) passes over the first item of
 * data[0, size) and lets go of the input again: b->end, or its status in
 * b->check and its error in b->err; nothing more when that fails. Then r
 * (its options as they are) restarts on the input and reads the first
 * batch into b->items (b->count). Returns the batch's status.
 */
static inline cbor_fast_status cf_begin(uintptr_t r, uintptr_t chk, uintptr_t begun, uintptr_t data,
                                        size_t size) {
  cf_begun* b = (cf_begun*)begun;
  const void* p = (const void*)data;
  cbor_fast_status s;
  b->count = 0;
  b->check = CBOR_FAST_OK;
  b->err.code = CBOR_FAST_OK;
  if (chk != 0) {
    cbor_reader* c = (cbor_reader*)chk;
    s = cbor_reader_reset(c, p, size);
    if (s == CBOR_FAST_OK) {
      s = cbor_reader_skip(c);
      if (s == CBOR_FAST_OK) {
        b->end = cbor_reader_offset(c);
      } else if (s != CBOR_FAST_END) {
        cbor_reader_error(c, &b->err);
      }
    }
    cbor_reader_reset(c, NULL, 0);
    b->check = s;
    if (s != CBOR_FAST_OK) return s;
  }
  s = cbor_reader_reset((cbor_reader*)r, p, size);
  if (s != CBOR_FAST_OK) return s;
  return cbor_reader_next_batch((cbor_reader*)r, b->items, b->capacity, &b->count);
}

/*
 * An RFC 8746 typed array of count elements at data written into
 * buf[0, capacity) by the library's writer; *written gets its size.
 */
static inline cbor_fast_status cf_write_typed(void* buf, size_t capacity, uint32_t element,
                                              int little_endian, const void* data, size_t count,
                                              size_t* written) {
  cbor_writer* w = NULL;
  cbor_fast_status s = cbor_writer_new_buffer(buf, capacity, NULL, &w);
  if (s != CBOR_FAST_OK) return s;
  s = cbor_writer_write_typed_array(w, element, little_endian, data, count);
  *written = cbor_writer_size(w);
  cbor_writer_free(w);
  return s;
}

#endif
