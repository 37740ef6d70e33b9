// libcbor_fast: pluggable memory allocation.
#ifndef CBOR_FAST_ALLOCATOR_HPP
#define CBOR_FAST_ALLOCATOR_HPP

#include <cstddef>

namespace cbor_fast {
inline namespace v1 {

/// Memory hooks. Every allocation the reader, writer and documents make goes
/// through one of these. Sizes are passed back so arena-style allocators need
/// no bookkeeping. A hook returns nullptr on failure; the library then reports
/// status::out_of_memory and leaves everything it owns in a freeable state.
/// Same layout as the C API's cbor_fast_allocator.
struct allocator {
  void* (*malloc)(void* context, size_t size);
  void* (*realloc)(void* context, void* ptr, size_t old_size, size_t new_size);
  void (*free)(void* context, void* ptr, size_t size);
  void* context;
};

}  // namespace v1

namespace detail {
/// default_allocator()'s hooks (src/common/allocator.cpp).
extern const allocator default_hooks;
}  // namespace detail

inline namespace v1 {
/// The C library's malloc/realloc/free. Inline, so a reader constructed with
/// default options folds them (an opaque call made the compiler reload them).
inline const allocator& default_allocator() noexcept { return detail::default_hooks; }
}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_ALLOCATOR_HPP
