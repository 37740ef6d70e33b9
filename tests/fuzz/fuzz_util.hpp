// Shared helpers of the fuzz targets: checks that abort (a crash for libFuzzer,
// a failed test for the replay driver), the configuration byte every target
// reads first, and small reference models written independently of src/ so
// the targets compare the library against something other than itself.
#ifndef CBOR_FAST_FUZZ_UTIL_HPP
#define CBOR_FAST_FUZZ_UTIL_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/reader.hpp"

namespace cbor_fast_fuzz {

[[noreturn]] inline void check_failed(const char* file, int line, const char* what) {
  std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace cbor_fast_fuzz

/// Aborts with the failed expression: libFuzzer saves the input as a crash,
/// the replay driver dies and its ctest test fails.
#define FUZZ_CHECK(cond)                                                    \
  do {                                                                      \
    if (!(cond)) ::cbor_fast_fuzz::check_failed(__FILE__, __LINE__, #cond); \
  } while (0)

/// Aborts with a message.
#define FUZZ_FAIL(what) ::cbor_fast_fuzz::check_failed(__FILE__, __LINE__, what)

namespace cbor_fast_fuzz {

// ---- the configuration byte --------------------------------------------------

/// The first input byte configures the run, the rest is the CBOR input. The
/// same layout in every target (except writer_fuzz) lets one seed serve all.
///   bit 0      strict UTF-8 (reader validate_utf8 / CBOR_FAST_DECODE_VALIDATE_UTF8)
///   bits 1, 2  target-specific switches (a, b)
///   bits 3-7   depth code d: max_depth = 512 for d = 0, else d (1..31)
struct config {
  bool utf8 = false;
  bool a = false;
  bool b = false;
  uint32_t depth_code = 0;
  uint32_t max_depth = 512;
};

/// Takes the configuration byte off the front of the input (an empty input
/// gives the defaults and stays empty).
inline config take_config(const uint8_t*& data, size_t& size) {
  config c;
  if (size == 0) return c;
  const uint8_t bits = data[0];
  ++data;
  --size;
  c.utf8 = (bits & 1) != 0;
  c.a = (bits & 2) != 0;
  c.b = (bits & 4) != 0;
  c.depth_code = uint32_t(bits >> 3);
  c.max_depth = c.depth_code == 0 ? 512 : c.depth_code;
  return c;
}

/// Every field of an item (type, flags, head size, width, depth, offset,
/// argument, a definite string's bytes, a float's value) as bytes, for
/// comparing the items two reads give.
inline std::string describe(const cbor_fast::item& it) {
  using cbor_fast::item_type;
  std::string s(reinterpret_cast<const char*>(&it.type), 1);
  const uint64_t fields[] = {it.flags, it.head_size, it.width, it.depth, it.offset, it.arg};
  s.append(reinterpret_cast<const char*>(fields), sizeof fields);
  if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
      !it.is_indefinite())
    s.append(reinterpret_cast<const char*>(it.u.data), size_t(it.arg));
  if (it.type == item_type::floating) s.append(reinterpret_cast<const char*>(&it.u.dbl), 8);
  return s;
}

/// One step of an item loop over r (a reader or a stream), its result
/// appended to `items` on success: next() (the item's description), skip()
/// (the offset after the item) or visit() (every item's description).
template <class R>
cbor_fast::status next_step(R& r, std::vector<std::string>& items) {
  cbor_fast::item it;
  const cbor_fast::status s = r.next(it);
  if (s == cbor_fast::status::ok) items.push_back(describe(it));
  return s;
}
template <class R>
cbor_fast::status skip_step(R& r, std::vector<std::string>& items) {
  const cbor_fast::status s = r.skip();
  if (s == cbor_fast::status::ok) items.push_back(std::to_string(r.offset()));
  return s;
}
template <class R>
cbor_fast::status visit_step(R& r, std::vector<std::string>& items) {
  std::string all;
  const cbor_fast::status s =
      r.visit([&all](const cbor_fast::item& it) noexcept { all += describe(it); });
  if (s == cbor_fast::status::ok) items.push_back(all);
  return s;
}

/// Reader options for reading back the library's own output: no depth or
/// size limit, no UTF-8 check (writers copy text bytes as given).
inline cbor_fast::reader_options unlimited() {
  cbor_fast::reader_options o;
  o.max_depth = UINT32_MAX;
  o.validate_utf8 = false;
  return o;
}

// ---- byte helpers -----------------------------------------------------------------

inline uint64_t load_be(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

inline uint64_t double_bits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

inline double bits_double(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

/// Bits of the binary64 value equal to a binary16/binary32 value given as
/// bits: done on bits (a hardware conversion would quiet signalling NaNs).
/// mant_bits/exp_bits describe the narrow format.
inline uint64_t widen_float_bits(uint64_t narrow, unsigned exp_bits, unsigned mant_bits) {
  const unsigned total = 1 + exp_bits + mant_bits;
  const uint64_t sign = (narrow >> (total - 1)) & 1;
  const uint64_t exp_max = (uint64_t(1) << exp_bits) - 1;
  const uint64_t exp = (narrow >> mant_bits) & exp_max;
  uint64_t mant = narrow & ((uint64_t(1) << mant_bits) - 1);
  const int64_t bias = int64_t(exp_max >> 1);
  uint64_t out_exp;
  if (exp == exp_max) {
    out_exp = 0x7ff;
  } else if (exp != 0) {
    out_exp = uint64_t(int64_t(exp) - bias + 1023);
  } else if (mant == 0) {
    out_exp = 0;
  } else {
    // Subnormal: shift the leading one into the implicit bit.
    int64_t e = 1 - bias;
    while ((mant >> mant_bits) == 0) {
      mant <<= 1;
      --e;
    }
    mant &= (uint64_t(1) << mant_bits) - 1;
    out_exp = uint64_t(e + 1023);
  }
  return sign << 63 | out_exp << 52 | mant << (52 - mant_bits);
}

/// The binary64 bits of a float head's argument of `width` bytes.
inline uint64_t widen_wire_float(uint64_t bits, unsigned width) {
  if (width == 2) return widen_float_bits(bits, 5, 10);
  if (width == 4) return widen_float_bits(bits, 8, 23);
  return bits;
}

// ---- UTF-8 (RFC 3629), written out byte by byte ---------------------------------

/// Index of the first byte of the first invalid sequence, or n if all valid.
inline size_t first_invalid_utf8(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    const uint8_t c = s[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
      cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      cp = c & 0x07u;
    } else {
      return i;
    }
    if (n - i < len) return i;
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xc0) != 0x80) return i;
      cp = cp << 6 | (s[i + k] & 0x3fu);
    }
    // Overlong forms, surrogates and values past U+10FFFF.
    if (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) return i;
    if (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) return i;
    i += len;
  }
  return n;
}

// ---- a normalised item stream -------------------------------------------------------

/// One data item as both a reader walk and a document walk can describe it:
/// indefinite strings are one event with the joined content; arrays and maps
/// open with their item/pair count (counted for indefinite ones) and close
/// with an `end` event; a tag is followed by its content.
struct event {
  cbor_fast::item_type type = cbor_fast::item_type::none;
  bool indefinite = false;
  /// Integers: the head argument. Strings: length. Arrays: items. Maps: pairs.
  /// Tags: number. Simple/bool/null/undefined: simple value. Floats: bits of
  /// the value widened to binary64.
  uint64_t value = 0;
  uint32_t width = 0;  ///< floats: 2, 4 or 8
  size_t offset = 0;   ///< head offset (not compared for end events)
  std::string bytes;   ///< strings: the content
};

/// What compare_events() looks at besides types and values.
struct compare_mode {
  bool offsets = true;  ///< head offsets of non-end events
  bool form = true;     ///< indefinite flags and float widths
};

/// Index of the first difference, or SIZE_MAX when the streams agree.
inline size_t first_difference(const std::vector<event>& a, const std::vector<event>& b,
                               compare_mode mode) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    const event& x = a[i];
    const event& y = b[i];
    if (x.type != y.type || x.value != y.value || x.bytes != y.bytes) return i;
    if (mode.form && (x.indefinite != y.indefinite || x.width != y.width)) return i;
    if (mode.offsets && x.type != cbor_fast::item_type::end && x.offset != y.offset) return i;
  }
  return a.size() == b.size() ? SIZE_MAX : n;
}

inline void print_event(const char* label, const event& e) {
  std::fprintf(stderr, "  %s: type %d indef %d value %llu width %u offset %zu bytes %zu\n", label,
               int(e.type), int(e.indefinite), static_cast<unsigned long long>(e.value), e.width,
               e.offset, e.bytes.size());
}

/// A stream as preferred serialization writes it (RFC 8949 3.4.3): a tag 2/3
/// over a byte string loses the magnitude's leading zeros and becomes an
/// integer when 8 bytes or fewer are left.
inline std::vector<event> prefer_bignums(const std::vector<event>& in) {
  using cbor_fast::item_type;
  std::vector<event> out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const event& e = in[i];
    if (e.type == item_type::tag && (e.value == 2 || e.value == 3) && i + 1 < in.size() &&
        in[i + 1].type == item_type::byte_string) {
      std::string mag = in[i + 1].bytes;
      size_t lead = 0;
      while (lead < mag.size() && mag[lead] == 0) ++lead;
      mag.erase(0, lead);
      if (mag.size() <= 8) {
        event v;
        v.type = e.value == 3 ? item_type::negative_int : item_type::unsigned_int;
        for (char c : mag) v.value = v.value << 8 | uint8_t(c);
        v.offset = e.offset;
        out.push_back(v);
      } else {
        out.push_back(e);
        event b = in[i + 1];
        b.value = mag.size();
        b.bytes = mag;
        b.indefinite = false;
        out.push_back(b);
      }
      ++i;
      continue;
    }
    out.push_back(e);
  }
  return out;
}

/// Aborts, printing both events, unless the streams agree. Without `form`
/// (one side is preferred serialization) bignums compare in preferred form.
inline void check_same_events(const std::vector<event>& a_in, const std::vector<event>& b_in,
                              compare_mode mode, const char* what) {
  const std::vector<event> a = mode.form ? a_in : prefer_bignums(a_in);
  const std::vector<event> b = mode.form ? b_in : prefer_bignums(b_in);
  const size_t at = first_difference(a, b, mode);
  if (at == SIZE_MAX) return;
  std::fprintf(stderr, "event streams differ (%s) at %zu of %zu/%zu\n", what, at, a.size(),
               b.size());
  if (at < a.size()) print_event("first ", a[at]);
  if (at < b.size()) print_event("second", b[at]);
  check_failed(__FILE__, __LINE__, what);
}

/// Reads one complete top-level item from `r` as events (appended to *out).
/// Returns ok, end (nothing left) or the reader's error.
inline cbor_fast::status read_item_events(cbor_fast::reader& r, std::vector<event>& out) {
  using cbor_fast::item_type;
  struct open {
    size_t index;  ///< its event
    uint8_t kind;  ///< 0 array/map, 1 indefinite string, 2 tag
    uint64_t children;
  };
  std::vector<open> stack;
  cbor_fast::item it;
  for (;;) {
    const cbor_fast::status s = r.next(it);
    if (s != cbor_fast::status::ok) return s;
    bool complete = false;
    if (it.type == item_type::end) {
      FUZZ_CHECK(!stack.empty() && stack.back().kind != 2);
      const open o = stack.back();
      stack.pop_back();
      if (o.kind == 0) {
        event& start = out[o.index];
        start.value = start.type == item_type::map ? o.children / 2 : o.children;
        event e;
        e.type = item_type::end;
        out.push_back(e);
      } else {
        out[o.index].value = out[o.index].bytes.size();
      }
      complete = true;
    } else if (!stack.empty() && stack.back().kind == 1) {
      // A chunk: part of the string event, not an item of its own.
      out[stack.back().index].bytes.append(it.text());
      continue;
    } else {
      event e;
      e.type = it.type;
      e.indefinite = it.is_indefinite();
      e.value = it.arg;
      e.offset = it.offset;
      if (it.type == item_type::floating) {
        e.width = it.width;
        e.value = double_bits(it.float_value());
      }
      if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
          !it.is_indefinite())
        e.bytes.assign(it.text());
      if (!stack.empty()) ++stack.back().children;
      out.push_back(std::move(e));
      const size_t index = out.size() - 1;
      if (it.type == item_type::array || it.type == item_type::map) {
        stack.push_back({index, 0, 0});
      } else if (it.type == item_type::tag) {
        stack.push_back({index, 2, 0});
      } else if (it.is_indefinite()) {
        stack.push_back({index, 1, 0});
      } else {
        complete = true;
      }
    }
    // A complete item completes the tags waiting for it.
    while (complete && !stack.empty() && stack.back().kind == 2 && stack.back().children == 1)
      stack.pop_back();
    if (stack.empty()) return cbor_fast::status::ok;
  }
}

/// Hex of up to 64 bytes, for messages.
inline std::string hex(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n && i < 64; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  if (n > 64) s += "...";
  return s;
}

}  // namespace cbor_fast_fuzz

#endif  // CBOR_FAST_FUZZ_UTIL_HPP
