// RFC 8949 section 8 diagnostic notation, printed from the pull reader's item
// stream. The reader accepts nesting far deeper than any call stack, so the
// printer keeps its own small stack of open containers instead of recursing.
#include "cbor_fast/diag.hpp"
#include "cbor_fast/typed_array.hpp"

#include <charconv>
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

void append_uint(uint64_t v, std::string& out) {
  char buf[20];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

/// Major type 1: the value is -1 - n.
void append_negative(uint64_t n, std::string& out) {
  // The magnitude n + 1 does not fit uint64_t for the one value -2^64.
  if (n == UINT64_MAX) {
    out += "-18446744073709551616";
    return;
  }
  out += '-';
  append_uint(n + 1, out);
}

void append_bytes(byte_view b, std::string& out) {
  size_t at = out.size();
  out.resize(at + 2 * b.size + 3);
  out[at++] = 'h';
  out[at++] = '\'';
  for (uint8_t byte : b) {
    out[at++] = k_hex_digits[byte >> 4];
    out[at++] = k_hex_digits[byte & 0xf];
  }
  out[at] = '\'';
}

/// JSON-style string literal. Bytes that need no escape are copied in runs;
/// anything at or above 0x80 passes through unchanged, so valid UTF-8 stays
/// readable and invalid UTF-8 (accepted when the reader does not validate) is
/// reproduced byte for byte rather than guessed at.
void append_text(std::string_view s, std::string& out) {
  out += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        // Other C0 controls and DEL: never emitted raw, so a printed line
        // cannot move the cursor or split in two.
        const char esc[6] = {'\\', 'u', '0', '0', k_hex_digits[c >> 4], k_hex_digits[c & 0xf]};
        out.append(esc, sizeof esc);
        break;
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

void append_simple(const item& it, std::string& out) {
  switch (it.type) {
    case item_type::boolean: out += it.boolean_value() ? "true" : "false"; break;
    case item_type::null: out += "null"; break;
    case item_type::undefined: out += "undefined"; break;
    default:
      out += "simple(";
      append_uint(it.simple_value(), out);
      out += ')';
      break;
  }
}

/// Separator owed before the next child of `parent`; counts the child.
void append_separator(open_frame& parent, std::string& out) {
  switch (parent.kind) {
    case open_kind::array:
      if (parent.printed != 0) out += ", ";
      break;
    case open_kind::map:
      if (parent.printed % 2 == 1)
        out += ": ";
      else if (parent.printed != 0)
        out += ", ";
      break;
    case open_kind::byte_chunks:
    case open_kind::text_chunks:
      // The "(_ " is deferred to the first chunk: without chunks the string
      // prints as ''_ or ""_ instead (section 8.1).
      out += parent.printed == 0 ? "(_ " : ", ";
      break;
    case open_kind::tag:
      break;
  }
  ++parent.printed;
}

void append_close(const open_frame& f, std::string& out) {
  switch (f.kind) {
    case open_kind::array: out += ']'; break;
    case open_kind::map: out += '}'; break;
    case open_kind::byte_chunks: out += f.printed == 0 ? "''_" : ")"; break;
    case open_kind::text_chunks: out += f.printed == 0 ? "\"\"_" : ")"; break;
    case open_kind::tag: out += ')'; break;
  }
}

void append_width_indicator(uint8_t width, std::string& out) {
  switch (width) {
    case 2: out += "_1"; break;
    case 4: out += "_2"; break;
    case 8: out += "_3"; break;
    default: break;
  }
}

/// The elements of a typed array as an EDN comment: " / [1, 2.5] /" (nothing
/// for other tags or a length that is not a multiple of the element size).
void append_typed_values(uint64_t tag, byte_view bytes, std::string& out) {
  typed_array a;
  if (!typed_array_from_tag(tag, a) || bytes.size % a.element_size != 0) return;
  const bool is_float = a.element >= typed_element::float16;
  const bool is_signed = a.element >= typed_element::sint8 && !is_float;
  out += " / [";
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
      if (i + j != 0) out += ", ";
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
  out += "] /";
}

status print_item(reader& r, std::string& out, const diag_options& options) {
  std::vector<open_frame> stack;  // allocates only once something nests
  item it;
  for (;;) {
    const status s = r.next(it);
    if (s != status::ok) {
      // The reader reports an unfinished container as truncated itself; an
      // end of input with frames open here would be a reader bug.
      if (s == status::end && !stack.empty()) return status::internal_error;
      return s;
    }

    if (it.type == item_type::end) {
      if (stack.empty() || stack.back().kind == open_kind::tag) return status::internal_error;
      append_close(stack.back(), out);
      stack.pop_back();
    } else {
      if (!stack.empty()) append_separator(stack.back(), out);
      bool complete = true;
      switch (it.type) {
        case item_type::unsigned_int: append_uint(it.value(), out); break;
        case item_type::negative_int: append_negative(it.value(), out); break;
        case item_type::byte_string:
          if (it.is_indefinite()) {
            stack.push_back({0, open_kind::byte_chunks});
            complete = false;
          } else {
            append_bytes(it.bytes(), out);
            if (options.typed_array_values && !stack.empty() &&
                stack.back().kind == open_kind::tag)
              append_typed_values(stack.back().tag, it.bytes(), out);
          }
          break;
        case item_type::text_string:
          if (it.is_indefinite()) {
            stack.push_back({0, open_kind::text_chunks});
            complete = false;
          } else {
            append_text(it.text(), out);
          }
          break;
        case item_type::array:
          out += it.is_indefinite() ? "[_ " : "[";
          stack.push_back({0, open_kind::array});
          complete = false;
          break;
        case item_type::map:
          out += it.is_indefinite() ? "{_ " : "{";
          stack.push_back({0, open_kind::map});
          complete = false;
          break;
        case item_type::tag:
          append_uint(it.tag_number(), out);
          out += '(';
          stack.push_back({0, open_kind::tag, it.tag_number()});
          complete = false;
          break;
        case item_type::simple:
        case item_type::boolean:
        case item_type::null:
        case item_type::undefined: append_simple(it, out); break;
        case item_type::floating:
          diag_append_float(it.float_value(), out);
          if (options.float_width_indicators) append_width_indicator(it.width, out);
          break;
        default: return status::internal_error;
      }
      if (!complete) continue;
    }

    // A value just completed: it is the content of every tag waiting for one.
    while (!stack.empty() && stack.back().kind == open_kind::tag) {
      out += ')';
      stack.pop_back();
    }
    if (stack.empty()) return status::ok;
  }
}

}  // namespace

status diag_next(reader& r, std::string& out, const diag_options& options) {
  try {
    return print_item(r, out, options);
  } catch (const std::bad_alloc&) {
    return status::out_of_memory;
  }
}

void diag_append_float(double value, std::string& out) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::signbit(value)) out += '-';
  if (std::isinf(value)) {
    out += "Infinity";
    return;
  }

  // Shortest round-trip digits in scientific form, "d.ddde±xx"; zero gives "0e+00".
  char sci[32];
  const auto res = std::to_chars(sci, sci + sizeof sci, std::fabs(value),
                                 std::chars_format::scientific);
  const std::string_view text(sci, static_cast<size_t>(res.ptr - sci));
  const size_t e_at = text.find('e');
  char digits[20];
  int k = 0;  // significant digits
  for (size_t i = 0; i < e_at; ++i)
    if (text[i] != '.') digits[k++] = text[i];
  int exp10 = 0;
  std::from_chars(text.data() + e_at + 2, text.data() + text.size(), exp10);
  if (text[e_at + 1] == '-') exp10 = -exp10;

  // Layout of ECMAScript Number::toString: n is the position of the decimal
  // point relative to the first digit. Plain notation for 1e-6 <= |v| < 1e21,
  // exponent beyond that; ".0" added where JavaScript would print an integer.
  const int n = exp10 + 1;
  if (k <= n && n <= 21) {
    out.append(digits, static_cast<size_t>(k));
    out.append(static_cast<size_t>(n - k), '0');
    out += ".0";
  } else if (0 < n && n <= 21) {
    out.append(digits, static_cast<size_t>(n));
    out += '.';
    out.append(digits + n, static_cast<size_t>(k - n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out.append(digits, static_cast<size_t>(k));
  } else {
    out += digits[0];
    out += '.';
    if (k > 1)
      out.append(digits + 1, static_cast<size_t>(k - 1));
    else
      out += '0';
    out += n - 1 < 0 ? "e-" : "e+";
    append_uint(static_cast<uint64_t>(n - 1 < 0 ? 1 - n : n - 1), out);
  }
}

}  // namespace v1
}  // namespace cbor_fast
