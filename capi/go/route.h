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

#endif
