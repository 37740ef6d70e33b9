// Shared helpers for the conformance suites: hex input, exact-size buffers,
// a readable trace of an item stream, a structural checker for item streams
// and a reader-to-writer transcoder.
#ifndef CBOR_FAST_TESTS_CONFORMANCE_TEST_UTIL_HPP
#define CBOR_FAST_TESTS_CONFORMANCE_TEST_UTIL_HPP

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast_test {

using bytes = std::vector<uint8_t>;
using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;

// ---- hex ------------------------------------------------------------------

/// Parses hex digits; spaces are ignored so tables can group bytes as the RFC does.
inline bytes from_hex(std::string_view hex) {
  bytes out;
  int high = -1;
  for (char c : hex) {
    int v;
    if (c >= '0' && c <= '9') {
      v = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      v = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      v = c - 'A' + 10;
    } else if (c == ' ') {
      continue;
    } else {
      ADD_FAILURE() << "bad hex digit '" << c << "' in \"" << hex << "\"";
      return {};
    }
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<uint8_t>(high * 16 + v));
      high = -1;
    }
  }
  if (high >= 0) ADD_FAILURE() << "odd number of hex digits in \"" << hex << "\"";
  return out;
}

inline std::string to_hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out.push_back(digits[data[i] >> 4]);
    out.push_back(digits[data[i] & 15]);
  }
  return out;
}
inline std::string to_hex(const bytes& b) { return to_hex(b.data(), b.size()); }
inline std::string to_hex_u64(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// A heap copy of exactly `size` bytes, so that AddressSanitizer reports any
/// read past the end of the input (a std::vector may have spare capacity).
class exact_buffer {
 public:
  exact_buffer(const uint8_t* data, size_t size)
      : data_(new uint8_t[size == 0 ? 1 : size]), size_(size) {
    if (size != 0) std::memcpy(data_.get(), data, size);
  }
  explicit exact_buffer(const bytes& b) : exact_buffer(b.data(), b.size()) {}
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t size_;
};

// ---- floats (independent of src/internal) -----------------------------------

inline uint64_t double_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
inline double bits_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
/// A NaN of any width widened to double the way that keeps every bit: sign,
/// exponent all ones, the narrow mantissa (quiet bit and payload) moved to the
/// top of the double mantissa. Hardware widening (double(float)) would set
/// the quiet bit of a signalling NaN, so a transcoder could not write the
/// original encoding back.
inline double widened_nan(bool negative, uint64_t mantissa, int shift) {
  return bits_double((negative ? uint64_t(1) << 63 : 0) | (uint64_t(0x7ff) << 52) |
                     (mantissa << shift));
}
/// binary16 to double by the IEEE 754 formula, not by bit shuffling.
inline double half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  const bool negative = (h & 0x8000) != 0;
  if (exponent == 31 && mantissa != 0) return widened_nan(negative, uint64_t(mantissa), 42);
  double v;
  if (exponent == 0) {
    v = std::ldexp(double(mantissa), -24);
  } else if (exponent != 31) {
    v = std::ldexp(double(mantissa + 1024), exponent - 25);
  } else {
    v = HUGE_VAL;
  }
  return negative ? -v : v;
}
/// binary32 to double by the IEEE 754 formula (NaNs bit for bit, see widened_nan).
inline double single_value(uint32_t bits) {
  const int exponent = int((bits >> 23) & 0xff);
  const uint32_t mantissa = bits & 0x7fffff;
  const bool negative = (bits >> 31) != 0;
  if (exponent == 255 && mantissa != 0) return widened_nan(negative, mantissa, 29);
  double v;
  if (exponent == 0) {
    v = std::ldexp(double(mantissa), -149);
  } else if (exponent != 255) {
    v = std::ldexp(double(mantissa | 0x800000), exponent - 150);
  } else {
    v = HUGE_VAL;
  }
  return negative ? -v : v;
}
/// Same value (NaN: both NaN with the same sign; everything else: same bits, so -0.0 != 0.0).
inline bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) && std::signbit(a) == std::signbit(b);
  return double_bits(a) == double_bits(b);
}

// ---- trace ----------------------------------------------------------------

/// Decimal text of -1 - n for any 64-bit n (the result may not fit int64_t).
inline std::string negative_text(uint64_t n) {
  if (n == UINT64_MAX) return "-18446744073709551616";
  return "-" + std::to_string(n + 1);
}

/// Builds a compact, readable text of an item stream, one token per item:
///   integers as decimals ("24", "-1000"), floats as "f<width>:<wire bits hex>",
///   definite strings as h'..' / "..." (text: printable ASCII as is, \" \\,
///   other bytes \xNN), indefinite strings "(_h" / "(_s", arrays "[<count>" /
///   "[_", maps "{<pairs>" / "{_", the end item as the matching ] } ),
///   tags "tag<n>" (no end), false true null undefined simple(<n>).
class tracer {
 public:
  void add(const item& it) {
    if (!out_.empty()) out_.push_back(' ');
    char buf[40];
    switch (it.type) {
      case item_type::none: out_ += "none?"; break;
      case item_type::unsigned_int: out_ += std::to_string(it.value()); break;
      case item_type::negative_int: out_ += negative_text(it.value()); break;
      case item_type::byte_string:
        if (it.is_indefinite()) {
          out_ += "(_h";
          closers_.push_back(')');
        } else {
          out_ += "h'" + to_hex(it.bytes().data, it.bytes().size) + "'";
        }
        break;
      case item_type::text_string:
        if (it.is_indefinite()) {
          out_ += "(_s";
          closers_.push_back(')');
        } else {
          out_.push_back('"');
          for (char c : it.text()) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
              out_.push_back('\\');
              out_.push_back(c);
            } else if (u >= 0x20 && u < 0x7f) {
              out_.push_back(c);
            } else {
              std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(u));
              out_ += buf;
            }
          }
          out_.push_back('"');
        }
        break;
      case item_type::array:
        out_ += it.is_indefinite() ? std::string("[_") : "[" + std::to_string(it.count());
        closers_.push_back(']');
        break;
      case item_type::map:
        out_ += it.is_indefinite() ? std::string("{_") : "{" + std::to_string(it.count());
        closers_.push_back('}');
        break;
      case item_type::tag: out_ += "tag" + std::to_string(it.tag_number()); break;
      case item_type::simple:
        out_ += "simple(" + std::to_string(unsigned(it.simple_value())) + ")";
        break;
      case item_type::boolean: out_ += it.boolean_value() ? "true" : "false"; break;
      case item_type::null: out_ += "null"; break;
      case item_type::undefined: out_ += "undefined"; break;
      case item_type::floating:
        std::snprintf(buf, sizeof buf, "f%u:%0*llx", unsigned(it.width), int(it.width) * 2,
                      static_cast<unsigned long long>(it.float_bits()));
        out_ += buf;
        break;
      case item_type::end:
        if (closers_.empty()) {
          out_ += "end?";
        } else {
          out_.push_back(closers_.back());
          closers_.pop_back();
        }
        break;
    }
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
  std::vector<char> closers_;
};

// ---- structural checker -----------------------------------------------------

/// Checks every item of a stream against the reader's contract (context.md):
/// offsets are contiguous (each item starts where the previous one's encoding
/// ended; a definite container's end item sits after its last child with
/// head_size 0; an indefinite one's end is the break byte with head_size 1 and
/// flag_break); depths follow the open containers, tags and indefinite
/// strings; a tag has exactly one content item and no end; definite
/// containers end after exactly count (arrays) or 2 * count (maps) children;
/// indefinite maps end after an even number; indefinite string chunks are
/// definite strings of the same type; string views point into the input at
/// offset + head_size; float values agree with their wire bits.
class stream_checker {
 public:
  stream_checker(const uint8_t* input, size_t size) : input_(input), size_(size) {}

  ::testing::AssertionResult add(const item& it) {
    ::testing::AssertionResult r = check(it);
    ++index_;
    return r;
  }
  /// No container, tag or indefinite string is open.
  bool balanced() const { return stack_.empty(); }
  /// Offset just past the last item checked.
  size_t cursor() const { return cursor_; }
  size_t open_levels() const { return stack_.size(); }

 private:
  struct frame {
    item_type type;
    bool indefinite;
    uint64_t expected;  ///< definite containers: children due
    uint64_t seen;
  };

  ::testing::AssertionResult fail_at(const item& it, const std::string& what) const {
    return ::testing::AssertionFailure()
           << "item #" << index_ << " (type " << int(it.type) << ", offset " << it.offset
           << ", depth " << it.depth << "): " << what;
  }

  void child_done() {
    while (!stack_.empty()) {
      ++stack_.back().seen;
      if (stack_.back().type != item_type::tag) return;
      stack_.pop_back();  // a tag closes with its single content item
    }
  }

  ::testing::AssertionResult check(const item& it) {
    if (it.offset != cursor_) return fail_at(it, "offset should be " + std::to_string(cursor_));
    if (it.type == item_type::end) {
      if (stack_.empty()) return fail_at(it, "end item with nothing open");
      const frame f = stack_.back();
      if (f.type == item_type::tag) return fail_at(it, "end item closes a tag");
      if (it.depth != stack_.size() - 1)
        return fail_at(it, "end depth should be " + std::to_string(stack_.size() - 1));
      if (f.indefinite) {
        if ((it.flags & item::flag_break) == 0 || it.head_size != 1)
          return fail_at(it, "indefinite end needs flag_break and head_size 1");
        if (cursor_ >= size_ || input_[cursor_] != 0xff)
          return fail_at(it, "indefinite end is not at a break byte");
        if (f.type == item_type::map && f.seen % 2 != 0)
          return fail_at(it, "indefinite map ended after an odd number of items");
      } else {
        if ((it.flags & item::flag_break) != 0 || it.head_size != 0)
          return fail_at(it, "definite end needs head_size 0 and no flag_break");
        if (f.seen != f.expected)
          return fail_at(it, "definite container ended after " + std::to_string(f.seen) + " of " +
                                 std::to_string(f.expected) + " children");
      }
      stack_.pop_back();
      cursor_ += it.head_size;
      child_done();
      return ::testing::AssertionSuccess();
    }

    if (it.depth != stack_.size())
      return fail_at(it, "depth should be " + std::to_string(stack_.size()));
    if (it.head_size != 1 && it.head_size != 2 && it.head_size != 3 && it.head_size != 5 &&
        it.head_size != 9)
      return fail_at(it, "bad head_size " + std::to_string(it.head_size));
    if (!stack_.empty()) {
      const frame& f = stack_.back();
      const bool is_string_parent =
          f.type == item_type::byte_string || f.type == item_type::text_string;
      if (is_string_parent && (it.type != f.type || it.is_indefinite()))
        return fail_at(it, "indefinite string chunk is not a definite string of its type");
      if (!f.indefinite && f.type != item_type::tag && f.seen >= f.expected)
        return fail_at(it, "child beyond the definite count");
    }
    if (it.offset + it.encoded_size() > size_) return fail_at(it, "item extends past the input");
    const bool indefinite = it.is_indefinite();
    switch (it.type) {
      case item_type::byte_string:
      case item_type::text_string:
        if (indefinite) {
          if (it.head_size != 1) return fail_at(it, "indefinite string head_size != 1");
          stack_.push_back({it.type, true, 0, 0});
        } else {
          if (it.arg != 0 && it.u.data != input_ + it.offset + it.head_size)
            return fail_at(it, "string view does not point into the input after the head");
          child_done();
        }
        break;
      case item_type::array:
      case item_type::map:
        if (indefinite && it.head_size != 1) return fail_at(it, "indefinite head_size != 1");
        stack_.push_back(
            {it.type, indefinite, it.type == item_type::map ? 2 * it.count() : it.count(), 0});
        break;
      case item_type::tag:
        if (indefinite) return fail_at(it, "indefinite tag");
        stack_.push_back({item_type::tag, false, 1, 0});
        break;
      case item_type::floating: {
        if (indefinite) return fail_at(it, "indefinite float");
        if ((it.width != 2 && it.width != 4 && it.width != 8) || it.head_size != 1 + it.width)
          return fail_at(it, "float width/head_size mismatch");
        double expected = it.width == 2   ? half_value(static_cast<uint16_t>(it.float_bits()))
                          : it.width == 4 ? single_value(static_cast<uint32_t>(it.float_bits()))
                                          : bits_double(it.float_bits());
        if (double_bits(expected) != double_bits(it.float_value()))
          return fail_at(it, "float_value() bits " + to_hex_u64(double_bits(it.float_value())) +
                                 " should be " + to_hex_u64(double_bits(expected)) +
                                 " (the wire value widened exactly)");
        child_done();
        break;
      }
      case item_type::none: return fail_at(it, "item of type none");
      default:
        if (indefinite) return fail_at(it, "indefinite flag on a scalar");
        child_done();
        break;
    }
    cursor_ += it.encoded_size();
    return ::testing::AssertionSuccess();
  }

  const uint8_t* input_;
  size_t size_;
  size_t cursor_ = 0;
  size_t index_ = 0;
  std::vector<frame> stack_;
};

// ---- reading ----------------------------------------------------------------

/// What a reader produced until next() stopped returning ok.
struct read_log {
  std::string trace;
  size_t items = 0;
  status last = status::ok;     ///< end, or the error
  cbor_fast::error_info error;  ///< reader.error() afterwards
  size_t cursor = 0;            ///< offset just past the last item delivered
  bool balanced = true;         ///< nothing open after the last item
};

/// Reads items until next() returns something other than ok, checking each
/// with stream_checker (violations are reported as test failures).
inline read_log read_all(cbor_fast::reader& r, const uint8_t* input, size_t size,
                         bool keep_trace = true) {
  read_log log;
  tracer t;
  stream_checker checker(input, size);
  item it;
  for (;;) {
    log.last = r.next(it);
    if (log.last != status::ok) break;
    ++log.items;
    EXPECT_TRUE(checker.add(it));
    if (keep_trace) t.add(it);
  }
  log.trace = t.str();
  log.error = r.error();
  log.cursor = checker.cursor();
  log.balanced = checker.balanced();
  return log;
}

// ---- transcoding ------------------------------------------------------------

enum class float_mode {
  as_read,  ///< write_float(value, the item's own width): reproduces the wire
  shortest  ///< write_float(value): preferred serialization
};

/// Writes one item as the matching writer call.
inline status write_item(cbor_fast::writer& w, const item& it, float_mode fm) {
  switch (it.type) {
    case item_type::unsigned_int: return w.write_uint(it.value());
    case item_type::negative_int: return w.write_negative(it.value());
    case item_type::byte_string:
      return it.is_indefinite() ? w.begin_bytes_indefinite() : w.write_bytes(it.bytes());
    case item_type::text_string:
      return it.is_indefinite() ? w.begin_text_indefinite() : w.write_text(it.text());
    case item_type::array:
      return it.is_indefinite() ? w.begin_array_indefinite() : w.begin_array(it.count());
    case item_type::map:
      return it.is_indefinite() ? w.begin_map_indefinite() : w.begin_map(it.count());
    case item_type::tag: return w.write_tag(it.tag_number());
    case item_type::simple: return w.write_simple(it.simple_value());
    case item_type::boolean: return w.write_bool(it.boolean_value());
    case item_type::null: return w.write_null();
    case item_type::undefined: return w.write_undefined();
    case item_type::floating:
      return w.write_float(it.float_value(), fm == float_mode::as_read
                                                 ? static_cast<cbor_fast::float_width>(it.width)
                                                 : cbor_fast::float_width::shortest);
    case item_type::end: return w.end();
    case item_type::none: break;
  }
  return status::internal_error;
}

/// Reads every item of `input` and writes it again; returns ok and the bytes
/// on success, else the first reader or writer failure.
inline status transcode(const uint8_t* input, size_t size, float_mode fm, bytes& out,
                        const cbor_fast::reader_options& options = {}) {
  cbor_fast::reader r(input, size, options);
  cbor_fast::writer w;
  item it;
  for (;;) {
    status s = r.next(it);
    if (s == status::end) break;
    if (s != status::ok) return s;
    s = write_item(w, it, fm);
    if (s != status::ok) return s;
  }
  const status s = w.finish();
  if (s != status::ok) return s;
  out.assign(w.data(), w.data() + w.size());
  return status::ok;
}

/// gtest would print a status as raw bytes: compare and print by name instead.
inline ::testing::AssertionResult status_is(const char* actual_expr, const char*, status actual,
                                            status expected) {
  if (actual == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actual_expr << " is " << cbor_fast::status_name(actual) << " ("
         << static_cast<unsigned>(actual) << "), expected " << cbor_fast::status_name(expected)
         << " (" << static_cast<unsigned>(expected) << ")";
}

}  // namespace cbor_fast_test

#define EXPECT_STATUS(actual, expected) \
  EXPECT_PRED_FORMAT2(::cbor_fast_test::status_is, actual, expected)
#define ASSERT_STATUS(actual, expected) \
  ASSERT_PRED_FORMAT2(::cbor_fast_test::status_is, actual, expected)

#endif  // CBOR_FAST_TESTS_CONFORMANCE_TEST_UTIL_HPP
