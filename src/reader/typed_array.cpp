// RFC 8746 typed arrays: tag decoding, element conversion, reading from a
// reader or a document node, writing. Tags 40 (multi-dimensional) and 41.
#include "cbor_fast/typed_array.hpp"

#include <cstring>

#include "internal/float16.hpp"
#include "reader/typed_convert.hpp"

namespace cbor_fast {
namespace detail {

namespace {
template <class Int>
Int load_elem(const uint8_t* p, bool little) noexcept {
  using U = std::make_unsigned_t<Int>;
  U v = 0;
  if (little) {
    for (size_t i = sizeof(U); i-- > 0;) v = U((v << 8) | p[i]);
  } else {
    for (size_t i = 0; i < sizeof(U); ++i) v = U((v << 8) | p[i]);
  }
  return Int(v);
}
template <class Int>
Int load_fast(const uint8_t* p, bool little) noexcept {
  Int v;
  std::memcpy(&v, p, sizeof v);
  if (little == host_little_endian() || sizeof(Int) == 1) return v;
  return load_elem<Int>(p, little);
}
}  // namespace

// float128 (binary128) to double, rounded to nearest even.
double float128_to_double(const uint8_t* p, bool little) noexcept {
  uint64_t hi, lo;
  if (little) {
    lo = load_elem<uint64_t>(p, true);
    hi = load_elem<uint64_t>(p + 8, true);
  } else {
    hi = load_elem<uint64_t>(p, false);
    lo = load_elem<uint64_t>(p + 8, false);
  }
  const uint64_t sign = hi & (uint64_t(1) << 63);
  const int64_t exp = int64_t((hi >> 48) & 0x7fff);
  const uint64_t mant_hi = hi & ((uint64_t(1) << 48) - 1);
  if (exp == 0x7fff) {
    if (mant_hi == 0 && lo == 0) return bits_to_double(sign | (uint64_t(0x7ff) << 52));
    // NaN: the top 52 payload bits, kept non-zero (quiet bit included).
    uint64_t payload = (mant_hi << 4) | (lo >> 60);
    if (payload == 0) payload = 1;
    return bits_to_double(sign | (uint64_t(0x7ff) << 52) | payload);
  }
  if (exp == 0) return bits_to_double(sign);  // zero or far below double's subnormals
  // Top 64 significand bits with the leading 1 at bit 63; the rest is sticky.
  const uint64_t m64 = (mant_hi << 16) | (lo >> 48);
  bool sticky = (lo & 0xffff) != 0 || (m64 & 1) != 0;
  const uint64_t sig = (uint64_t(1) << 63) | (m64 >> 1);
  int64_t e = exp - 16383 + 1023;  // double exponent field for a normal result
  if (e >= 2047) return bits_to_double(sign | (uint64_t(0x7ff) << 52));
  unsigned shift = 11;
  if (e <= 0) {
    const int64_t extra = 1 - e;
    if (extra > 53) return bits_to_double(sign);  // below half the smallest subnormal
    shift += unsigned(extra);
    e = 0;
  }
  // shift is 64 where the value lies in [2^-1075, 2^-1074): nothing of sig
  // stays, and all of it decides the rounding (a shift by 64 is undefined).
  uint64_t mant = 0, rem = sig, half = uint64_t(1) << 63;
  if (shift < 64) {
    mant = sig >> shift;
    rem = sig & ((uint64_t(1) << shift) - 1);
    half = uint64_t(1) << (shift - 1);
  }
  if (rem > half || (rem == half && (sticky || (mant & 1) != 0))) ++mant;
  // Normal: mant has its implicit bit at 52 (a carry to bit 53 bumps the
  // exponent, up to infinity); subnormal: mant is the field itself.
  const uint64_t bits = e == 0 ? mant : (uint64_t(e) << 52) + (mant - (uint64_t(1) << 52));
  return bits_to_double(sign | bits);
}

template <class T>
status typed_convert(const typed_array& a, T* out, size_t capacity, size_t* bad) noexcept {
  const size_t n = a.count();
  if (n > capacity) return status::buffer_too_small;
  const uint8_t* p = a.bytes.data;
  const bool le = a.little_endian;
  size_t i = 0;
  status s = status::ok;
  auto put_int = [&](auto v) noexcept {
    T t;
    const status cs = convert_int(v, t);
    if (cs != status::ok) {
      s = cs;
      return false;
    }
    out[i] = t;
    return true;
  };
  switch (a.element) {
    case typed_element::uint8:
    case typed_element::uint8_clamped:
      for (; i < n; ++i)
        if (!put_int(uint64_t(p[i]))) break;
      break;
    case typed_element::sint8:
      for (; i < n; ++i)
        if (!put_int(int64_t(int8_t(p[i])))) break;
      break;
    case typed_element::uint16:
      for (; i < n; ++i)
        if (!put_int(uint64_t(load_fast<uint16_t>(p + 2 * i, le)))) break;
      break;
    case typed_element::sint16:
      for (; i < n; ++i)
        if (!put_int(int64_t(load_fast<int16_t>(p + 2 * i, le)))) break;
      break;
    case typed_element::uint32:
      for (; i < n; ++i)
        if (!put_int(uint64_t(load_fast<uint32_t>(p + 4 * i, le)))) break;
      break;
    case typed_element::sint32:
      for (; i < n; ++i)
        if (!put_int(int64_t(load_fast<int32_t>(p + 4 * i, le)))) break;
      break;
    case typed_element::uint64:
      if (std::is_same<T, uint64_t>::value && le == host_little_endian()) {
        if (n != 0) std::memcpy(out, p, n * 8);
        i = n;
        break;
      }
      for (; i < n; ++i)
        if (!put_int(load_fast<uint64_t>(p + 8 * i, le))) break;
      break;
    case typed_element::sint64:
      if (std::is_same<T, int64_t>::value && le == host_little_endian()) {
        if (n != 0) std::memcpy(out, p, n * 8);
        i = n;
        break;
      }
      for (; i < n; ++i)
        if (!put_int(load_fast<int64_t>(p + 8 * i, le))) break;
      break;
    default:
      // Floats: into double only.
      if constexpr (!std::is_same<T, double>::value) {
        s = status::type_mismatch;
        break;
      } else {
        if (a.element == typed_element::float64) {
          if (le == host_little_endian()) {
            if (n != 0) std::memcpy(out, p, n * 8);
          } else {
            for (size_t k = 0; k < n; ++k)
              out[k] = bits_to_double(load_elem<uint64_t>(p + 8 * k, le));
          }
        } else if (a.element == typed_element::float32) {
          for (size_t k = 0; k < n; ++k)
            out[k] = single_to_double(load_fast<uint32_t>(p + 4 * k, le));
        } else if (a.element == typed_element::float16) {
          for (size_t k = 0; k < n; ++k)
            out[k] = half_to_double(load_fast<uint16_t>(p + 2 * k, le));
        } else {
          for (size_t k = 0; k < n; ++k) out[k] = float128_to_double(p + 16 * k, le);
        }
        i = n;
      }
      break;
  }
  if (s != status::ok && bad != nullptr) *bad = s == status::type_mismatch ? 0 : i;
  return s;
}

template status typed_convert<uint64_t>(const typed_array&, uint64_t*, size_t, size_t*) noexcept;
template status typed_convert<int64_t>(const typed_array&, int64_t*, size_t, size_t*) noexcept;
template status typed_convert<double>(const typed_array&, double*, size_t, size_t*) noexcept;

}  // namespace detail

inline namespace v1 {

bool typed_array_from_tag(uint64_t tag, typed_array& out) noexcept {
  if (tag < 64 || tag > 87 || tag == 76) return false;
  const unsigned t = unsigned(tag - 64);
  const bool is_float = (t & 16) != 0;
  const bool little = (t & 4) != 0;
  const unsigned ll = t & 3;
  out.tag = tag;
  if (is_float) {
    static constexpr typed_element floats[4] = {typed_element::float16, typed_element::float32,
                                                typed_element::float64, typed_element::float128};
    out.element = floats[ll];
    out.element_size = uint8_t(2u << ll);
    out.little_endian = little;
    return true;
  }
  const bool is_signed = (t & 8) != 0;
  out.element_size = uint8_t(1u << ll);
  if (ll == 0) {
    // 64 uint8, 68 uint8 clamped, 72 sint8 (76 is reserved).
    out.element = is_signed ? typed_element::sint8
                  : little  ? typed_element::uint8_clamped
                            : typed_element::uint8;
    out.little_endian = false;
    return true;
  }
  static constexpr typed_element uints[4] = {typed_element::uint8, typed_element::uint16,
                                             typed_element::uint32, typed_element::uint64};
  static constexpr typed_element sints[4] = {typed_element::sint8, typed_element::sint16,
                                             typed_element::sint32, typed_element::sint64};
  out.element = is_signed ? sints[ll] : uints[ll];
  out.little_endian = little;
  return true;
}

uint64_t typed_array_tag(typed_element element, bool little_endian) noexcept {
  const uint64_t e = little_endian ? 4 : 0;
  switch (element) {
    case typed_element::uint8: return 64;
    case typed_element::uint8_clamped: return 68;
    case typed_element::sint8: return 72;
    case typed_element::uint16: return 65 + e;
    case typed_element::uint32: return 66 + e;
    case typed_element::uint64: return 67 + e;
    case typed_element::sint16: return 73 + e;
    case typed_element::sint32: return 74 + e;
    case typed_element::sint64: return 75 + e;
    case typed_element::float16: return 80 + e;
    case typed_element::float32: return 81 + e;
    case typed_element::float64: return 82 + e;
    case typed_element::float128: return 83 + e;
  }
  return 0;
}

status typed_array::copy_to(uint64_t* out, size_t capacity, size_t* bad_index) const noexcept {
  return detail::typed_convert(*this, out, capacity, bad_index);
}
status typed_array::copy_to(int64_t* out, size_t capacity, size_t* bad_index) const noexcept {
  return detail::typed_convert(*this, out, capacity, bad_index);
}
status typed_array::copy_to(double* out, size_t capacity, size_t* bad_index) const noexcept {
  return detail::typed_convert(*this, out, capacity, bad_index);
}

status read_typed_array(reader& r, typed_array& out) noexcept {
  // Streaming: the whole tag and byte string first (need_more; nothing is
  // taken of a partial one), as read_array().
  if (r.options().streaming) {
    const status ready = r.item_ready();
    if (ready != status::ok) return ready;
  }
  detail::peeked_head h;
  const status ps = detail::peek_next(r, h);
  if (ps != status::ok) return ps;
  if (h.major == 6 && !h.complete) {
    // A tag head cut short by the input's end, or malformed: the reader's
    // error (truncated, reserved_additional_info, ...), not a mismatch.
    item bad;
    return r.next(bad);
  }
  typed_array info;
  if (h.major != 6 || !typed_array_from_tag(h.arg, info)) return status::type_mismatch;
  item tag;
  status s = r.next(tag);
  if (s != status::ok) return s;
  item bytes;
  s = r.next(bytes);
  if (s != status::ok) return s;
  if (bytes.type != item_type::byte_string || bytes.is_indefinite() ||
      bytes.count() % info.element_size != 0)
    return detail::bulk_fail(r, status::type_mismatch, bytes.offset);
  info.bytes = bytes.bytes();
  info.offset = tag.offset;
  info.data_offset = bytes.offset + bytes.head_size;
  out = info;
  return status::ok;
}

status read_typed_array(node n, typed_array& out) noexcept {
  uint64_t tag = 0;
  if (n.get_tag(tag) != status::ok) return status::type_mismatch;
  typed_array info;
  if (!typed_array_from_tag(tag, info)) return status::type_mismatch;
  const node content = n.tag_content();
  byte_view b;
  if (content.get_bytes(b) != status::ok || b.size % info.element_size != 0)
    return status::type_mismatch;
  info.bytes = b;
  info.offset = n.offset();
  // A node knows its head's offset, not its content's: the content follows
  // a shortest head (what every encoder writes; a longer one is not seen).
  const size_t len = b.size;
  const size_t head = content.is_indefinite() ? 1
                      : len < 24              ? 1
                      : len <= 0xff           ? 2
                      : len <= 0xffff         ? 3
                      : len <= 0xffffffffu    ? 5
                                              : 9;
  info.data_offset = content.offset() + head;
  out = info;
  return status::ok;
}

status write_typed_array(writer& w, typed_element element, bool little_endian, const void* bytes,
                         size_t count) noexcept {
  typed_array info;
  const uint64_t tag = typed_array_tag(element, little_endian);
  if (!typed_array_from_tag(tag, info)) return status::invalid_argument;
  if (count != 0 && bytes == nullptr) return status::invalid_argument;
  if (count > SIZE_MAX / info.element_size) return status::invalid_argument;
  const status s = w.write_tag(tag);
  if (s != status::ok && s != status::buffer_too_small) return s;
  const status b = w.write_bytes(count != 0 ? bytes : "", count * info.element_size);
  return b != status::ok ? b : s;
}

status begin_multi_dim(writer& w, const uint64_t* dims, size_t ndims) noexcept {
  if (dims == nullptr || ndims == 0) return status::invalid_argument;
  status worst = status::ok;
  auto step = [&worst](status s) noexcept {
    if (s == status::buffer_too_small) {
      worst = s;
      return true;
    }
    return s == status::ok;
  };
  if (!step(w.write_tag(tag_multi_dim)) || !step(w.begin_array(2)) || !step(w.begin_array(ndims)))
    return w.error();
  for (size_t i = 0; i < ndims; ++i)
    if (!step(w.write_uint(dims[i]))) return w.error();
  if (!step(w.end())) return w.error();
  return worst;
}

status read_multi_dim(reader& r, uint64_t* dims, size_t capacity, size_t* ndims) noexcept {
  if (ndims == nullptr || (dims == nullptr && capacity != 0)) return status::invalid_argument;
  *ndims = 0;
  detail::peeked_head h;
  const status ps = detail::peek_next(r, h);
  if (ps != status::ok) return ps;
  if (h.major != 6 || !h.complete || h.arg != tag_multi_dim) return status::type_mismatch;
  item tag;
  status s = r.next(tag);
  if (s != status::ok) return s;
  item outer;
  s = r.next(outer);
  if (s != status::ok) return s;
  if (outer.type != item_type::array || outer.is_indefinite() || outer.count() != 2)
    return detail::bulk_fail(r, status::type_mismatch, outer.offset);
  const size_t at = r.offset();
  s = r.read_array(dims, capacity, ndims);
  if (s == status::type_mismatch && r.error().code == status::ok)
    return detail::bulk_fail(r, status::type_mismatch, at);
  if (s == status::ok && *ndims == 0) return detail::bulk_fail(r, status::type_mismatch, at);
  return s;
}

}  // namespace v1
}  // namespace cbor_fast
