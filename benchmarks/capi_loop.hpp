// The loop a C caller writes over cbor_reader (internal to the benchmarks):
// one item per cbor_reader_next, or 256 per cbor_reader_next_batch.
#ifndef CBOR_FAST_BENCHMARKS_CAPI_LOOP_HPP
#define CBOR_FAST_BENCHMARKS_CAPI_LOOP_HPP

#include <cstddef>
#include <cstdint>

#include "cbor_fast.h"

namespace cbor_fast_bench {

/// Calls f(const cbor_fast_item&) for every item of data[0, size); true when
/// the input ended at CBOR_FAST_END (false for a failure or no reader).
/// Always inlined, so each caller's loop is compiled as if written out there
/// (the callgrind figures of walk_capi stay those of the hand-written loop).
template <class F>
__attribute__((always_inline)) inline bool for_each_c_item(const uint8_t* data, size_t size,
                                                           bool batch, F&& f) noexcept {
  cbor_reader* r = nullptr;
  if (cbor_reader_new(data, size, nullptr, &r) != CBOR_FAST_OK) return false;
  cbor_fast_status s;
  if (batch) {
    cbor_fast_item items[256];
    items[0] = cbor_fast_item CBOR_FAST_ITEM_INIT;
    size_t count;
    while ((s = cbor_reader_next_batch(r, items, 256, &count)) == CBOR_FAST_OK)
      for (size_t i = 0; i < count; ++i) f(items[i]);
  } else {
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    while ((s = cbor_reader_next(r, &it)) == CBOR_FAST_OK) f(it);
  }
  cbor_reader_free(r);
  return s == CBOR_FAST_END;
}

}  // namespace cbor_fast_bench

#endif  // CBOR_FAST_BENCHMARKS_CAPI_LOOP_HPP
