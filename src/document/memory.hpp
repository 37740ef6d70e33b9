// Memory helpers of the document layer (internal): the chunked arena and a
// small explicit stack. Both allocate only through an allocator and report
// failure by returning nullptr/false, never by throwing.
#ifndef CBOR_FAST_SRC_DOCUMENT_MEMORY_HPP
#define CBOR_FAST_SRC_DOCUMENT_MEMORY_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/document.hpp"

namespace cbor_fast {
namespace detail {

/// Returns n bytes aligned to 8 from the arena, or nullptr when the allocator fails.
void* arena_allocate(arena& a, const allocator& alloc, size_t n) noexcept;
/// Frees every chunk; the arena is empty afterwards.
void arena_release(arena& a, const allocator& alloc) noexcept;

/// encode_canonical | encode_length_first | encode_ctap2.
constexpr uint32_t k_canonical_encode_flags = 2 | 4 | 8;
/// Known encode flags with at most one canonical form among them.
bool valid_encode_flags(uint32_t flags) noexcept;
/// Canonical encoding of the subtree at root (src/document/canonical.cpp);
/// error (optional) gets the offset of a duplicate key or a refused tag.
status encode_sorted(const doc_node* root, writer& w, uint32_t flags, const allocator& alloc,
                     error_info* error) noexcept;

/// Nodes the canonical encoder's tree-key paths (keys that are containers or
/// tags) visited in this process: a work counter for tests, linear in the
/// input whatever the key nesting.
uint64_t canonical_work_counter() noexcept;

/// The allocator of the mutable document that owns n.
const allocator& mdoc_allocator(const mutable_node* n) noexcept;

/// A LIFO stack of trivially copyable frames: the first N live inline (no
/// allocation for ordinary nesting), deeper ones on the heap, grown geometrically.
template <class T, size_t N>
class small_stack {
  static_assert(std::is_trivially_copyable<T>::value, "frames are copied bytewise");

 public:
  explicit small_stack(const allocator& alloc) noexcept : alloc_(alloc) {}
  small_stack(const small_stack&) = delete;
  small_stack& operator=(const small_stack&) = delete;
  ~small_stack() {
    if (data_ != inline_) alloc_.free(alloc_.context, data_, capacity_ * sizeof(T));
  }

  /// False when memory runs out (the stack is unchanged).
  bool push(const T& v) noexcept {
    if (size_ == capacity_ && !grow()) return false;
    data_[size_++] = v;
    return true;
  }
  T& top() noexcept { return data_[size_ - 1]; }
  void pop() noexcept { --size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_t size() const noexcept { return size_; }

 private:
  bool grow() noexcept {
    if (capacity_ > SIZE_MAX / sizeof(T) / 2) return false;
    const size_t want = capacity_ * 2;
    void* p;
    if (data_ == inline_) {
      p = alloc_.malloc(alloc_.context, want * sizeof(T));
      if (p != nullptr) std::memcpy(p, inline_, size_ * sizeof(T));
    } else {
      p = alloc_.realloc(alloc_.context, data_, capacity_ * sizeof(T), want * sizeof(T));
    }
    if (p == nullptr) return false;
    data_ = static_cast<T*>(p);
    capacity_ = want;
    return true;
  }

  const allocator& alloc_;
  T inline_[N];
  T* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_SRC_DOCUMENT_MEMORY_HPP
