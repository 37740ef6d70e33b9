// Code placement (BENCHMARKS.md, "Code placement"): the same benchmark linked
// with this object first and CBOR_FAST_BENCH_CODE_SHIFT bytes of padding in
// it, so that all the code linked after it (the harness, the loops it inlines
// and the static library) sits that many bytes further on. The timed loops'
// speed depends on where they fall relative to the processor's 32- and
// 64-byte fetch and decode boundaries; run.py --placements times several
// shifts and reports the spread instead of one layout's luck.
#ifndef CBOR_FAST_BENCH_CODE_SHIFT
#error "CBOR_FAST_BENCH_CODE_SHIFT: the padding in bytes"
#endif
#define CBOR_FAST_BENCH_STR2(x) #x
#define CBOR_FAST_BENCH_STR(x) CBOR_FAST_BENCH_STR2(x)
asm(".pushsection .text,\"ax\",@progbits\n"
    ".balign 64\n"
    ".skip " CBOR_FAST_BENCH_STR(CBOR_FAST_BENCH_CODE_SHIFT) ", 0xcc\n"
    ".popsection\n");
