// JSON -> CBOR (RFC 8949 section 6.2) with simdjson.
//
// Two routes, one result:
//  - fast: simdjson's DOM parser (stage 1 picks the best SIMD kernel at run
//    time) validates the whole text into its tape, which holds each array's
//    and object's size; a walk over the tape writes the CBOR directly;
//  - exact: when the DOM parser refuses the text (an integer beyond 64 bits,
//    or an error, whose offset the DOM parser does not tell), the On-Demand
//    parser walks it again, reading integers digit by digit (other numbers
//    with std::from_chars: detail::read_float), and records a
//    flat list of events (counts patched in when a container closes) that a
//    second pass writes; its errors carry the text offset. Its kernel is the
//    one the compiler targets (portable code), so it is the slow route.
// Both keep nesting on an explicit stack of simdjson iterators, never recursion.
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

#include "cbor_fast/json.hpp"
#include "internal/bignum.hpp"
#include "internal/float16.hpp"
#include "internal/hex.hpp"
#include "internal/shortest.hpp"
#include "internal/utf8.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {

namespace od = simdjson::ondemand;

enum event_kind : uint8_t {
  ev_uint,      ///< arg: the value
  ev_negative,  ///< arg: n, the value being -1 - n
  ev_bignum,    ///< text/arg: the decimal digits; negative flag
  ev_float,     ///< arg: binary64 bits
  ev_text,      ///< text/arg: unescaped string
  ev_array,     ///< arg: element count (patched at the close)
  ev_map,       ///< arg: member count (patched at the close)
  ev_end,
  ev_true,
  ev_false,
  ev_null,
};

struct event {
  uint64_t arg;
  const char* text;
  uint8_t kind;
  bool negative;
};

/// Python's int() default limit on decimal digits (sys.int_info.default_max_str_digits).
constexpr size_t k_max_bignum_digits = 4300;

struct level {
  bool object;
  od::array_iterator ait, aend;
  od::object_iterator oit, oend;
  size_t head;  ///< index of the container's event
  uint64_t count;
  size_t keys_start;  ///< reject_duplicate_keys: this object's keys in keys_
};

struct key_ref {
  std::string_view name;
  size_t offset;
};

/// Where simdjson's first pass stopped, which it does not say: the first
/// control character inside a string (or escaped by a backslash), else the
/// quote that opens a string left unclosed; 0 if neither is found.
size_t string_error_offset(std::string_view t) {
  bool in_string = false;
  size_t opened = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if (!in_string) {
      if (c == '"') {
        in_string = true;
        opened = i;
      }
      continue;
    }
    if (c == '\\') {
      if (i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) < 0x20) return i + 1;
      ++i;
    } else if (c == '"') {
      in_string = false;
    } else if (c < 0x20) {
      return i;
    }
  }
  return in_string ? opened : 0;
}

/// The backslash of the first escape in the string whose quote is at `quote`
/// that does not unescape: a bad letter, \u without four hex digits, or a
/// surrogate not in a high-low pair (simdjson's STRING_ERROR says no more).
/// npos when none is found before the closing quote.
size_t bad_escape_offset(std::string_view t, size_t quote) {
  const auto hex4 = [&](size_t at, unsigned* v) {
    if (at + 4 > t.size()) return false;
    *v = 0;
    for (size_t k = at; k < at + 4; ++k) {
      const int d = detail::hex_value(t[k]);
      if (d < 0) return false;
      *v = *v << 4 | unsigned(d);
    }
    return true;
  };
  for (size_t i = quote + 1; i < t.size() && t[i] != '"'; ++i) {
    if (t[i] != '\\') continue;
    if (i + 1 >= t.size()) return i;
    const char c = t[i + 1];
    if (c != 'u') {
      if (std::strchr("\"\\/bfnrt", c) == nullptr || c == 0) return i;
      ++i;
      continue;
    }
    unsigned v;
    if (!hex4(i + 2, &v)) return i;
    if (v >= 0xdc00 && v <= 0xdfff) return i;  // a low surrogate first
    if (v >= 0xd800 && v <= 0xdbff) {
      unsigned low;
      if (i + 7 >= t.size() || t[i + 6] != '\\' || t[i + 7] != 'u' || !hex4(i + 8, &low) ||
          low < 0xdc00 || low > 0xdfff)
        return i;
      i += 6;
    }
    i += 5;
  }
  return std::string_view::npos;
}

status map_error(simdjson::error_code e) {
  switch (e) {
    case simdjson::SUCCESS: return status::ok;
    case simdjson::MEMALLOC: return status::out_of_memory;
    case simdjson::UTF8_ERROR: return status::invalid_utf8;
    case simdjson::DEPTH_ERROR: return status::depth_exceeded;
    case simdjson::CAPACITY: return status::string_too_long;
    case simdjson::NUMBER_OUT_OF_RANGE: return status::out_of_range;
    default: return status::syntax_error;
  }
}

/// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? (RFC 8259 section 6).
bool json_number_grammar(std::string_view t) {
  size_t i = 0;
  const auto digits = [&]() {
    const size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

class converter {
 public:
  converter(const from_json_options& options) : opt_(options) {}

  status run(const simdjson::padded_string& padded, std::string_view json, writer& w,
             error_info* error);

 private:
  status fail(status s, size_t offset) {
    err_offset_ = offset;
    return s;
  }
  status fail_simdjson(simdjson::error_code e, od::document& doc) {
    size_t at = size_;
    const char* loc = nullptr;
    if (doc.current_location().get(loc) == simdjson::SUCCESS && loc != nullptr && loc >= base_ &&
        loc <= base_ + size_)
      at = size_t(loc - base_);
    return fail(map_error(e), at);
  }
  /// A string that did not unescape: at its bad escape when one is found.
  status fail_string(simdjson::error_code e, od::document& doc, size_t quote) {
    const size_t at = bad_escape_offset(std::string_view(base_, size_), quote);
    if (at == std::string_view::npos) return fail_simdjson(e, doc);
    return fail(map_error(e), at);
  }
  status number(std::string_view token, od::value* v, od::document* doc);
  status value(od::value v, od::document& doc);
  status root_scalar(od::json_type t, od::document& doc);
  status walk(od::document& doc);
  status close(level& l);
  status emit(writer& w) const;

  const from_json_options& opt_;
  const char* base_ = nullptr;
  size_t size_ = 0;
  size_t err_offset_ = 0;
  std::vector<event> events_;
  std::vector<level> stack_;
  std::vector<key_ref> keys_;
};

/// The depth simdjson's parsers are made for: max_depth, but no more than a
/// text of `size` bytes can open (a level a byte, unclosed ones counted),
/// rounded up to a power of two of at least 1024 (the default limit) so that
/// a kept parser is not made again for each text size. simdjson's buffers
/// grow with the depth: a lifted max_depth (4294967295) made them about
/// 2.25 GB for any text.
size_t parser_depth(uint32_t max_depth, size_t size) {
  size_t most = 1024;
  while (most < size + 1 && most < 0xfffffff) most *= 2;
  if (most > 0xfffffff) most = 0xfffffff;
  return max_depth < most ? size_t(max_depth) : most;
}

/// A number token: integers (no fraction or exponent) are parsed here, to keep
/// every digit; anything else goes to simdjson's correctly rounded double parser.
status converter::number(std::string_view token, od::value* v, od::document* doc) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                            token.back() == '\r'))
    token.remove_suffix(1);
  const size_t at = size_t(token.data() - base_);
  const bool negative = !token.empty() && token[0] == '-';
  const std::string_view digits = token.substr(negative ? 1 : 0);
  bool integer = !digits.empty();
  for (char c : digits) {
    if (c < '0' || c > '9') {
      integer = false;
      break;
    }
  }
  if (integer) {
    if (digits.size() > 1 && digits[0] == '0') return fail(status::syntax_error, at);
    uint64_t n = 0;
    bool fits = true;
    for (char c : digits) {
      const uint64_t d = uint64_t(c - '0');
      if (n > (UINT64_MAX - d) / 10) {
        fits = false;
        break;
      }
      n = n * 10 + d;
    }
    if (fits) {
      if (!negative || n == 0) {
        events_.push_back({n, nullptr, ev_uint, false});  // "-0" is the integer 0
      } else {
        events_.push_back({n - 1, nullptr, ev_negative, false});
      }
      return status::ok;
    }
    if (digits.size() > k_max_bignum_digits) return fail(status::out_of_range, at);
    // The bignum's tag is a level, as in diag_parse: a reader with the same
    // max_depth must take the output (it wrote a tag one level past it).
    // -2^64 needs no tag (3b ffffffffffffffff).
    const bool tagged = !negative || digits != "18446744073709551616";
    if (tagged && stack_.size() >= opt_.max_depth) return fail(status::depth_exceeded, at);
    events_.push_back({digits.size(), digits.data(), ev_bignum, negative});
    return status::ok;
  }
  double d = 0;
  simdjson::error_code e;
  if (v != nullptr) {
    e = v->get_double().get(d);
  } else {
    e = doc->get_double().get(d);
  }
  // get_double() only consumes the token here: the value comes from the
  // token's text. simdjson 3.0.1's On-Demand get_double() misreads some long
  // numbers ("0." and 21 or more digits came out with the digits wrapped
  // modulo 2^64: 0.123456789012345678901 read as 0.01277632457008837) and
  // refuses exponents past its range that underflow to zero
  // (1e-99999999999999999999), where the DOM route reads both right.
  if (!json_number_grammar(token))
    return fail(e != simdjson::SUCCESS ? map_error(e) : status::syntax_error, at);
  switch (detail::read_float(digits.data(), digits.data() + digits.size(), false, d)) {
    case detail::float_text::ok: break;
    case detail::float_text::overflow: return fail(status::out_of_range, at);  // 1e400
    case detail::float_text::syntax: return fail(status::syntax_error, at);
  }
  if (negative) d = -d;
  events_.push_back({detail::double_to_bits(d), nullptr, ev_float, false});
  return status::ok;
}

/// One value: scalars become events, containers push a level.
status converter::value(od::value v, od::document& doc) {
  od::json_type t;
  simdjson::error_code e = v.type().get(t);
  if (e != simdjson::SUCCESS) return fail_simdjson(e, doc);
  switch (t) {
    case od::json_type::array:
    case od::json_type::object: {
      if (stack_.size() >= opt_.max_depth)
        return fail(status::depth_exceeded, size_t(v.raw_json_token().data() - base_));
      level l{};
      l.object = t == od::json_type::object;
      l.head = events_.size();
      l.count = 0;
      l.keys_start = keys_.size();
      events_.push_back({0, nullptr, uint8_t(l.object ? ev_map : ev_array), false});
      if (l.object) {
        od::object o;
        if ((e = v.get_object().get(o)) != simdjson::SUCCESS ||
            (e = o.begin().get(l.oit)) != simdjson::SUCCESS ||
            (e = o.end().get(l.oend)) != simdjson::SUCCESS)
          return fail_simdjson(e, doc);
      } else {
        od::array a;
        if ((e = v.get_array().get(a)) != simdjson::SUCCESS ||
            (e = a.begin().get(l.ait)) != simdjson::SUCCESS ||
            (e = a.end().get(l.aend)) != simdjson::SUCCESS)
          return fail_simdjson(e, doc);
      }
      stack_.push_back(l);
      return status::ok;
    }
    case od::json_type::number: return number(v.raw_json_token(), &v, nullptr);
    case od::json_type::string: {
      std::string_view s;
      const size_t quote = size_t(v.raw_json_token().data() - base_);
      if ((e = v.get_string().get(s)) != simdjson::SUCCESS) return fail_string(e, doc, quote);
      events_.push_back({s.size(), s.data(), ev_text, false});
      return status::ok;
    }
    case od::json_type::boolean: {
      bool b;
      if ((e = v.get_bool().get(b)) != simdjson::SUCCESS) return fail_simdjson(e, doc);
      events_.push_back({0, nullptr, uint8_t(b ? ev_true : ev_false), false});
      return status::ok;
    }
    case od::json_type::null: {
      bool is_null = false;
      if ((e = v.is_null().get(is_null)) != simdjson::SUCCESS || !is_null)
        return fail_simdjson(e == simdjson::SUCCESS ? simdjson::INCORRECT_TYPE : e, doc);
      events_.push_back({0, nullptr, ev_null, false});
      return status::ok;
    }
  }
  return fail(status::syntax_error, size_t(v.raw_json_token().data() - base_));
}

/// A document that is a single scalar.
status converter::root_scalar(od::json_type t, od::document& doc) {
  simdjson::error_code e = simdjson::SUCCESS;
  // Only whitespace may follow the value: find where its token ends.
  std::string_view first;
  if ((e = doc.raw_json_token().get(first)) != simdjson::SUCCESS) return fail_simdjson(e, doc);
  size_t end = size_t(first.data() - base_);
  if (end < size_ && base_[end] == '"') {
    ++end;
    while (end < size_ && base_[end] != '"') end += base_[end] == '\\' ? 2 : 1;
    ++end;
  } else {
    while (end < size_ && std::strchr(" \t\n\r", base_[end]) == nullptr) ++end;
  }
  for (size_t i = end; i < size_; ++i)
    if (std::strchr(" \t\n\r", base_[i]) == nullptr || base_[i] == 0)
      return fail(status::syntax_error, i);
  switch (t) {
    case od::json_type::number: {
      std::string_view token;
      if ((e = doc.raw_json_token().get(token)) != simdjson::SUCCESS) break;
      size_t stop = size_t(token.data() - base_);
      while (stop < size_ && base_[stop] != 0 &&
             std::strchr("0123456789+-.eE", base_[stop]) != nullptr)
        ++stop;
      // Anything else before the whitespace is not part of a number ("2c",
      // "123abc", "1.5x"), and no value may follow the number: it had been
      // left out of the token and dropped, so "2c" gave 2.
      if (stop < end) return fail(status::syntax_error, stop);
      token = std::string_view(token.data(), stop - size_t(token.data() - base_));
      return number(token, nullptr, &doc);
    }
    case od::json_type::string: {
      std::string_view s;
      if ((e = doc.get_string().get(s)) != simdjson::SUCCESS)
        return fail_string(e, doc, size_t(first.data() - base_));
      events_.push_back({s.size(), s.data(), ev_text, false});
      return status::ok;
    }
    case od::json_type::boolean: {
      bool b;
      if ((e = doc.get_bool().get(b)) != simdjson::SUCCESS) break;
      events_.push_back({0, nullptr, uint8_t(b ? ev_true : ev_false), false});
      return status::ok;
    }
    default: {
      bool is_null = false;
      if ((e = doc.is_null().get(is_null)) != simdjson::SUCCESS) break;
      if (!is_null) {
        e = simdjson::INCORRECT_TYPE;
        break;
      }
      events_.push_back({0, nullptr, ev_null, false});
      return status::ok;
    }
  }
  return fail_simdjson(e, doc);
}

status converter::walk(od::document& doc) {
  od::json_type t;
  simdjson::error_code e = doc.type().get(t);
  if (e != simdjson::SUCCESS) return fail_simdjson(e, doc);
  status s;
  if (t == od::json_type::array || t == od::json_type::object) {
    od::value root;
    if ((e = doc.get_value().get(root)) != simdjson::SUCCESS) return fail_simdjson(e, doc);
    s = value(root, doc);
  } else {
    return root_scalar(t, doc);
  }
  if (s != status::ok) return s;
  while (!stack_.empty()) {
    const size_t depth = stack_.size();
    level& l = stack_.back();
    if (l.object ? !(l.oit != l.oend) : !(l.ait != l.aend)) {
      if ((s = close(l)) != status::ok) return s;
      stack_.pop_back();
      if (!stack_.empty()) {
        level& parent = stack_.back();
        if (parent.object)
          ++parent.oit;
        else
          ++parent.ait;
      }
      continue;
    }
    ++l.count;
    if (l.object) {
      od::field f;
      std::string_view key;
      if ((e = (*l.oit).get(f)) != simdjson::SUCCESS) return fail_simdjson(e, doc);
      // The raw name (just after its quote) before unescaping consumes it.
      const size_t key_at = size_t(f.key().raw() - base_) - 1;
      if ((e = f.unescaped_key().get(key)) != simdjson::SUCCESS) return fail_string(e, doc, key_at);
      events_.push_back({key.size(), key.data(), ev_text, false});
      if (opt_.reject_duplicate_keys) keys_.push_back({key, key_at});
      s = value(f.value(), doc);
    } else {
      od::value v;
      if ((e = (*l.ait).get(v)) != simdjson::SUCCESS) return fail_simdjson(e, doc);
      s = value(v, doc);
    }
    if (s != status::ok) return s;
    if (stack_.size() == depth) {  // a scalar: on to the next one (`l` is still valid)
      if (l.object)
        ++l.oit;
      else
        ++l.ait;
    }
  }
  // Anything but whitespace after the value is an error.
  const char* loc = nullptr;
  if (doc.current_location().get(loc) == simdjson::SUCCESS && loc != nullptr && loc < base_ + size_)
    return fail(status::syntax_error, size_t(loc - base_));
  return status::ok;
}

/// A container's end: its count goes into its head event; an object's
/// member names are checked for duplicates when asked.
status converter::close(level& l) {
  events_[l.head].arg = l.count;
  events_.push_back({0, nullptr, ev_end, false});
  if (l.object && opt_.reject_duplicate_keys) {
    auto first = keys_.begin() + std::ptrdiff_t(l.keys_start);
    std::sort(first, keys_.end(), [](const key_ref& a, const key_ref& b) {
      return a.name != b.name ? a.name < b.name : a.offset < b.offset;
    });
    // The report goes to the earliest name that repeats an earlier one.
    size_t bad = SIZE_MAX;
    for (auto it = first; it != keys_.end() && it + 1 != keys_.end(); ++it)
      if (it->name == (it + 1)->name && (it + 1)->offset < bad) bad = (it + 1)->offset;
    keys_.resize(l.keys_start);
    if (bad != SIZE_MAX) return fail(status::duplicate_key, bad);
  }
  return status::ok;
}

/// Decimal digits to a big-endian magnitude (minus one for a negative value,
/// the tag 3 convention) and out through the writer.
status write_bignum_digits(writer& w, std::string_view digits, bool negative) {
  std::vector<uint8_t> mag = detail::decimal_to_magnitude(digits);
  // The value is -N: tag 3 holds N - 1 (N > 2^64 here, never 0).
  if (negative) detail::decrement_magnitude(mag);
  return w.write_bignum(mag.data(), mag.size(), negative);
}

status converter::emit(writer& w) const {
  status full = status::ok;
  for (const event& e : events_) {
    status s;
    switch (e.kind) {
      case ev_uint: s = w.write_uint(e.arg); break;
      case ev_negative: s = w.write_negative(e.arg); break;
      case ev_bignum:
        s = write_bignum_digits(w, std::string_view(e.text, size_t(e.arg)), e.negative);
        break;
      case ev_float: s = w.write_float(detail::bits_to_double(e.arg)); break;
      case ev_text: s = w.write_text(std::string_view(e.text, size_t(e.arg))); break;
      case ev_array: s = w.begin_array(e.arg); break;
      case ev_map: s = w.begin_map(e.arg); break;
      case ev_end: s = w.end(); break;
      case ev_true: s = w.write_bool(true); break;
      case ev_false: s = w.write_bool(false); break;
      default: s = w.write_null(); break;
    }
    if (s == status::buffer_too_small) {
      full = s;  // counting goes on (see dom_convert)
    } else if (s != status::ok) {
      return s;
    }
  }
  return full;
}

status converter::run(const simdjson::padded_string& padded, std::string_view json, writer& w,
                      error_info* error) {
  base_ = padded.data();
  size_ = json.size();
  od::parser parser;
  const size_t depth = parser_depth(opt_.max_depth, json.size()) + 2;
  simdjson::error_code e = parser.allocate(json.size() < 64 ? 64 : json.size(), depth);
  status s = status::ok;
  if (e != simdjson::SUCCESS) {
    s = fail(map_error(e), 0);
  } else {
    od::document doc;
    e = parser.iterate(padded).get(doc);
    if (e == simdjson::UTF8_ERROR) {
      // simdjson checks the whole text first and says no more than that: the
      // library's validator finds the first bad sequence (it was offset 0).
      s = fail(status::invalid_utf8,
               detail::utf8_validate(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
    } else if (e == simdjson::UNESCAPED_CHARS || e == simdjson::UNCLOSED_STRING) {
      s = fail(map_error(e), string_error_offset(json));
    } else if (e != simdjson::SUCCESS) {
      s = fail(map_error(e), 0);
    } else {
      events_.reserve(json.size() / 8 + 4);
      s = walk(doc);
    }
  }
  if (s == status::ok) {
    s = emit(w);
    if (s != status::ok) err_offset_ = size_;
  }
  if (error != nullptr) {
    *error = error_info{};
    error->code = s;
    error->offset = s == status::ok ? 0 : err_offset_;
    error->depth = uint32_t(stack_.size());
  }
  return s;
}

namespace dom = simdjson::dom;

struct dom_level {
  bool object;
  dom::array::iterator ait, aend;
  dom::object::iterator oit, oend;
};

/// The number of elements or members. The tape holds 24 bits of it:
/// simdjson's size() stops at 0xFFFFFF, and from there they are counted
/// (one step each: the iterator jumps over nested containers).
template <class Container>
uint64_t count_of(const Container& c) {
  uint64_t n = c.size();
  if (n < 0xFFFFFF) return n;
  n = 0;
  for (auto it = c.begin(); it != c.end(); ++it) ++n;
  return n;
}

/// Member names of one object, sorted: true when two are equal.
bool has_duplicate(dom::object o, std::vector<std::string_view>& scratch) {
  if (o.size() < 2) return false;
  scratch.clear();
  for (dom::key_value_pair kv : o) scratch.push_back(kv.key);
  std::sort(scratch.begin(), scratch.end());
  return std::adjacent_find(scratch.begin(), scratch.end()) != scratch.end();
}

/// True when any object in the document has two equal member names.
bool any_duplicate(dom::element root) {
  std::vector<std::string_view> names;
  std::vector<dom_level> stack;
  const auto open = [&](dom::element el) {
    if (el.type() == dom::element_type::ARRAY) {
      const dom::array a = el.get_array().value_unsafe();
      stack.push_back({false, a.begin(), a.end(), {}, {}});
    } else if (el.type() == dom::element_type::OBJECT) {
      const dom::object o = el.get_object().value_unsafe();
      if (has_duplicate(o, names)) return true;
      stack.push_back({true, {}, {}, o.begin(), o.end()});
    }
    return false;
  };
  if (open(root)) return true;
  while (!stack.empty()) {
    dom_level& l = stack.back();
    if (l.object ? !(l.oit != l.oend) : !(l.ait != l.aend)) {
      stack.pop_back();
      continue;
    }
    dom::element el;
    if (l.object) {
      el = (*l.oit).value;
      ++l.oit;
    } else {
      el = *l.ait;
      ++l.ait;
    }
    if (open(el)) return true;
  }
  return false;
}

/// The fast route. ok; invalid_state when the exact route must decide (the
/// DOM parser refused the text, or a duplicate name is to be located); or the
/// writer's error.
status dom_convert(dom::parser& parser, const simdjson::padded_string& padded,
                   const from_json_options& opt, writer& w) {
  // The parser's depth limit is max_depth (set by the caller), so deeper
  // texts never reach the walk: the exact route reports them with an offset.
  dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) return status::invalid_state;
  // Everything that can fail is decided before the first byte is written.
  if (opt.reject_duplicate_keys && any_duplicate(root)) return status::invalid_state;
  std::vector<dom_level> stack;
  const auto value = [&](dom::element el) -> status {
    switch (el.type()) {
      case dom::element_type::ARRAY: {
        const dom::array a = el.get_array().value_unsafe();
        const status s = w.begin_array(count_of(a));
        stack.push_back({false, a.begin(), a.end(), {}, {}});
        return s;
      }
      case dom::element_type::OBJECT: {
        const dom::object o = el.get_object().value_unsafe();
        const status s = w.begin_map(count_of(o));
        stack.push_back({true, {}, {}, o.begin(), o.end()});
        return s;
      }
      case dom::element_type::INT64: return w.write_int(el.get_int64().value_unsafe());
      case dom::element_type::UINT64: return w.write_uint(el.get_uint64().value_unsafe());
      case dom::element_type::DOUBLE: return w.write_float(el.get_double().value_unsafe());
      case dom::element_type::STRING: return w.write_text(el.get_string().value_unsafe());
      case dom::element_type::BOOL: return w.write_bool(el.get_bool().value_unsafe());
      case dom::element_type::NULL_VALUE: return w.write_null();
    }
    return status::internal_error;
  };
  // A full caller buffer is not the end: the writer goes on counting, so its
  // size() tells the bytes needed (reported once everything is written).
  status full = status::ok;
  const auto keep_going = [&full](status st) {
    if (st == status::buffer_too_small) {
      full = st;
      return true;
    }
    return st == status::ok;
  };
  status s = value(root);
  while (keep_going(s) && !stack.empty()) {
    dom_level& l = stack.back();
    if (l.object ? !(l.oit != l.oend) : !(l.ait != l.aend)) {
      stack.pop_back();
      s = w.end();
      continue;
    }
    // Taken before value() may grow the stack (and move `l`).
    dom::element el;
    if (l.object) {
      const dom::key_value_pair kv = *l.oit;
      ++l.oit;
      s = w.write_text(kv.key);
      el = kv.value;
    } else {
      el = *l.ait;
      ++l.ait;
    }
    if (keep_going(s)) s = value(el);
  }
  return keep_going(s) ? full : s;
}

}  // namespace

status json_to_cbor(std::string_view json, writer& w, const from_json_options& options,
                    error_info* error) {
  try {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: a padded copy.
    const simdjson::padded_string padded(json);
    // max_depth 0 (scalars only) has no DOM parser depth: the exact route.
    if (options.max_depth != 0) {
      // One parser per thread, reused (its buffers grow to the largest text
      // seen); texts above 16 MiB get a parser of their own, freed after.
      constexpr size_t k_keep = size_t{16} << 20;
      thread_local dom::parser kept;
      dom::parser own;
      dom::parser& parser = json.size() <= k_keep ? kept : own;
      // simdjson's depth D takes D nested arrays and objects, as max_depth
      // does (it was max_depth + 1, so this route took one level more than
      // the exact one and the reader: --max-depth 3 took [[[[]]]]).
      const size_t depth = parser_depth(options.max_depth, json.size());
      if (parser.max_depth() != depth) {
        const size_t cap = parser.capacity() > json.size() ? parser.capacity() : json.size();
        if (parser.allocate(cap < 64 ? 64 : cap, depth) != simdjson::SUCCESS) {
          if (error != nullptr) *error = error_info{status::out_of_memory, 0, 0, 0};
          return status::out_of_memory;
        }
      }
      const size_t mark = w.size();
      const status s = dom_convert(parser, padded, options, w);
      if (s != status::invalid_state) {
        if (error != nullptr) {
          *error = error_info{};
          error->code = s;
          if (s != status::ok) error->offset = json.size();
        }
        return s;
      }
      // The exact route starts on a clean writer only if nothing was written.
      if (w.size() != mark) {
        if (error != nullptr) *error = error_info{status::internal_error, 0, 0, 0};
        return status::internal_error;
      }
    }
    converter c(options);
    return c.run(padded, json, w, error);
  } catch (const std::bad_alloc&) {
    if (error != nullptr) *error = error_info{status::out_of_memory, 0, 0, 0};
    return status::out_of_memory;
  }
}

}  // namespace v1
}  // namespace cbor_fast
