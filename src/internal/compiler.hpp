// Compiler hints (internal).
#ifndef CBOR_FAST_INTERNAL_COMPILER_HPP
#define CBOR_FAST_INTERNAL_COMPILER_HPP

#if defined(__GNUC__) || defined(__clang__)
#define CBOR_FAST_LIKELY(x) __builtin_expect(!!(x), 1)
#define CBOR_FAST_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CBOR_FAST_NOINLINE __attribute__((noinline))
#define CBOR_FAST_COLD __attribute__((noinline, cold))
#else
#define CBOR_FAST_LIKELY(x) (x)
#define CBOR_FAST_UNLIKELY(x) (x)
#define CBOR_FAST_NOINLINE
#define CBOR_FAST_COLD
#endif

#endif  // CBOR_FAST_INTERNAL_COMPILER_HPP
