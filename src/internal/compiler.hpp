// Compiler hints (internal).
#ifndef CBOR_FAST_INTERNAL_COMPILER_HPP
#define CBOR_FAST_INTERNAL_COMPILER_HPP

#if defined(__GNUC__) || defined(__clang__)
#define CBOR_FAST_LIKELY(x) __builtin_expect(!!(x), 1)
#define CBOR_FAST_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CBOR_FAST_NOINLINE __attribute__((noinline))
#define CBOR_FAST_COLD __attribute__((noinline, cold))
// Forced in optimised builds only, as CBOR_FAST_VISIT_INLINE (reader.hpp).
#if defined(__OPTIMIZE__)
#define CBOR_FAST_ALWAYS_INLINE __attribute__((always_inline))
#else
#define CBOR_FAST_ALWAYS_INLINE
#endif
#else
#define CBOR_FAST_LIKELY(x) (x)
#define CBOR_FAST_UNLIKELY(x) (x)
#define CBOR_FAST_NOINLINE
#define CBOR_FAST_COLD
#define CBOR_FAST_ALWAYS_INLINE
#endif

#endif  // CBOR_FAST_INTERNAL_COMPILER_HPP
