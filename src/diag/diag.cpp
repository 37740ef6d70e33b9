// RFC 8949 section 8 diagnostic notation, printed from the pull reader's item
// stream. The reader accepts nesting far deeper than any call stack, so the
// printer keeps its own small stack of open containers instead of recursing.
#include "cbor_fast/diag.hpp"
#include "cbor_fast/stream.hpp"
#include "cbor_fast/typed_array.hpp"

#include "diag/diag_print.hpp"
#include "internal/shortest.hpp"
#include "internal/utf8.hpp"

#include <charconv>
#include <cstring>
#include <cmath>
#include <new>
#include <string_view>
#include <vector>

namespace cbor_fast {
inline namespace v1 {

namespace {

enum class open_kind : uint8_t { array, map, byte_chunks, text_chunks, tag };

/// One open array, map, indefinite-length string or tag.
struct open_frame {
  uint64_t printed;  ///< children printed so far; a map counts keys and values
  open_kind kind;
  uint64_t tag = 0;  ///< tags: the tag number
};

constexpr char k_hex_digits[] = "0123456789abcdef";

void append_uint(uint64_t v, text_output& out) {
  char buf[20];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.put(buf, size_t(res.ptr - buf));
}

/// Major type 1: the value is -1 - n.
void append_negative(uint64_t n, text_output& out) {
  // The magnitude n + 1 does not fit uint64_t for the one value -2^64.
  if (n == UINT64_MAX) {
    out.put("-18446744073709551616");
    return;
  }
  out.put('-');
  append_uint(n + 1, out);
}

void append_bytes(byte_view b, text_output& out) {
  out.put("h'");
  // In pieces, so a long string never needs a buffer of its own size.
  size_t i = 0;
  while (i < b.size) {
    const size_t n = b.size - i < 4096 ? b.size - i : 4096;
    char* p = out.reserve(2 * n);
    if (p == nullptr) return;
    for (size_t j = 0; j < n; ++j) {
      const uint8_t byte = b[i + j];
      p[2 * j] = k_hex_digits[byte >> 4];
      p[2 * j + 1] = k_hex_digits[byte & 0xf];
    }
    out.commit(2 * n);
    out.maybe_flush();
    i += n;
  }
  out.put('\'');
}

/// JSON-style string literal. Bytes that need no escape are copied in runs;
/// anything at or above 0x80 passes through unchanged, so valid UTF-8 stays
/// readable and invalid UTF-8 (accepted when the reader does not validate) is
/// reproduced byte for byte rather than guessed at.
void append_text(std::string_view s, text_output& out) {
  out.put('"');
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) continue;
    out.put(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      default: {
        // Other C0 controls and DEL: never emitted raw, so a printed line
        // cannot move the cursor or split in two.
        const char esc[6] = {'\\', 'u', '0', '0', k_hex_digits[c >> 4], k_hex_digits[c & 0xf]};
        out.put(esc, sizeof esc);
        break;
      }
    }
  }
  out.put(s.data() + run, s.size() - run);
  out.put('"');
}

void append_simple(const item& it, text_output& out) {
  switch (it.type) {
    case item_type::boolean: out.put(it.boolean_value() ? "true" : "false"); break;
    case item_type::null: out.put("null"); break;
    case item_type::undefined: out.put("undefined"); break;
    default:
      out.put("simple(");
      append_uint(it.simple_value(), out);
      out.put(')');
      break;
  }
}

void append_width_indicator(uint8_t width, text_output& out) {
  switch (width) {
    case 2: out.put("_1"); break;
    case 4: out.put("_2"); break;
    case 8: out.put("_3"); break;
    default: break;
  }
}

/// The elements of a typed array as an EDN comment: " / [1, 2.5] /" (nothing
/// for other tags or a length that is not a multiple of the element size).
void append_typed_values(uint64_t tag, byte_view bytes, text_output& out) {
  typed_array a;
  if (!typed_array_from_tag(tag, a) || bytes.size % a.element_size != 0) return;
  const bool is_float = a.element >= typed_element::float16;
  const bool is_signed = a.element >= typed_element::sint8 && !is_float;
  out.put(" / [");
  const size_t n = bytes.size / a.element_size;
  constexpr size_t chunk = 64;
  for (size_t i = 0; i < n; i += chunk) {
    typed_array part = a;
    const size_t k = n - i < chunk ? n - i : chunk;
    part.bytes = byte_view{bytes.data + i * a.element_size, k * a.element_size};
    uint64_t u[chunk];
    int64_t v[chunk];
    double d[chunk];
    if (is_float) {
      part.copy_to(d, chunk);
    } else if (is_signed) {
      part.copy_to(v, chunk);
    } else {
      part.copy_to(u, chunk);
    }
    for (size_t j = 0; j < k; ++j) {
      if (i + j != 0) out.put(", ");
      if (is_float) {
        diag_append_float(d[j], out);
      } else if (is_signed) {
        if (v[j] < 0) {
          append_negative(uint64_t(-1 - v[j]), out);
        } else {
          append_uint(uint64_t(v[j]), out);
        }
      } else {
        append_uint(u[j], out);
      }
    }
  }
  out.put("] /");
}

/// Head size of the shortest head for argument v.
uint8_t shortest_head(uint64_t v) {
  return v < 24 ? 1 : v <= 0xff ? 2 : v <= 0xffff ? 3 : v <= 0xffffffff ? 5 : 9;
}

/// _0.._3 when the item's head is longer than the shortest for its argument.
void append_head_indicator(const item& it, text_output& out) {
  if (it.head_size == shortest_head(it.arg)) return;
  switch (it.head_size) {
    case 2: out.put("_0"); break;
    case 3: out.put("_1"); break;
    case 5: out.put("_2"); break;
    case 9: out.put("_3"); break;
    default: break;
  }
}

class printer {
 public:
  printer(text_output& out, const diag_options& options, bool validate)
      : out_(out), opt_(options), validate_(validate) {}

  /// Source: reader or stream (the same items; a stream reads on as needed).
  template <class Source>
  status run(Source& r, const item* first, size_t* bad_offset);

 private:
  void newline(size_t levels) {
    out_.put('\n');
    size_t n = levels * opt_.indent;
    while (n != 0) {
      static constexpr char spaces[] = "                                ";
      const size_t k = n < 32 ? n : 32;
      out_.put(spaces, k);
      n -= k;
    }
  }
  /// Separator owed before the next child of `parent`; counts the child.
  void separator(open_frame& parent) {
    switch (parent.kind) {
      case open_kind::array:
        if (opt_.indent != 0) {
          if (parent.printed != 0) out_.put(',');
          newline(levels_);
        } else if (parent.printed != 0) {
          out_.put(", ");
        }
        break;
      case open_kind::map:
        if (parent.printed % 2 == 1) {
          out_.put(": ");
        } else if (opt_.indent != 0) {
          if (parent.printed != 0) out_.put(',');
          newline(levels_);
        } else if (parent.printed != 0) {
          out_.put(", ");
        }
        break;
      case open_kind::byte_chunks:
      case open_kind::text_chunks:
        // The "(_ " is deferred to the first chunk: without chunks the string
        // prints as ''_ or ""_ instead (section 8.1).
        out_.put(parent.printed == 0 ? "(_ " : ", ");
        break;
      case open_kind::tag: break;
    }
    ++parent.printed;
  }
  void close(const open_frame& f) {
    switch (f.kind) {
      case open_kind::array:
      case open_kind::map:
        --levels_;
        if (opt_.indent != 0 && f.printed != 0) newline(levels_);
        out_.put(f.kind == open_kind::array ? ']' : '}');
        break;
      case open_kind::byte_chunks: out_.put(f.printed == 0 ? "''_" : ")"); break;
      case open_kind::text_chunks: out_.put(f.printed == 0 ? "\"\"_" : ")"); break;
      case open_kind::tag: out_.put(')'); break;
    }
  }

  text_output& out_;
  const diag_options& opt_;
  bool validate_;
  size_t levels_ = 0;  ///< open arrays and maps (the indentation)
};

template <class Source>
status printer::run(Source& r, const item* first, size_t* bad_offset) {
  std::vector<open_frame> stack;  // allocates only once something nests
  const bool indicators = opt_.encoding_indicators;
  item it;
  for (;;) {
    if (first != nullptr) {
      it = *first;
      first = nullptr;
    } else {
      const status s = r.next(it);
      if (s != status::ok) {
        // The reader reports an unfinished container as truncated itself; an
        // end of input with frames open here would be a reader bug.
        if (s == status::end && !stack.empty()) return status::internal_error;
        return s;
      }
    }
    if (out_.error() != status::ok) return out_.error();

    if (it.type == item_type::end) {
      if (stack.empty() || stack.back().kind == open_kind::tag) return status::internal_error;
      close(stack.back());
      stack.pop_back();
    } else {
      if (!stack.empty()) separator(stack.back());
      bool complete = true;
      switch (it.type) {
        case item_type::unsigned_int:
          append_uint(it.value(), out_);
          if (indicators) append_head_indicator(it, out_);
          break;
        case item_type::negative_int:
          append_negative(it.value(), out_);
          if (indicators) append_head_indicator(it, out_);
          break;
        case item_type::byte_string:
          if (it.is_indefinite()) {
            stack.push_back({0, open_kind::byte_chunks});
            complete = false;
          } else {
            append_bytes(it.bytes(), out_);
            if (indicators) append_head_indicator(it, out_);
            if (opt_.typed_array_values && !stack.empty() && stack.back().kind == open_kind::tag)
              append_typed_values(stack.back().tag, it.bytes(), out_);
          }
          break;
        case item_type::text_string:
          if (it.is_indefinite()) {
            stack.push_back({0, open_kind::text_chunks});
            complete = false;
          } else {
            if (validate_) {
              // At the first bad sequence's lead byte, as a validating
              // reader reports it (it was the string's head).
              const size_t bad = detail::utf8_validate(it.bytes().data, it.bytes().size);
              if (bad != it.arg) {
                *bad_offset = it.offset + it.head_size + bad;
                return status::invalid_utf8;
              }
            }
            append_text(it.text(), out_);
            if (indicators) append_head_indicator(it, out_);
          }
          break;
        case item_type::array:
        case item_type::map: {
          const bool is_array = it.type == item_type::array;
          out_.put(is_array ? '[' : '{');
          // "[_ 1]" on one line; pretty, the newline does the separating.
          if (it.is_indefinite()) {
            out_.put(opt_.indent != 0 ? "_" : "_ ");
          } else if (indicators && it.head_size != shortest_head(it.arg)) {
            append_head_indicator(it, out_);
            if (opt_.indent == 0) out_.put(' ');
          }
          stack.push_back({0, is_array ? open_kind::array : open_kind::map});
          ++levels_;
          complete = false;
          break;
        }
        case item_type::tag:
          append_uint(it.tag_number(), out_);
          if (indicators) append_head_indicator(it, out_);
          out_.put('(');
          stack.push_back({0, open_kind::tag, it.tag_number()});
          complete = false;
          break;
        case item_type::simple:
        case item_type::boolean:
        case item_type::null:
        case item_type::undefined: append_simple(it, out_); break;
        case item_type::floating:
          diag_append_float(it.float_value(), out_);
          if (opt_.float_width_indicators || indicators) append_width_indicator(it.width, out_);
          break;
        default: return status::internal_error;
      }
      if (!complete) continue;
    }

    // A value just completed: it is the content of every tag waiting for one.
    while (!stack.empty() && stack.back().kind == open_kind::tag) {
      out_.put(')');
      stack.pop_back();
    }
    if (stack.empty()) return out_.error();
    out_.maybe_flush();
  }
}

template <class Source>
status write_one(Source& r, text_output& out, const diag_options& options) {
  size_t bad = 0;
  status s = detail::diag_print(r, out, options, nullptr, false, &bad);
  const status f = out.flush();
  if (s == status::ok) s = f;
  return s;
}

}  // namespace

status diag_write(reader& r, text_output& out, const diag_options& options) {
  const status ready = detail::printable_item_ready(r);
  if (ready != status::ok) return ready;
  return write_one(r, out, options);
}

status diag_write(stream& s, text_output& out, const diag_options& options) {
  return write_one(s, out, options);
}

status diag_next(reader& r, std::string& out, const diag_options& options) {
  text_output o(out);
  return diag_write(r, o, options);
}

void diag_append_float(double value, text_output& out) {
  char buf[48];
  out.put(buf, detail::format_float(value, buf));
}

void diag_append_float(double value, std::string& out) {
  char buf[48];
  out.append(buf, detail::format_float(value, buf));
}

}  // namespace v1

namespace detail {
namespace {
template <class Source>
status print_any(Source& r, text_output& out, const diag_options& options, const item* first,
                 bool validate_utf8, size_t* bad_offset) {
  try {
    printer p(out, options, validate_utf8);
    return p.run(r, first, bad_offset);
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
}
}  // namespace

status diag_print(reader& r, text_output& out, const diag_options& options, const item* first,
                  bool validate_utf8, size_t* bad_offset) {
  return print_any(r, out, options, first, validate_utf8, bad_offset);
}
status diag_print(stream& r, text_output& out, const diag_options& options, const item* first,
                  bool validate_utf8, size_t* bad_offset) {
  return print_any(r, out, options, first, validate_utf8, bad_offset);
}

status printable_item_ready(reader& r) noexcept {
  if (r.at_container_end()) return status::invalid_state;
  return r.options().streaming ? r.item_ready() : status::ok;
}
}  // namespace detail

namespace detail {
size_t format_float(double value, char* out) {
  char* o = out;
  if (std::isnan(value)) {
    std::memcpy(o, "NaN", 3);
    return 3;
  }
  if (std::signbit(value)) *o++ = '-';
  if (std::isinf(value)) {
    std::memcpy(o, "Infinity", 8);
    return size_t(o - out) + 8;
  }

  // The shortest round-trip digits (k of them) and the exponent of the first:
  // value = d.ddd x 10^exp10; zero is the digit 0.
  char digits[20] = {'0'};
  int k = 1;  // significant digits
  int exp10 = 0;
  if (value != 0) {
    const detail::shortest_decimal d = detail::shortest(std::fabs(value));
    k = int(std::to_chars(digits, digits + sizeof digits, d.digits).ptr - digits);
    exp10 = d.exponent + k - 1;
  }

  // Layout of ECMAScript Number::toString: n is the position of the decimal
  // point relative to the first digit. Plain notation for 1e-6 <= |v| < 1e21,
  // exponent beyond that; ".0" added where JavaScript would print an integer.
  const int n = exp10 + 1;
  const auto put = [&o](const char* p, size_t len) {
    std::memcpy(o, p, len);
    o += len;
  };
  if (k <= n && n <= 21) {
    put(digits, static_cast<size_t>(k));
    std::memset(o, '0', static_cast<size_t>(n - k));
    o += n - k;
    put(".0", 2);
  } else if (0 < n && n <= 21) {
    put(digits, static_cast<size_t>(n));
    *o++ = '.';
    put(digits + n, static_cast<size_t>(k - n));
  } else if (-6 < n && n <= 0) {
    put("0.", 2);
    std::memset(o, '0', static_cast<size_t>(-n));
    o += -n;
    put(digits, static_cast<size_t>(k));
  } else {
    *o++ = digits[0];
    *o++ = '.';
    if (k > 1)
      put(digits + 1, static_cast<size_t>(k - 1));
    else
      *o++ = '0';
    put(n - 1 < 0 ? "e-" : "e+", 2);
    const auto r = std::to_chars(o, o + 8, n - 1 < 0 ? 1 - n : n - 1);
    o = r.ptr;
  }
  return size_t(o - out);
}
}  // namespace detail

}  // namespace cbor_fast
