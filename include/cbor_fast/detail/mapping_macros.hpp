// libcbor_fast: preprocessor helpers for the CBOR_FAST_FIELDS macros (mapping.hpp).
// Written out by hand-run script once; up to 64 members per type. Not for direct use.
#ifndef CBOR_FAST_DETAIL_MAPPING_MACROS_HPP
#define CBOR_FAST_DETAIL_MAPPING_MACROS_HPP

#define CBOR_FAST_DETAIL_CAT_(a, b) a##b
#define CBOR_FAST_DETAIL_CAT(a, b) CBOR_FAST_DETAIL_CAT_(a, b)
#define CBOR_FAST_DETAIL_EXPAND(...) __VA_ARGS__
/// The number of arguments, 1..64.
#define CBOR_FAST_DETAIL_NARG(...)                                                                \
  CBOR_FAST_DETAIL_NARG_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, \
                         49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,  \
                         31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,  \
                         13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define CBOR_FAST_DETAIL_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, \
                               _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28,  \
                               _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41,  \
                               _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54,  \
                               _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, N, ...)         \
  N
/// F(T, x) for each x, separated by commas.
#define CBOR_FAST_DETAIL_FOR_EACH(F, T, ...) \
  CBOR_FAST_DETAIL_CAT(CBOR_FAST_DETAIL_FE_, CBOR_FAST_DETAIL_NARG(__VA_ARGS__))(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_1(F, T, x) F(T, x)
#define CBOR_FAST_DETAIL_FE_2(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_1(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_3(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_2(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_4(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_3(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_5(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_4(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_6(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_5(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_7(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_6(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_8(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_7(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_9(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_8(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_10(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_9(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_11(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_10(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_12(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_11(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_13(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_12(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_14(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_13(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_15(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_14(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_16(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_15(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_17(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_16(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_18(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_17(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_19(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_18(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_20(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_19(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_21(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_20(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_22(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_21(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_23(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_22(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_24(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_23(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_25(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_24(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_26(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_25(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_27(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_26(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_28(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_27(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_29(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_28(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_30(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_29(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_31(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_30(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_32(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_31(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_33(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_32(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_34(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_33(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_35(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_34(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_36(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_35(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_37(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_36(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_38(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_37(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_39(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_38(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_40(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_39(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_41(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_40(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_42(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_41(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_43(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_42(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_44(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_43(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_45(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_44(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_46(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_45(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_47(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_46(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_48(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_47(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_49(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_48(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_50(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_49(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_51(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_50(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_52(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_51(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_53(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_52(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_54(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_53(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_55(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_54(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_56(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_55(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_57(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_56(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_58(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_57(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_59(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_58(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_60(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_59(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_61(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_60(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_62(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_61(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_63(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_62(F, T, __VA_ARGS__)
#define CBOR_FAST_DETAIL_FE_64(F, T, x, ...) F(T, x), CBOR_FAST_DETAIL_FE_63(F, T, __VA_ARGS__)

#endif  // CBOR_FAST_DETAIL_MAPPING_MACROS_HPP
