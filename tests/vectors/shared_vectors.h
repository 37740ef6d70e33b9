/*
 * The shared test vectors (tests/vectors/{appendix_a,malformed,strict,item_budget}.json) as C tables, for the C++
 * and the C tests. The arrays come from gen_tables.py at build time; include
 * this header once per program (the tables are static).
 *
 *   for (i = 0; i < SHARED_COUNT(k_shared_malformed); ++i) { ... }
 */
#ifndef CBOR_FAST_TESTS_SHARED_VECTORS_H
#define CBOR_FAST_TESTS_SHARED_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "cbor_fast.h"

/** appendix_a.json: one row of RFC 8949 Appendix A. */
typedef struct shared_appendix_a {
  const char* name;
  const char* hex;  /**< lower-case hex, no spaces */
  const char* diag; /**< the RFC's diagnostic notation */
  int roundtrip;    /**< 1: the preferred encoding of the decoded value is `hex` */
} shared_appendix_a;

/** malformed.json: input that is not well-formed, with the status and offset it gives. */
typedef struct shared_malformed {
  const char* name;
  const char* hex;
  cbor_fast_status status;
  size_t offset;
} shared_malformed;

/** strict.json: checks (SHARED_CHECK_* bits) and the status and offset with them on. */
typedef struct shared_strict {
  const char* name;
  const char* hex;
  uint32_t checks;
  cbor_fast_status status; /**< CBOR_FAST_OK: accepted */
  size_t offset;
} shared_strict;

/** item_budget.json: a sequence read by one reader with max_items set; max_items
 *  bounds each top-level item. The status after the last item (CBOR_FAST_OK: all
 *  read to CBOR_FAST_END, offset 0) and the offset of the head past the budget. */
typedef struct shared_item_budget {
  const char* name;
  const char* hex;
  uint64_t max_items;
  cbor_fast_status status;
  size_t offset;
} shared_item_budget;

#define SHARED_CHECK_UTF8 1u
#define SHARED_CHECK_DUPLICATE_KEYS 2u
#define SHARED_CHECK_DETERMINISTIC 4u

#include "shared_vectors.inc"

#define SHARED_COUNT(table) (sizeof(table) / sizeof((table)[0]))

#endif /* CBOR_FAST_TESTS_SHARED_VECTORS_H */
