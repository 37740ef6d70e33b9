// The default allocator: the C library's heap.
#include "cbor_fast/allocator.hpp"

#include <cstdlib>

namespace cbor_fast {
inline namespace v1 {

namespace {
void* std_malloc(void*, size_t size) { return std::malloc(size); }
void* std_realloc(void*, void* ptr, size_t, size_t new_size) { return std::realloc(ptr, new_size); }
void std_free(void*, void* ptr, size_t) { std::free(ptr); }
constexpr allocator k_default = {std_malloc, std_realloc, std_free, nullptr};
}  // namespace

const allocator& default_allocator() noexcept { return k_default; }

}  // namespace v1
}  // namespace cbor_fast
