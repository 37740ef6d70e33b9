// The default allocator: the C library's heap.
#include "cbor_fast/allocator.hpp"

#include <cstdlib>

namespace cbor_fast {
inline namespace v1 {

namespace {
void* std_malloc(void*, size_t size) { return std::malloc(size); }
void* std_realloc(void*, void* ptr, size_t, size_t new_size) { return std::realloc(ptr, new_size); }
void std_free(void*, void* ptr, size_t) { std::free(ptr); }
}  // namespace
}  // namespace v1

namespace detail {
const allocator default_hooks = {std_malloc, std_realloc, std_free, nullptr};
}  // namespace detail
}  // namespace cbor_fast
