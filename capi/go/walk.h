/*
 * C side of the Go binding: walks a cbor_doc into flat records in batches, so
 * that Go pays one cgo call per batch instead of several per node. Only the
 * public cbor_fast.h API is used. Everything lives in C memory; Go reads the
 * record array through unsafe.Slice and never keeps pointers into it across
 * calls.
 */
#ifndef CBORFAST_GO_WALK_H
#define CBORFAST_GO_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "cbor_fast.h"

/* Records per batch: 24 bytes each, so a batch buffer is at most 96 KiB. */
#define CF_BATCH 4096

/* One node in pre-order. Containers are followed by their children. */
typedef struct cf_rec {
  uint8_t kind;      /* cbor_fast_type */
  uint8_t negative;  /* NEGATIVE or a tag 3 bignum */
  uint8_t bignum;    /* tag 2/3 over a byte string: data/value is the magnitude, no child records */
  uint8_t reserved[5];
  /* UINT/NEGATIVE: raw value; BYTES/TEXT/bignum: length; ARRAY: items; MAP:
   * pairs; TAG: number; SIMPLE/BOOL: value; FLOAT: IEEE double bits. */
  uint64_t value;
  const uint8_t* data; /* BYTES/TEXT/bignum content, in C memory */
} cf_rec;

/* A document plus the iteration state over it. */
typedef struct cf_walk {
  cbor_doc* doc;
  const cbor_node* cur;      /* next node to emit; NULL when done */
  const cbor_node** stack;   /* ancestors of cur */
  size_t depth;
  size_t stack_cap;
  cf_rec* recs;
  size_t rec_cap;
} cf_walk;

/* cbor_decode() into a new walker; *out is NULL on failure. */
cbor_fast_status cf_decode(const void* data, size_t size, uint32_t flags,
                           const cbor_fast_decode_options* options, cf_walk** out,
                           cbor_fast_error* error);
/* cbor_seq_next_doc() into a new walker; *out is NULL unless CBOR_FAST_OK. */
cbor_fast_status cf_seq_next(cbor_seq* seq, uint32_t flags, cf_walk** out);
/* Fills w->recs with up to w->rec_cap records; *count 0 means done. */
cbor_fast_status cf_walk_fill(cf_walk* w, size_t* count);
/* Frees the walker and its document. NULL is a no-op. */
void cf_walk_free(cf_walk* w);

/*
 * Encoding tape: Go appends operations to a byte buffer and hands it over in
 * one call. Each operation is an opcode byte and a little-endian 64-bit
 * argument; CF_OP_BYTES, CF_OP_TEXT and CF_OP_BIGNUM(_NEG) are followed by
 * `argument` bytes of data.
 */
enum {
  CF_OP_UINT = 0,        /* argument: value */
  CF_OP_NEGATIVE = 1,    /* argument: n, the integer -1 - n */
  CF_OP_FLOAT = 2,       /* argument: IEEE double bits, written shortest */
  CF_OP_BYTES = 3,
  CF_OP_TEXT = 4,
  CF_OP_ARRAY = 5,       /* argument: item count */
  CF_OP_MAP = 6,         /* argument: pair count */
  CF_OP_TAG = 7,         /* argument: tag number */
  CF_OP_SIMPLE = 8,      /* argument: simple value */
  CF_OP_BOOL = 9,        /* argument: 0 or 1 */
  CF_OP_NULL = 10,
  CF_OP_UNDEFINED = 11,
  CF_OP_END = 12,
  CF_OP_BIGNUM = 13,     /* big-endian magnitude follows */
  CF_OP_BIGNUM_NEG = 14  /* the integer -1 - magnitude */
};

/*
 * Runs tape[0, size) against the writer. On failure *failed is the offset of
 * the operation that failed (else size) and the writer's status is returned.
 */
cbor_fast_status cf_write_tape(cbor_writer* w, const uint8_t* tape, size_t size, size_t* failed);

/*
 * Reader calls taking the handle as an integer. Go 1.19 boxes a pointer to an
 * incomplete C struct (a "notinheap" type) when cgo checks the argument,
 * which costs an allocation per call; the hot Reader calls avoid it this way.
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
