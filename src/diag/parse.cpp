// Diagnostic notation (RFC 8949 section 8, RFC 8610 Appendix G) -> CBOR.
//
// One pass over the text records a flat list of events (a head, a string's
// content, a float, a break), a second pass encodes them. Definite heads need
// their counts, and << >> its byte length, before the content: both are
// patched into the opening event when the container closes, and the running
// encoded size tells an embedded item's length. Nesting lives on a heap stack
// bounded by max_depth; nothing recurses.
#include <charconv>
#include <cmath>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "internal/bignum.hpp"
#include "internal/float16.hpp"
#include "internal/shortest.hpp"
#include "internal/hex.hpp"
#include "internal/utf8.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {

constexpr uint8_t k_shortest = 0xff;  ///< no encoding indicator: the shortest head
constexpr size_t k_max_bignum_digits = 4300;

enum ev_kind : uint8_t {
  ev_head,    ///< major / arg / ai
  ev_string,  ///< head of major 2 or 3 with arg = data length, then the data
  ev_float,   ///< width 2, 4 or 8 in ai; bits in arg
  ev_break,
};

struct event {
  uint64_t arg;
  size_t data;  ///< ev_string: offset into the arena
  uint8_t kind;
  uint8_t major;
  uint8_t ai;  ///< k_shortest, 24..27 (an indicator), 31 (indefinite); ev_float: width
};

enum class fk : uint8_t { array, map, tag, embed, chunks };

struct frame {
  fk kind;
  bool indefinite;
  bool closed_tag;      ///< tag: its item is in, ')' is due
  uint8_t chunk_major;  ///< chunks: 0 until the first chunk, then 2 or 3
  size_t head;          ///< index of the opening event
  uint64_t count;       ///< items so far (a map counts keys and values)
  size_t start_total;   ///< embed: encoded size before its content
  size_t offset;        ///< text offset of the opening token
};

size_t head_size(uint64_t arg, uint8_t ai) {
  if (ai == 31) return 1;
  if (ai != k_shortest) return (size_t(1) << (ai - 24)) + 1;  // 24:2, 25:3, 26:5, 27:9
  return arg < 24 ? 1 : arg <= 0xff ? 2 : arg <= 0xffff ? 3 : arg <= 0xffffffff ? 5 : 9;
}

bool fits_ai(uint64_t arg, uint8_t ai) {
  switch (ai) {
    case 24: return arg <= 0xff;
    case 25: return arg <= 0xffff;
    case 26: return arg <= 0xffffffff;
    default: return true;
  }
}

using detail::hex_value;

class parser {
 public:
  parser(std::string_view text, const diag_parse_options& options) : t_(text), opt_(options) {}

  status run(std::vector<uint8_t>& out);
  size_t error_offset() const { return err_; }

 private:
  status fail(status s, size_t at) {
    err_ = at;
    return s;
  }
  bool at_end() const { return p_ >= t_.size(); }
  char peek(size_t k = 0) const { return p_ + k < t_.size() ? t_[p_ + k] : '\0'; }
  status skip_space();
  status item();
  status close_frame(char c);
  status after_value();
  status number();
  status word();
  status strings();
  status string_literal(std::string& content, uint8_t& major, size_t& at);
  status quoted_text(std::string& out);
  status quoted_bytes(std::string& out);
  status quoted(std::string& out, char quote);
  status hex_literal(std::string& out);
  status base_literal(std::string& out, int kind);
  /// An optional _0.._3 right here: its ai (24..27) or k_shortest.
  status indicator(uint8_t& ai, bool allow_underscore_alone, bool* underscore_alone);
  status open(fk kind, bool indefinite, uint8_t major, uint8_t ai, size_t at);
  void add(const event& e, size_t encoded) {
    events_.push_back(e);
    total_ += encoded;
  }
  status integer_event(bool negative, std::string_view digits, int base, uint8_t ai, size_t at);

  std::string_view t_;
  const diag_parse_options& opt_;
  size_t p_ = 0;
  size_t err_ = 0;
  size_t total_ = 0;  ///< encoded size of the events so far (container heads once closed)
  std::vector<event> events_;
  std::string arena_;
  std::vector<frame> stack_;
  size_t top_items_ = 0;
  bool want_value_ = true;  ///< an item is due (else a separator or a close)
};

status parser::skip_space() {
  while (!at_end()) {
    const char c = t_[p_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++p_;
    } else if (c == '#') {
      while (!at_end() && t_[p_] != '\n') ++p_;
    } else if (c == '/') {
      const size_t start = p_++;
      while (!at_end() && t_[p_] != '/') ++p_;
      if (at_end()) return fail(status::syntax_error, start);
      ++p_;
    } else {
      break;
    }
  }
  return status::ok;
}

status parser::indicator(uint8_t& ai, bool allow_underscore_alone, bool* underscore_alone) {
  ai = k_shortest;
  if (peek() != '_') return status::ok;
  const char d = peek(1);
  if (d >= '0' && d <= '3' && !(peek(2) >= '0' && peek(2) <= '9')) {
    ai = uint8_t(24 + (d - '0'));
    p_ += 2;
    return status::ok;
  }
  if (allow_underscore_alone && !(d >= '0' && d <= '9')) {
    *underscore_alone = true;
    ++p_;
    return status::ok;
  }
  return fail(status::syntax_error, p_);
}

status parser::open(fk kind, bool indefinite, uint8_t major, uint8_t ai, size_t at) {
  if (stack_.size() >= opt_.max_depth) return fail(status::depth_exceeded, at);
  frame f{};
  f.kind = kind;
  f.indefinite = indefinite;
  f.head = events_.size();
  f.start_total = total_;
  f.offset = at;
  if (kind == fk::embed) {
    events_.push_back({0, 0, ev_head, 2, k_shortest});  // length patched at ">>"
    f.start_total = total_;
  } else if (kind == fk::tag) {
    // The tag's head is added by the caller (its size is known).
  } else if (indefinite) {
    add({0, 0, ev_head, major, 31}, 1);
  } else {
    events_.push_back({0, 0, ev_head, major, ai});  // count patched at the close
  }
  stack_.push_back(f);
  want_value_ = true;
  return status::ok;
}

/// The item just parsed is complete: count it in its parent.
status parser::after_value() {
  want_value_ = false;
  if (stack_.empty()) {
    ++top_items_;
    return status::ok;
  }
  frame& f = stack_.back();
  ++f.count;
  if (f.kind == fk::tag) f.closed_tag = true;
  return status::ok;
}

status parser::close_frame(char c) {
  const size_t at = p_;
  frame f = stack_.back();
  switch (f.kind) {
    case fk::array:
      if (c != ']') return fail(status::syntax_error, at);
      ++p_;
      break;
    case fk::map:
      if (c != '}') return fail(status::syntax_error, at);
      if (f.count % 2 != 0) return fail(status::syntax_error, at);
      ++p_;
      break;
    case fk::chunks:
      if (c != ')') return fail(status::syntax_error, at);
      if (f.count == 0) return fail(status::syntax_error, at);  // (_ ): bytes or text?
      ++p_;
      break;
    case fk::tag:
      if (c != ')' || !f.closed_tag) return fail(status::syntax_error, at);
      ++p_;
      break;
    case fk::embed:
      if (c != '>' || peek(1) != '>') return fail(status::syntax_error, at);
      p_ += 2;
      break;
  }
  stack_.pop_back();
  if (f.kind == fk::embed) {
    const uint64_t len = total_ - f.start_total;
    events_[f.head].arg = len;
    total_ += head_size(len, k_shortest);
  } else if (f.kind == fk::tag) {
    // nothing: the head was counted when it was read
  } else if (f.indefinite) {
    add({0, 0, ev_break, 7, 31}, 1);
  } else {
    const uint64_t n = f.kind == fk::map ? f.count / 2 : f.count;
    event& head = events_[f.head];
    if (!fits_ai(n, head.ai)) return fail(status::out_of_range, f.offset);
    head.arg = n;
    total_ += head_size(n, head.ai);
  }
  return after_value();
}

status parser::integer_event(bool negative, std::string_view digits, int base, uint8_t ai,
                             size_t at) {
  uint64_t n = 0;
  bool fits = true;
  for (char c : digits) {
    const uint64_t d = uint64_t(hex_value(c));
    if (n > (UINT64_MAX - d) / uint64_t(base)) {
      fits = false;
      break;
    }
    n = n * uint64_t(base) + d;
  }
  if (fits && (!negative || n != 0)) {
    const uint64_t arg = negative ? n - 1 : n;
    if (!fits_ai(arg, ai)) return fail(status::out_of_range, at);
    add({arg, 0, ev_head, uint8_t(negative ? 1 : 0), ai}, head_size(arg, ai));
    return status::ok;
  }
  if (fits) {  // -0: the integer 0
    add({0, 0, ev_head, 0, ai}, head_size(0, ai));
    return status::ok;
  }
  // Beyond 64 bits: a bignum, tag 2 or 3 over the magnitude (minus one when
  // negative). An encoding indicator asks for a head: only -2^64 still has
  // one (0x3b ff..ff), found below.
  if (ai != k_shortest && !negative) return fail(status::out_of_range, at);
  std::vector<uint8_t> mag;
  if (base == 10) {
    if (digits.size() > k_max_bignum_digits) return fail(status::out_of_range, at);
    mag = detail::decimal_to_magnitude(digits);
  } else {
    // 0x, 0o, 0b: each digit is 4, 3 or 1 bits of the magnitude.
    const unsigned bits = base == 16 ? 4 : base == 8 ? 3 : 1;
    size_t i = 0;
    while (i < digits.size() && digits[i] == '0') ++i;
    const std::string_view d = digits.substr(i);
    mag.assign((d.size() * bits + 7) / 8, 0);
    for (size_t k = 0; k < d.size(); ++k) {
      const unsigned v = unsigned(hex_value(d[d.size() - 1 - k]));  // digit k from the right
      for (unsigned b = 0; b < bits; ++b) {
        const size_t pos = k * bits + b;
        if ((v >> b) & 1u) mag[mag.size() - 1 - pos / 8] |= uint8_t(1u << (pos % 8));
      }
    }
    // Octal digits need not fill the top byte: no leading zero bytes.
    size_t z = 0;
    while (z + 1 < mag.size() && mag[z] == 0) ++z;
    mag.erase(mag.begin(), mag.begin() + std::ptrdiff_t(z));
  }
  if (negative) {  // -N: tag 3 holds N - 1 (N > 2^64, so no borrow out)
    detail::decrement_magnitude(mag);
    if (mag.size() <= 8) {  // -2^64 .. : still major type 1
      uint64_t v = 0;
      for (uint8_t b : mag) v = v << 8 | b;
      // -18446744073709551616_3 (it was out_of_range, where the same number
      // without the indicator gave this head)
      if (!fits_ai(v, ai)) return fail(status::out_of_range, at);
      add({v, 0, ev_head, 1, ai}, head_size(v, ai));
      return status::ok;
    }
  }
  if (ai != k_shortest) return fail(status::out_of_range, at);
  // The bignum's tag is a level, as every tag open() starts is: a reader
  // with the same max_depth must take the output.
  if (stack_.size() >= opt_.max_depth) return fail(status::depth_exceeded, at);
  add({uint64_t(negative ? 3 : 2), 0, ev_head, 6, k_shortest},
      head_size(negative ? 3 : 2, k_shortest));
  const size_t off = arena_.size();
  arena_.append(reinterpret_cast<const char*>(mag.data()), mag.size());
  add({mag.size(), off, ev_string, 2, k_shortest}, head_size(mag.size(), k_shortest) + mag.size());
  return status::ok;
}

/// A number, or a tag when '(' follows an integer.
status parser::number() {
  const size_t at = p_;
  bool negative = false;
  if (peek() == '-' || peek() == '+') {
    negative = peek() == '-';
    ++p_;
  }
  if (t_.substr(p_, 8) == "Infinity") {
    p_ += 8;
    const double v = negative ? -HUGE_VAL : HUGE_VAL;
    uint8_t ai;
    if (status s = indicator(ai, false, nullptr); s != status::ok) return s;
    if (ai == 24) return fail(status::syntax_error, p_ - 2);
    uint64_t bits = detail::double_to_bits(v);
    uint8_t width = 8;
    if (ai == 25 || ai == k_shortest) {
      width = 2, bits = detail::narrow_double_bits<5, 10>(bits);
    } else if (ai == 26) {
      width = 4, bits = detail::narrow_double_bits<8, 23>(bits);
    }
    add({bits, 0, ev_float, 7, width}, 1 + width);
    return after_value();
  }
  int base = 10;
  if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) base = 16;
  if (peek() == '0' && (peek(1) == 'o' || peek(1) == 'O')) base = 8;
  if (peek() == '0' && (peek(1) == 'b' || peek(1) == 'B')) base = 2;
  if (base != 10) p_ += 2;
  const size_t digits_at = p_;
  const auto is_digit = [&](char c) {
    if (base == 16) return hex_value(c) >= 0;
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 2) return c == '0' || c == '1';
    return c >= '0' && c <= '9';
  };
  while (!at_end() && is_digit(t_[p_])) ++p_;
  const std::string_view int_digits = t_.substr(digits_at, p_ - digits_at);
  bool is_float = false;
  if (base == 10 && (peek() == '.' || peek() == 'e' || peek() == 'E')) is_float = true;
  if (base == 16 && (peek() == '.' || peek() == 'p' || peek() == 'P')) is_float = true;
  if (!is_float) {
    if (int_digits.empty()) return fail(status::syntax_error, at);
    uint8_t ai;
    if (status s = indicator(ai, false, nullptr); s != status::ok) return s;
    if (peek() == '(') {  // a tag
      if (negative || t_[at] == '+') return fail(status::syntax_error, at);
      const size_t before = events_.size();
      if (status s = integer_event(false, int_digits, base, ai, at); s != status::ok) return s;
      if (events_.size() != before + 1) return fail(status::out_of_range, at);  // a bignum
      events_.back().major = 6;
      ++p_;
      return open(fk::tag, false, 6, ai, at);
    }
    if (status s = integer_event(negative, int_digits, base, ai, at); s != status::ok) return s;
    return after_value();
  }
  // A float: decimal, or hexadecimal with a binary exponent.
  if (base == 16) {
    if (peek() == '.') {
      ++p_;
      while (!at_end() && hex_value(t_[p_]) >= 0) ++p_;
    }
    if (peek() != 'p' && peek() != 'P') return fail(status::syntax_error, at);
  } else if (peek() == '.') {
    ++p_;
    const size_t frac = p_;
    while (!at_end() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
    if (p_ == frac || int_digits.empty()) return fail(status::syntax_error, at);
  }
  if (peek() == 'e' || peek() == 'E' || peek() == 'p' || peek() == 'P') {
    ++p_;
    if (peek() == '+' || peek() == '-') ++p_;
    const size_t exp = p_;
    while (!at_end() && t_[p_] >= '0' && t_[p_] <= '9') ++p_;
    if (p_ == exp) return fail(status::syntax_error, at);
  }
  double v = 0;
  // Too large: out_of_range, as for an integer. Too small: zero, the
  // nearest double (as a width indicator's rounding gives 1e-10_1 f90000).
  switch (detail::read_float(t_.data() + digits_at, t_.data() + p_, base == 16, v)) {
    case detail::float_text::ok: break;
    case detail::float_text::syntax: return fail(status::syntax_error, at);
    case detail::float_text::overflow: return fail(status::out_of_range, at);
  }
  if (negative) v = -v;
  uint8_t ai;
  if (status s = indicator(ai, false, nullptr); s != status::ok) return s;
  if (ai == 24) return fail(status::syntax_error, p_ - 2);
  uint64_t bits = detail::double_to_bits(v), narrow = 0;
  uint8_t width = 8;
  // _1 and _2 round to their width; a value past its largest finite one
  // (65520.0_1, 1e39_2) does not fit: out_of_range, not an infinity.
  if (ai == 25) {
    width = 2, bits = detail::narrow_double_bits<5, 10>(bits);
    if ((bits & 0x7c00u) == 0x7c00u) return fail(status::out_of_range, at);
  } else if (ai == 26) {
    width = 4, bits = detail::narrow_double_bits<8, 23>(bits);
    if ((bits & 0x7f800000u) == 0x7f800000u) return fail(status::out_of_range, at);
  } else if (ai == k_shortest) {
    if (detail::narrows_exactly<5, 10>(bits, &narrow)) {
      width = 2, bits = narrow;
    } else if (detail::narrows_exactly<8, 23>(bits, &narrow)) {
      width = 4, bits = narrow;
    }
  }
  add({bits, 0, ev_float, 7, width}, 1 + width);
  return after_value();
}

/// false, true, null, undefined, NaN, Infinity, simple(N), or a string prefix.
status parser::word() {
  const size_t at = p_;
  size_t e = p_;
  while (e < t_.size() && ((t_[e] >= 'a' && t_[e] <= 'z') || (t_[e] >= 'A' && t_[e] <= 'Z') ||
                           (t_[e] >= '0' && t_[e] <= '9')))
    ++e;
  const std::string_view w = t_.substr(p_, e - p_);
  if (e < t_.size() && t_[e] == '\'' && (w == "h" || w == "b64" || w == "b32" || w == "h32"))
    return strings();
  p_ = e;
  uint8_t simple = 0;
  if (w == "false") {
    simple = 20;
  } else if (w == "true") {
    simple = 21;
  } else if (w == "null") {
    simple = 22;
  } else if (w == "undefined") {
    simple = 23;
  } else if (w == "NaN" || w == "Infinity") {
    p_ = at;
    if (w == "Infinity") return number();
    p_ = e;
    uint8_t ai;
    if (status s = indicator(ai, false, nullptr); s != status::ok) return s;
    if (ai == 24) return fail(status::syntax_error, p_ - 2);
    const uint8_t width = ai == 26 ? 4 : ai == 27 ? 8 : 2;
    const uint64_t bits = width == 2 ? 0x7e00 : width == 4 ? 0x7fc00000 : 0x7ff8000000000000;
    add({bits, 0, ev_float, 7, width}, 1 + width);
    return after_value();
  } else if (w == "simple") {
    if (peek() != '(') return fail(status::syntax_error, at);
    ++p_;
    if (status s = skip_space(); s != status::ok) return s;
    const size_t num = p_;
    uint64_t n = 0;
    while (!at_end() && t_[p_] >= '0' && t_[p_] <= '9') {
      n = n * 10 + uint64_t(t_[p_] - '0');
      if (n > 255) return fail(status::out_of_range, num);
      ++p_;
    }
    if (p_ == num) return fail(status::syntax_error, num);
    if (n >= 24 && n < 32) return fail(status::out_of_range, num);  // not well-formed
    if (status s = skip_space(); s != status::ok) return s;
    if (peek() != ')') return fail(status::syntax_error, p_);
    ++p_;
    add({n, 0, ev_head, 7, k_shortest}, head_size(n, k_shortest));
    return after_value();
  } else {
    return fail(status::syntax_error, at);
  }
  add({simple, 0, ev_head, 7, k_shortest}, 1);
  return after_value();
}

status parser::quoted_text(std::string& out) { return quoted(out, '"'); }

/// "text" or 'bytes' after its opening quote: JSON's escapes and \' (RFC
/// 8610 G.2: a single-quoted string takes the escapes of a double-quoted
/// one), no raw control character.
status parser::quoted(std::string& out, char quote) {
  const size_t at = p_;
  ++p_;  // the quote
  for (;;) {
    if (at_end()) return fail(status::syntax_error, at);
    const char c = t_[p_];
    if (c == quote) {
      ++p_;
      return status::ok;
    }
    if (c != '\\') {
      if (static_cast<unsigned char>(c) < 0x20) return fail(status::syntax_error, p_);
      out += c;
      ++p_;
      continue;
    }
    const size_t esc = p_;
    const char e = peek(1);
    p_ += 2;
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case '\'': out += '\''; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        const auto hex4 = [&](uint32_t& v) {
          v = 0;
          for (int i = 0; i < 4; ++i) {
            const int h = hex_value(peek());
            if (h < 0) return false;
            v = v << 4 | uint32_t(h);
            ++p_;
          }
          return true;
        };
        uint32_t cp;
        if (!hex4(cp)) return fail(status::syntax_error, esc);
        if (cp >= 0xdc00 && cp <= 0xdfff) return fail(status::syntax_error, esc);
        if (cp >= 0xd800 && cp <= 0xdbff) {
          uint32_t lo;
          if (peek() != '\\' || peek(1) != 'u') return fail(status::syntax_error, esc);
          p_ += 2;
          if (!hex4(lo) || lo < 0xdc00 || lo > 0xdfff) return fail(status::syntax_error, esc);
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        if (cp < 0x80) {
          out += char(cp);
        } else if (cp < 0x800) {
          out += char(0xc0 | (cp >> 6));
          out += char(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
          out += char(0xe0 | (cp >> 12));
          out += char(0x80 | ((cp >> 6) & 0x3f));
          out += char(0x80 | (cp & 0x3f));
        } else {
          out += char(0xf0 | (cp >> 18));
          out += char(0x80 | ((cp >> 12) & 0x3f));
          out += char(0x80 | ((cp >> 6) & 0x3f));
          out += char(0x80 | (cp & 0x3f));
        }
        break;
      }
      default: return fail(status::syntax_error, esc);
    }
  }
}

/// 'text' as a byte string (RFC 8610 G.2): the UTF-8 bytes of its
/// characters, escapes as in "text"; the text between the quotes must be
/// UTF-8 (invalid_utf8 at the opening quote), as a text string's content.
status parser::quoted_bytes(std::string& out) {
  const size_t at = p_;
  const size_t before = out.size();
  if (status s = quoted(out, '\''); s != status::ok) return s;
  if (detail::utf8_validate(reinterpret_cast<const uint8_t*>(out.data()) + before,
                            out.size() - before) != out.size() - before)
    return fail(status::invalid_utf8, at);
  return status::ok;
}

/// h'..': hex digit pairs; whitespace and /comments/ anywhere between digits.
status parser::hex_literal(std::string& out) {
  const size_t at = p_;
  p_ += 2;  // h'
  int pending = -1;
  for (;;) {
    if (at_end()) return fail(status::syntax_error, at);
    const char c = t_[p_];
    if (c == '\'') {
      if (pending >= 0) return fail(status::syntax_error, p_);
      ++p_;
      return status::ok;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' || c == '#') {
      if (status s = skip_space(); s != status::ok) return s;
      continue;
    }
    const int h = hex_value(c);
    if (h < 0) return fail(status::syntax_error, p_);
    if (pending < 0) {
      pending = h;
    } else {
      out += char(pending << 4 | h);
      pending = -1;
    }
    ++p_;
  }
}

/// b64'..' (base64 or base64url, padding optional), b32'..', h32'..'.
status parser::base_literal(std::string& out, int kind) {
  const size_t at = p_;
  p_ += kind == 64 ? 4 : 4;  // b64' b32' h32'
  const unsigned bits = kind == 64 ? 6 : 5;
  uint32_t acc = 0;
  unsigned have = 0;
  bool padding = false;
  for (;;) {
    if (at_end()) return fail(status::syntax_error, at);
    const char c = t_[p_];
    if (c == '\'') {
      ++p_;
      // Leftover bits must be zero and at most 4: 6 (one base64 character
      // too many, "b64'A'") or 5 to 7 (base32) cannot end a valid text.
      if (have > 4 || (acc & ((1u << have) - 1)) != 0) return fail(status::syntax_error, p_ - 1);
      return status::ok;
    }
    // Whitespace; comments in base32 and base16-32, not in base64, where '/'
    // is a digit (RFC 8610 errata 6543: b64'' holds QCHARs only: letters,
    // digits, + / - _ = and whitespace): b64'AA/AA/AA' is 6 bytes.
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (kind == 64) {
        ++p_;  // (skip_space() would take a '/' after it for a comment)
        continue;
      }
      if (status s = skip_space(); s != status::ok) return s;
      continue;
    }
    if (kind != 64 && (c == '/' || c == '#')) {
      if (status s = skip_space(); s != status::ok) return s;
      continue;
    }
    if (c == '=') {
      padding = true;
      ++p_;
      continue;
    }
    int v = -1;
    if (kind == 64) {
      if (c >= 'A' && c <= 'Z')
        v = c - 'A';
      else if (c >= 'a' && c <= 'z')
        v = c - 'a' + 26;
      else if (c >= '0' && c <= '9')
        v = c - '0' + 52;
      else if (c == '+' || c == '-')
        v = 62;
      else if (c == '/' || c == '_')
        v = 63;
    } else if (kind == 32) {
      if (c >= 'A' && c <= 'Z')
        v = c - 'A';
      else if (c >= 'a' && c <= 'z')
        v = c - 'a';
      else if (c >= '2' && c <= '7')
        v = c - '2' + 26;
    } else {
      if (c >= '0' && c <= '9')
        v = c - '0';
      else if (c >= 'A' && c <= 'V')
        v = c - 'A' + 10;
      else if (c >= 'a' && c <= 'v')
        v = c - 'a' + 10;
    }
    if (v < 0 || padding) return fail(status::syntax_error, p_);
    acc = (acc << bits | uint32_t(v)) & 0xffff;
    have += bits;
    if (have >= 8) {
      have -= 8;
      out += char((acc >> have) & 0xff);
    }
    ++p_;
  }
}

/// One string literal of any kind into content; major 2 or 3.
status parser::string_literal(std::string& content, uint8_t& major, size_t& at) {
  at = p_;
  const char c = peek();
  if (c == '"') {
    major = 3;
    return quoted_text(content);
  }
  if (c == '\'') {
    major = 2;
    return quoted_bytes(content);
  }
  major = 2;
  if (c == 'h' && peek(1) == '\'') return hex_literal(content);
  if (t_.substr(p_, 4) == "b64'") return base_literal(content, 64);
  if (t_.substr(p_, 4) == "b32'") return base_literal(content, 32);
  if (t_.substr(p_, 4) == "h32'") return base_literal(content, 33);
  return fail(status::syntax_error, p_);
}

/// A string, strings joined with '+' (or side by side inside a container), a
/// ''_ / ""_ empty indefinite string, with an optional indicator.
status parser::strings() {
  std::string content;
  uint8_t major;
  size_t at;
  if (status s = string_literal(content, major, at); s != status::ok) return s;
  // ''_ and ""_ : empty indefinite strings.
  if (content.empty() && peek() == '_' && !(peek(1) >= '0' && peek(1) <= '9') &&
      (t_[p_ - 1] == '\'' || t_[p_ - 1] == '"') && p_ - at == 2) {
    // Not a chunk: chunks of an indefinite string are definite.
    if (!stack_.empty() && stack_.back().kind == fk::chunks) return fail(status::syntax_error, at);
    ++p_;
    add({0, 0, ev_head, major, 31}, 1);
    add({0, 0, ev_break, 7, 31}, 1);
    return after_value();
  }
  uint8_t ai = k_shortest;
  for (;;) {
    if (status s = indicator(ai, false, nullptr); s != status::ok) return s;
    const size_t save = p_;
    if (status s = skip_space(); s != status::ok) return s;
    const bool plus = peek() == '+';
    const char n = plus ? '\0' : peek();
    // Strings side by side join (RFC 8610 G.4) inside containers, and at
    // the top level of one item; in a sequence whitespace separates items.
    const bool beside =
        (!stack_.empty() || !opt_.sequence) &&
        (n == '"' || n == '\'' || (n == 'h' && peek(1) == '\'') || t_.substr(p_, 4) == "b64'" ||
         t_.substr(p_, 4) == "b32'" || t_.substr(p_, 4) == "h32'");
    if (!plus && !beside) {
      p_ = save;
      break;
    }
    if (ai != k_shortest) return fail(status::syntax_error, save);  // an indicator ends it
    if (plus) {
      ++p_;
      if (status s = skip_space(); s != status::ok) return s;
    }
    uint8_t m2;
    size_t at2;
    if (status s = string_literal(content, m2, at2); s != status::ok) return s;
    // Byte string notation may join text ("a" h'62' is "ab"), but text does
    // not join bytes (G.4: 'a' "b" was the byte string 'ab').
    if (major == 2 && m2 == 3) return fail(status::syntax_error, at2);
  }
  if (major == 3 && detail::utf8_validate(reinterpret_cast<const uint8_t*>(content.data()),
                                          content.size()) != content.size())
    return fail(status::invalid_utf8, at);
  if (!fits_ai(content.size(), ai)) return fail(status::out_of_range, at);
  if (!stack_.empty() && stack_.back().kind == fk::chunks) {
    frame& f = stack_.back();
    if (f.chunk_major == 0) {
      f.chunk_major = major;
      events_[f.head].major = major;
    } else if (f.chunk_major != major) {
      return fail(status::syntax_error, at);
    }
  }
  const size_t off = arena_.size();
  arena_ += content;
  add({content.size(), off, ev_string, major, ai}, head_size(content.size(), ai) + content.size());
  return after_value();
}

/// One item, or the opening of a container, tag or embedded sequence.
status parser::item() {
  const size_t at = p_;
  if (!stack_.empty() && stack_.back().kind == fk::chunks) {
    const char c = peek();
    if (c != '"' && c != '\'' && c != 'h' && c != 'b') return fail(status::syntax_error, at);
    return strings();
  }
  const char c = peek();
  if (c == '[' || c == '{') {
    ++p_;
    uint8_t ai;
    bool indefinite = false;
    if (status s = indicator(ai, true, &indefinite); s != status::ok) return s;
    return open(c == '[' ? fk::array : fk::map, indefinite, c == '[' ? 4 : 5, ai, at);
  }
  if (c == '(') {
    ++p_;
    if (peek() != '_') return fail(status::syntax_error, at);
    ++p_;
    return open(fk::chunks, true, 2, 31, at);
  }
  if (c == '<' && peek(1) == '<') {
    p_ += 2;
    return open(fk::embed, false, 2, k_shortest, at);
  }
  if ((c >= '0' && c <= '9') || c == '-' || c == '+') return number();
  if (c == '"' || c == '\'') return strings();
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return word();
  return fail(status::syntax_error, at);
}

status parser::run(std::vector<uint8_t>& out) {
  for (;;) {
    const size_t before_space = p_;
    if (status s = skip_space(); s != status::ok) return s;
    if (at_end()) {
      if (!stack_.empty()) return fail(status::syntax_error, p_);
      // No item at all: an empty sequence is one (RFC 8742), a single item
      // is due otherwise.
      if (top_items_ == 0 && !opt_.sequence) return fail(status::syntax_error, p_);
      break;
    }
    const char c = t_[p_];
    if (want_value_) {
      // An empty container may close where an item is due.
      if (!stack_.empty() && stack_.back().count == 0 && stack_.back().kind != fk::tag &&
          (c == ']' || c == '}' || c == ')' || (c == '>' && peek(1) == '>'))) {
        if (status s = close_frame(c); s != status::ok) return s;
        continue;
      }
      if (stack_.empty() && top_items_ != 0 && !opt_.sequence)
        return fail(status::syntax_error, p_);
      if (status s = item(); s != status::ok) return s;
      continue;
    }
    // After an item: a separator or a close.
    if (stack_.empty()) {
      if (!opt_.sequence) return fail(status::syntax_error, p_);
      // Top-level items are separated by a comma or by white space (or a
      // comment): "1-1", "0o78" and "1(2)3" are not two or three items.
      if (c == ',') {
        ++p_;
      } else if (p_ == before_space) {
        return fail(status::syntax_error, p_);
      }
      want_value_ = true;
      continue;
    }
    frame& f = stack_.back();
    if (f.kind == fk::map && f.count % 2 == 1) {
      if (c != ':') return fail(status::syntax_error, p_);
      ++p_;
      want_value_ = true;
      continue;
    }
    if (c == ',' && f.kind != fk::tag) {
      ++p_;
      want_value_ = true;
      if (status s = skip_space(); s != status::ok) return s;
      // No trailing comma before a close.
      const char d = peek();
      if (d == ']' || d == '}' || d == ')' || (d == '>' && peek(1) == '>'))
        return fail(status::syntax_error, p_);
      continue;
    }
    if (status s = close_frame(c); s != status::ok) return s;
  }

  // Encode the events.
  std::vector<uint8_t> bytes;
  bytes.reserve(total_);
  uint8_t head[9];
  for (const event& e : events_) {
    switch (e.kind) {
      case ev_head:
      case ev_string: {
        const uint8_t ib = uint8_t(e.major << 5);
        size_t n;
        if (e.ai == 31) {
          head[0] = uint8_t(ib | 31);
          n = 1;
        } else {
          n = head_size(e.arg, e.ai);
          if (n == 1) {
            head[0] = uint8_t(ib | e.arg);
          } else {
            head[0] = uint8_t(ib | (n == 2 ? 24 : n == 3 ? 25 : n == 5 ? 26 : 27));
            for (size_t i = 1; i < n; ++i) head[i] = uint8_t(e.arg >> (8 * (n - 1 - i)));
          }
        }
        bytes.insert(bytes.end(), head, head + n);
        if (e.kind == ev_string) {
          const auto* d = reinterpret_cast<const uint8_t*>(arena_.data() + e.data);
          bytes.insert(bytes.end(), d, d + e.arg);
        }
        break;
      }
      case ev_float: {
        const unsigned w = e.ai;
        head[0] = w == 2 ? 0xf9 : w == 4 ? 0xfa : 0xfb;
        for (unsigned i = 0; i < w; ++i) head[1 + i] = uint8_t(e.arg >> (8 * (w - 1 - i)));
        bytes.insert(bytes.end(), head, head + 1 + w);
        break;
      }
      default: bytes.push_back(0xff); break;
    }
  }
  if (bytes.size() != total_) return fail(status::internal_error, 0);
  out.insert(out.end(), bytes.begin(), bytes.end());
  return status::ok;
}

}  // namespace

status diag_parse(std::string_view text, std::vector<uint8_t>& out,
                  const diag_parse_options& options, error_info* error) {
  status s;
  size_t at = 0;
  try {
    parser p(text, options);
    s = p.run(out);
    at = p.error_offset();
  } catch (const std::bad_alloc&) {
    s = status::out_of_memory;
  }
  if (error != nullptr) {
    *error = error_info{};
    error->code = s;
    if (s != status::ok) error->offset = at;
  }
  return s;
}

}  // namespace v1
}  // namespace cbor_fast
