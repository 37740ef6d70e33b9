// CBOR -> JSON (RFC 8949 section 6.1), printed from the pull reader's item
// stream into a text_output. Like the diagnostic printer it keeps its own
// stack of open containers (one small frame each) instead of recursing, and it
// never holds more of the output than the text_output's chunk.
#include <charconv>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

#include "cbor_fast/json.hpp"
#include "cbor_fast/stream.hpp"
#include "diag/diag_print.hpp"
#include "internal/compiler.hpp"
#include "internal/shortest.hpp"
#include "internal/utf8.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {

/// How byte strings print (RFC 8949 6.1 and the hints of tags 21-23).
enum class byte_form : uint8_t { base64url, base64, base16 };

enum class frame_kind : uint8_t {
  array,
  map,
  byte_chunks,  ///< indefinite byte string: one JSON string of the joined chunks
  text_chunks,  ///< indefinite text string
  tag_dropped,  ///< a tag whose content prints alone
  tag_kept,     ///< {"tag":N,"value":...}
};

struct frame {
  uint64_t printed;  ///< children so far (a map counts keys and values)
  frame_kind kind;
  byte_form form;          ///< for byte strings inside (inherited; tags 21-23 set it)
  uint8_t carry_size = 0;  ///< byte_chunks: bytes of an unfinished base64 group
  uint8_t carry[2] = {0, 0};
};

/// Bignums up to this size are tried as numbers: every integer from_json
/// reads (4300 digits at most, 1786 bytes) comes back as a number...
constexpr size_t k_bignum_max_bytes = 1786;
/// ...and only those of at most as many digits as from_json reads (1786
/// bytes hold up to 4302: those go out as base64url strings, which
/// from_json and Python's json read back).
constexpr size_t k_bignum_max_digits = 4300;

constexpr char k_b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char k_hex_upper[] = "0123456789ABCDEF";

/// What a byte needs inside a JSON string: 0 nothing, else its short escape
/// letter, or 'u' for \u00XX.
struct escape_table {
  char v[256];
  constexpr escape_table() : v() {
    for (int c = 0; c < 0x20; ++c) v[c] = 'u';
    v[int('\b')] = 'b';
    v[int('\f')] = 'f';
    v[int('\n')] = 'n';
    v[int('\r')] = 'r';
    v[int('\t')] = 't';
    v[int('"')] = '"';
    v[int('\\')] = '\\';
  }
};
constexpr escape_table k_escape;

/// Whether any of the 8 bytes of w is a C0 control, '"' or '\\' (the bytes
/// k_escape marks): the classic tests for a byte below 0x20 and for a zero
/// byte of w ^ '"'.. and w ^ '\\'.. (a borrow can only mark a byte above
/// one that truly matched).
inline bool any_to_escape(uint64_t w) noexcept {
  constexpr uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  const uint64_t q = w ^ (ones * uint8_t('"')), b = w ^ (ones * uint8_t('\\'));
  return ((((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs) != 0;
}

/// JSON string content (no quotes): runs that need no escape are copied whole.
void put_escaped(text_output& out, const char* s, size_t n) {
  size_t run = 0, i = 0;
  while (i < n) {
    // Eight bytes at a time past those that need nothing, then byte by byte
    // through the word that has one (or the last few bytes).
    while (n - i >= 8) {
      uint64_t w;
      std::memcpy(&w, s + i, 8);
      if (any_to_escape(w)) break;
      i += 8;
    }
    const size_t stop = n - i >= 8 ? i + 8 : n;
    for (; i < stop; ++i) {
      const char e = k_escape.v[static_cast<unsigned char>(s[i])];
      if (e == 0) continue;
      out.put(s + run, i - run);
      run = i + 1;
      if (e == 'u') {
        const auto c = static_cast<unsigned char>(s[i]);
        const char esc[6] = {'\\', 'u', '0', '0', k_hex_upper[c >> 4], k_hex_upper[c & 0xf]};
        out.put(esc, sizeof esc);
      } else {
        const char esc[2] = {'\\', e};
        out.put(esc, 2);
      }
    }
  }
  out.put(s + run, n - run);
}

/// Encodes whole groups of 3 bytes (base64) or single bytes (base16); for
/// base64 a final partial group is written only when `last` (with '=' padding
/// for base64, none for base64url), else left to the caller as carry.
/// Returns the bytes consumed.
size_t put_encoded(text_output& out, byte_form form, const uint8_t* p, size_t n, bool last) {
  if (form == byte_form::base16) {
    size_t i = 0;
    while (i < n) {
      const size_t k = n - i < 4096 ? n - i : 4096;
      char* o = out.reserve(2 * k);
      if (o == nullptr) return n;
      for (size_t j = 0; j < k; ++j) {
        o[2 * j] = k_hex_upper[p[i + j] >> 4];
        o[2 * j + 1] = k_hex_upper[p[i + j] & 0xf];
      }
      out.commit(2 * k);
      out.maybe_flush();
      i += k;
    }
    return n;
  }
  const char* alphabet = form == byte_form::base64 ? k_b64 : k_b64url;
  const size_t whole = n / 3 * 3;
  size_t i = 0;
  while (i < whole) {
    const size_t k = whole - i < 3072 ? whole - i : 3072;  // bytes, a multiple of 3
    char* o = out.reserve(k / 3 * 4);
    if (o == nullptr) return n;
    for (size_t j = 0; j < k; j += 3) {
      const uint32_t v = uint32_t(p[i + j]) << 16 | uint32_t(p[i + j + 1]) << 8 | p[i + j + 2];
      *o++ = alphabet[v >> 18];
      *o++ = alphabet[(v >> 12) & 63];
      *o++ = alphabet[(v >> 6) & 63];
      *o++ = alphabet[v & 63];
    }
    out.commit(k / 3 * 4);
    out.maybe_flush();
    i += k;
  }
  if (!last || whole == n) return whole;
  const size_t rest = n - whole;
  const uint32_t v = uint32_t(p[whole]) << 16 | (rest == 2 ? uint32_t(p[whole + 1]) << 8 : 0);
  char tail[4] = {alphabet[v >> 18], alphabet[(v >> 12) & 63], '=', '='};
  if (rest == 2) tail[2] = alphabet[(v >> 6) & 63];
  const bool pad = form == byte_form::base64;
  out.put(tail, pad ? 4 : rest + 1);
  return n;
}

/// Chunked bytes: the carry of the last unfinished group comes first.
void put_chunk(text_output& out, frame& f, const uint8_t* p, size_t n) {
  if (f.form == byte_form::base16) {
    put_encoded(out, f.form, p, n, true);
    return;
  }
  while (f.carry_size != 0 && f.carry_size < 3 && n != 0) {
    if (f.carry_size == 2) {
      const uint8_t group[3] = {f.carry[0], f.carry[1], *p};
      put_encoded(out, f.form, group, 3, false);
      f.carry_size = 0;
      ++p;
      --n;
      break;
    }
    f.carry[f.carry_size++] = *p++;
    --n;
  }
  if (n == 0) return;
  const size_t used = put_encoded(out, f.form, p, n, false);
  // Base64 takes whole 3-byte groups: 0 to 2 bytes are left for the next chunk.
  const size_t left = n - used;
  f.carry_size = uint8_t(left);
  if (left > 0) f.carry[0] = p[used];
  if (left > 1) f.carry[1] = p[used + 1];
}

void put_uint(text_output& out, uint64_t v) {
  char buf[20];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.put(buf, size_t(r.ptr - buf));
}

/// A bignum's magnitude (big-endian bytes, plus one for tag 3) in decimal.
/// Writes the bignum as a decimal number; false, writing nothing, when it
/// has more than k_bignum_max_digits digits.
bool put_bignum(text_output& out, const uint8_t* p, size_t n, bool negative) {
  // Little-endian 32-bit limbs.
  std::vector<uint32_t> limbs((n + 3) / 4 + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const size_t bit = (n - 1 - i) * 8;
    limbs[bit / 32] |= uint32_t(p[i]) << (bit % 32);
  }
  if (negative) {  // -1 - m: print m + 1
    for (uint32_t& l : limbs)
      if (++l != 0) break;
  }
  size_t used = limbs.size();
  while (used != 0 && limbs[used - 1] == 0) --used;
  // Base 10^9 digits, least significant first.
  std::vector<uint32_t> groups;
  while (used != 0) {
    uint64_t rem = 0;
    for (size_t i = used; i-- > 0;) {
      const uint64_t cur = rem << 32 | limbs[i];
      limbs[i] = uint32_t(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    groups.push_back(uint32_t(rem));
    while (used != 0 && limbs[used - 1] == 0) --used;
  }
  if (!groups.empty()) {
    size_t digits = 9 * (groups.size() - 1);
    for (uint32_t top = groups.back(); top != 0; top /= 10) ++digits;
    if (digits > k_bignum_max_digits) return false;
  }
  if (negative) out.put('-');
  if (groups.empty()) {
    out.put('0');
    return true;
  }
  put_uint(out, groups.back());
  for (size_t i = groups.size() - 1; i-- > 0;) {
    char buf[9];
    uint32_t g = groups[i];
    for (int d = 8; d >= 0; --d) {
      buf[d] = char('0' + g % 10);
      g /= 10;
    }
    out.put(buf, 9);
  }
  return true;
}

/// Forwards diagnostic text into a JSON string (the rule for non-text keys).
int escape_sink(void* context, const char* data, size_t size) {
  auto* out = static_cast<text_output*>(context);
  put_escaped(*out, data, size);
  return out->error() == status::ok ? 0 : 1;
}

/// The printer's open containers: a vector that only grows (frames past
/// the top are kept for reuse), so a push is a compare and four stores
/// inline, not std::vector's out-of-line emplace_back per array; the top is
/// a pointer, as std::vector's end.
class frame_stack {
 public:
  bool empty() const noexcept { return end_ == begin_; }
  frame& back() noexcept { return end_[-1]; }
  const frame& back() const noexcept { return end_[-1]; }
  void pop_back() noexcept { --end_; }
  /// Whether the frame under the top one is an array.
  bool array_below() const noexcept {
    return end_ - begin_ >= 2 && end_[-2].kind == frame_kind::array;
  }
  void push(frame_kind kind, byte_form f) {
    if (end_ == cap_) grow();
    frame& fr = *end_++;
    fr.printed = 0;
    fr.kind = kind;
    fr.form = f;
    fr.carry_size = 0;
  }

 private:
  CBOR_FAST_NOINLINE void grow() {
    const size_t n = size_t(end_ - begin_);
    frames_.resize(n < 8 ? 16 : 2 * n);
    begin_ = frames_.data();
    end_ = begin_ + n;
    cap_ = begin_ + frames_.size();
  }
  std::vector<frame> frames_;
  frame* begin_ = nullptr;
  frame* end_ = nullptr;
  frame* cap_ = nullptr;
};

/// Source: reader or stream (the same items; a stream reads on as needed).
template <class Source>
class json_printer {
 public:
  json_printer(Source& r, text_output& out, const to_json_options& options)
      : r_(r), out_(out), opt_(options) {}

  status run(size_t* bad_offset);

 private:
  byte_form form() const { return stack_.empty() ? byte_form::base64url : stack_.back().form; }
  void push(frame_kind kind, byte_form f) {
    // Filled in place: a frame built on the stack and copied in one 16-byte
    // move waits for its byte stores (a store-forwarding stall per array).
    stack_.push(kind, f);
  }
  bool print_numbers(item& it, status* s);
  bool text_ok(const item& it) const {
    const byte_view b = it.bytes();
    return detail::utf8_is_valid(b.data, b.size, b.data + b.size);
  }

  /// Where a text string (or chunk) that is not UTF-8 goes wrong: the lead
  /// byte of its first bad sequence, as a reader with validate_utf8 reports
  /// it (it was the string's head here, the content's byte there).
  static size_t bad_utf8_at(const item& it) {
    const byte_view b = it.bytes();
    return it.offset + it.head_size + detail::utf8_validate(b.data, b.size);
  }

  Source& r_;
  text_output& out_;
  const to_json_options& opt_;
  frame_stack stack_;
};

/// Arrays of numbers and of such arrays (canada's rings of coordinate
/// pairs, lists of ids), printed without the general loop's dispatch: called
/// with an array on top, just opened or with an element complete. Returns
/// true with the first item it does not take in `it` (for the general loop,
/// as read ahead), false with *s to return when reading stops.
template <class Source>
bool json_printer<Source>::print_numbers(item& it, status* s) {
  bool have = false;  // `it` holds the next item already (read after a float)
  for (;;) {
    if (!have) {
      *s = r_.next(it);
      if (*s != status::ok) {
        if (*s == status::end) *s = status::internal_error;  // inside the array
        return false;
      }
    }
    have = false;
    frame& arr = stack_.back();  // an array
    const size_t comma = arr.printed != 0 ? 1 : 0;
    if (it.type == item_type::floating) {
      const double v = it.float_value();
      if (v - v != 0 || v != v) return true;  // NaN or infinite: null
      // As the general loop: the shortest text that reads back as v (at most
      // 24 characters), ".0" on an integral value. Two floats in a row (a
      // coordinate pair) are converted together: their conversions overlap.
      *s = r_.next(it);
      const bool pair = *s == status::ok && it.type == item_type::floating &&
                        it.float_value() - it.float_value() == 0;  // finite
      char* const o = out_.reserve(1 + 64);
      if (o == nullptr) break;
      *o = ',';
      if (pair) {
        out_.commit(comma +
                    detail::format_shortest_pair(v, it.float_value(), ',', o + comma, true));
        arr.printed += 2;
        out_.maybe_flush();
        continue;
      }
      out_.commit(comma + detail::format_shortest(v, o + comma, true));
      ++arr.printed;
      out_.maybe_flush();
      if (*s != status::ok) {
        if (*s == status::end) *s = status::internal_error;
        return false;
      }
      have = true;  // the item after the float
      continue;
    }
    if (it.type == item_type::unsigned_int ||
        (it.type == item_type::negative_int && it.value() != UINT64_MAX)) {
      char* const o = out_.reserve(22);
      if (o == nullptr) break;
      *o = ',';
      size_t k = comma;
      uint64_t v = it.value();
      if (it.type == item_type::negative_int) {
        o[k++] = '-';
        ++v;
      }
      out_.commit(size_t(std::to_chars(o + k, o + 22, v).ptr - o));
    } else if (it.type == item_type::array) {
      char* const o = out_.reserve(2);
      if (o == nullptr) break;
      o[0] = ',';
      o[comma] = '[';
      out_.commit(comma + 1);
      ++arr.printed;
      push(frame_kind::array, arr.form);
      continue;
    } else if (it.type == item_type::end && stack_.array_below()) {
      // The array is complete, as an element of the array below.
      out_.put(']');
      stack_.pop_back();
      continue;
    } else {
      return true;
    }
    ++arr.printed;
    out_.maybe_flush();
  }
  *s = out_.error();
  return false;
}

template <class Source>
status json_printer<Source>::run(size_t* bad_offset) {
  item it;
  bool pending = false;  // `it` was read ahead (the content of a tag 2 / 3)
  for (;;) {
    if (!pending) {
      const status s = r_.next(it);
      if (s != status::ok) {
        if (s == status::end && !stack_.empty()) return status::internal_error;
        return s;
      }
    }
    pending = false;
    if (out_.error() != status::ok) return out_.error();
    bool array_closed = false;

    if (it.type == item_type::end) {
      if (stack_.empty()) return status::internal_error;
      frame& f = stack_.back();
      switch (f.kind) {
        case frame_kind::array:
          out_.put(']');
          array_closed = true;
          break;
        case frame_kind::map: out_.put('}'); break;
        case frame_kind::byte_chunks:
          if (f.carry_size != 0) put_encoded(out_, f.form, f.carry, f.carry_size, true);
          out_.put('"');
          break;
        case frame_kind::text_chunks: out_.put('"'); break;
        default: return status::internal_error;
      }
      stack_.pop_back();
    } else {
      bool key_done = false;  // a non-text key printed whole by the diag printer
      if (!stack_.empty()) {
        frame& parent = stack_.back();
        switch (parent.kind) {
          case frame_kind::array:
            if (parent.printed != 0) out_.put(',');
            break;
          case frame_kind::map:
            if (parent.printed % 2 == 1) {
              out_.put(':');
            } else {
              if (parent.printed != 0) out_.put(',');
              if (it.type != item_type::text_string) {
                // The key's diagnostic notation, as a JSON string.
                out_.put('"');
                text_output esc(escape_sink, &out_, 4096);
                status s = detail::diag_print(r_, esc, diag_options{}, &it, true, bad_offset);
                const status fs = esc.flush();
                if (s == status::ok) s = fs;
                if (s != status::ok) return s == status::sink_failed ? out_.error() : s;
                out_.put('"');
                key_done = true;
              }
            }
            break;
          case frame_kind::byte_chunks:
            put_chunk(out_, parent, it.bytes().data, it.bytes().size);
            ++parent.printed;
            out_.maybe_flush();
            continue;
          case frame_kind::text_chunks:
            if (!text_ok(it)) {
              *bad_offset = bad_utf8_at(it);
              return status::invalid_utf8;
            }
            put_escaped(out_, reinterpret_cast<const char*>(it.bytes().data), it.bytes().size);
            ++parent.printed;
            out_.maybe_flush();
            continue;
          default: break;
        }
        ++parent.printed;
      }

      bool complete = true;
      if (!key_done) {
        switch (it.type) {
          case item_type::unsigned_int: put_uint(out_, it.value()); break;
          case item_type::negative_int:
            if (it.value() == UINT64_MAX) {
              out_.put("-18446744073709551616");
            } else {
              out_.put('-');
              put_uint(out_, it.value() + 1);
            }
            break;
          case item_type::byte_string:
            out_.put('"');
            if (it.is_indefinite()) {
              push(frame_kind::byte_chunks, form());
              complete = false;
            } else {
              put_encoded(out_, form(), it.bytes().data, it.bytes().size, true);
              out_.put('"');
            }
            break;
          case item_type::text_string:
            out_.put('"');
            if (it.is_indefinite()) {
              push(frame_kind::text_chunks, form());
              complete = false;
            } else {
              if (!text_ok(it)) {
                *bad_offset = bad_utf8_at(it);
                return status::invalid_utf8;
              }
              put_escaped(out_, reinterpret_cast<const char*>(it.bytes().data), it.bytes().size);
              out_.put('"');
            }
            break;
          case item_type::array:
            out_.put('[');
            push(frame_kind::array, form());
            complete = false;
            break;
          case item_type::map:
            out_.put('{');
            push(frame_kind::map, form());
            complete = false;
            break;
          case item_type::tag: {
            const uint64_t tag = it.tag_number();
            complete = false;
            if (tag >= 21 && tag <= 23) {
              push(frame_kind::tag_dropped, tag == 21   ? byte_form::base64url
                                            : tag == 22 ? byte_form::base64
                                                        : byte_form::base16);
              break;
            }
            if (tag == 2 || tag == 3) {
              item content;
              const status s = r_.next(content);
              if (s != status::ok) return s;
              if (content.type == item_type::byte_string) {
                const bool negative = tag == 3;
                // The limit is on the magnitude's bytes: leading zeros do not count.
                size_t zeros = 0;
                if (!content.is_indefinite())
                  while (zeros < content.bytes().size && content.bytes().data[zeros] == 0) ++zeros;
                const bool as_number = !content.is_indefinite() &&
                                       content.bytes().size - zeros <= k_bignum_max_bytes &&
                                       put_bignum(out_, content.bytes().data + zeros,
                                                  content.bytes().size - zeros, negative);
                if (!as_number) {
                  // RFC 8949 6.1: base64url, "~" first for a negative bignum.
                  out_.put(negative ? "\"~" : "\"");
                  if (content.is_indefinite()) {
                    push(frame_kind::byte_chunks, byte_form::base64url);
                    break;
                  }
                  put_encoded(out_, byte_form::base64url, content.bytes().data,
                              content.bytes().size, true);
                  out_.put('"');
                }
                complete = true;
                break;
              }
              it = content;  // not a bignum: an ordinary tag over this item
              pending = true;
            }
            if (opt_.keep_tags) {
              out_.put("{\"tag\":");
              put_uint(out_, tag);
              out_.put(",\"value\":");
              push(frame_kind::tag_kept, form());
            } else {
              push(frame_kind::tag_dropped, form());
            }
            break;
          }
          case item_type::boolean: out_.put(it.boolean_value() ? "true" : "false"); break;
          case item_type::null:
          case item_type::undefined:
          case item_type::simple: out_.put("null"); break;
          case item_type::floating: {
            const double v = it.float_value();
            if (v - v != 0 || v != v) {  // NaN or infinite
              out_.put("null");
            } else {
              // The shortest text that reads back as v (std::to_chars's text:
              // plain or exponent form, "1e+300"; at most 24 characters), with
              // ".0" on an integral value so that it reads back as a float, not
              // an integer. Written in place.
              char* const o = out_.reserve(32);
              if (o == nullptr) return out_.error();
              out_.commit(detail::format_shortest(v, o, true));
            }
            break;
          }
          default: return status::internal_error;
        }
        if (!complete) {
          // (Not a tag 2 / 3's content read ahead: that array is still to open.)
          if (it.type == item_type::array && !pending) {
            status s;
            if (!print_numbers(it, &s)) return s;
            pending = true;
          }
          continue;
        }
      }
    }

    // A value just completed: it is the content of every tag waiting for one.
    while (!stack_.empty() && (stack_.back().kind == frame_kind::tag_dropped ||
                               stack_.back().kind == frame_kind::tag_kept)) {
      if (stack_.back().kind == frame_kind::tag_kept) out_.put('}');
      stack_.pop_back();
    }
    if (stack_.empty()) return out_.error();
    out_.maybe_flush();
    // Back to the fast path after a number or an array inside an array (not
    // after a string or a map: their neighbours are most likely the same).
    if (stack_.back().kind == frame_kind::array &&
        (array_closed || it.type == item_type::floating || it.type == item_type::unsigned_int ||
         it.type == item_type::negative_int)) {
      status s;
      if (!print_numbers(it, &s)) return s;
      pending = true;
    }
  }
}

size_t depth_of(const reader& r) { return r.depth(); }
size_t depth_of(const stream& s) { return s.reader().depth(); }

template <class Source>
void fill_error(error_info* error, status s, const Source& r, size_t bad_offset) {
  if (error == nullptr) return;
  if (r.error().code == s) {
    *error = r.error();
  } else {
    error->code = s;
    error->offset = s == status::invalid_utf8 ? bad_offset : r.offset();
    error->item_offset = 0;
    error->depth = uint32_t(depth_of(r));
  }
}

template <class Source>
status print_next(Source& r, text_output& out, const to_json_options& options, error_info* error) {
  size_t bad = 0;
  status s;
  try {
    json_printer<Source> p(r, out, options);
    s = p.run(&bad);
  } catch (const std::bad_alloc&) {
    s = status::out_of_memory;
  }
  const status f = out.flush();
  if (s == status::ok) s = f;
  if (s != status::ok && s != status::end) fill_error(error, s, r, bad);
  return s;
}

}  // namespace

status json_next(reader& r, text_output& out, const to_json_options& options, error_info* error) {
  const status ready = detail::printable_item_ready(r);
  if (ready != status::ok) {
    if (error != nullptr)
      *error = r.error().code == ready ? r.error() : error_info{ready, r.offset(), r.offset(), 0};
    return ready;
  }
  return print_next(r, out, options, error);
}

status json_next(stream& s, text_output& out, const to_json_options& options, error_info* error) {
  return print_next(s, out, options, error);
}

status json_next(reader& r, std::string& out, const to_json_options& options, error_info* error) {
  text_output o(out);
  return json_next(r, o, options, error);
}

status cbor_to_json(const uint8_t* data, size_t size, std::string& out,
                    const to_json_options& options, error_info* error) {
  reader r(data, size);
  status s = json_next(r, out, options, error);
  if (s == status::end) {
    s = status::truncated;  // no item at all
    if (error != nullptr) *error = error_info{s, 0, 0, 0};
  } else if (s == status::ok && !r.at_end()) {
    s = status::trailing_bytes;
    if (error != nullptr) *error = error_info{s, r.offset(), r.offset(), 0};
  }
  return s;
}

}  // namespace v1
}  // namespace cbor_fast
