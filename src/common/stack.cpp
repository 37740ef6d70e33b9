// The calling thread's stack: how much is left below a frame (mapping.hpp's
// recursive types check it before each level).
#include <cstddef>
#include <cstdint>

#if defined(__linux__) && (defined(__GNUC__) || defined(__clang__))
#define CBOR_FAST_STACK_BOUNDS 1
#include <pthread.h>
#endif

namespace cbor_fast {
namespace detail {

#ifdef CBOR_FAST_STACK_BOUNDS
namespace {
/// This thread's stack, [low, high), found once per thread (for the main
/// thread glibc reads /proc/self/maps); high 0 when it could not be.
struct stack_bounds {
  uintptr_t low = 0;
  uintptr_t high = 0;
  bool known = false;
};
thread_local stack_bounds t_stack;

void find_stack(stack_bounds& b) noexcept {
  b.known = true;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* low = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&attr, &low, &size) == 0) {
    b.low = reinterpret_cast<uintptr_t>(low);
    b.high = b.low + size;
  }
  pthread_attr_destroy(&attr);
}
}  // namespace
#endif

size_t stack_left(uintptr_t frame) noexcept {
#ifdef CBOR_FAST_STACK_BOUNDS
  stack_bounds& b = t_stack;
  if (!b.known) find_stack(b);
  if (frame >= b.low && frame < b.high) return size_t(frame - b.low);
#else
  (void)frame;
#endif
  return SIZE_MAX;  // not known: no check
}

}  // namespace detail
}  // namespace cbor_fast
