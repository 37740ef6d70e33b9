// reader::read_array(): a whole array of numbers in one call.
//
// A definite array on the plain path (no sticky error, no strict checks, the
// item budget and the nesting limit allow it) is read in one loop that knows
// the element type: each element is one initial-byte test and a load, with
// the end of input tested once per stretch of elements that surely fit (an
// element takes at most nine bytes). At the first element that is not a
// complete number head the reader state is brought up to that element (the
// array's frame pushed) and next() takes over, so malformed input gets
// exactly next()'s status and offset. Everything else (indefinite arrays,
// strict checks, limits) goes element by element through next().
#include <cstring>
#include <new>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The AVX2 runs of 1a and 19 heads need GCC/Clang function multiversioning
// on x86-64: compiled for AVX2 inside a baseline build and only called after
// a CPUID check (as in src/internal/utf8.cpp).
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CBOR_FAST_BULK_AVX2 1
#include <immintrin.h>
#define CBOR_FAST_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define CBOR_FAST_BULK_AVX2 0
#endif

#include "cbor_fast/reader.hpp"
#include "internal/float16.hpp"
#include "reader/typed_convert.hpp"

namespace cbor_fast {
namespace detail {

namespace {
/// The big-endian argument of n = 1, 2, 4 or 8 bytes at p (reads exactly n bytes).
inline uint64_t load_be(const uint8_t* p, unsigned n) noexcept {
  switch (n) {
    case 1: return p[0];
    case 2: return uint64_t(p[0]) << 8 | p[1];
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      v = __builtin_bswap32(v);
#else
      v = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
#endif
      return v;
    }
    default: return load_argument<8>(p);
  }
}

/// Where the elements go: a caller buffer or a vector.
template <class T>
struct buffer_out {
  T* data;
  size_t capacity;
  size_t* count;
  /// A definite array of n elements: false when it does not fit.
  bool begin(uint64_t n) noexcept {
    *count = size_t(n);
    return n <= capacity;
  }
  T* slots() noexcept { return data; }
  /// An element past the definite start (indefinite arrays): false when full.
  bool put(size_t i, T v) noexcept {
    if (i >= capacity) return false;
    data[i] = v;
    return true;
  }
  void done(size_t n) noexcept { *count = n; }
};
template <class T>
struct vector_out {
  std::vector<T>& v;
  bool begin(uint64_t n) {
    v.resize(size_t(n));
    return true;
  }
  T* slots() noexcept { return v.data(); }
  bool put(size_t i, T x) {
    if (i < v.size()) {
      v[i] = x;
    } else {
      v.push_back(x);
    }
    return true;
  }
  void done(size_t n) { v.resize(n); }
};

#if CBOR_FAST_BULK_AVX2
/// Elements with 1a heads (a four-byte argument each) from p into out[0..],
/// sixteen at a time while all sixteen heads of a block are 1a: returns how
/// many were read (a multiple of 16, at most max). A block is 80 bytes and
/// reads 86 (the last 16-byte load starts at its byte 70), so it is taken only
/// when 86 bytes are left. Every value fits every integer element type, and
/// uint64_t and int64_t store the same bits for it.
CBOR_FAST_TARGET_AVX2 size_t u32_run_avx2(const uint8_t* p, const uint8_t* end, size_t max,
                                          void* out) noexcept {
  const __m256i head = _mm256_set1_epi8(0x1a);
  // Each 128-bit lane holds two elements (bytes 0-4 and 5-9): their arguments
  // byte-swapped into two zero-extended 64-bit values.
  const __m256i swap = _mm256_setr_epi8(4, 3, 2, 1, -1, -1, -1, -1, 9, 8, 7, 6, -1, -1, -1, -1, 4,
                                        3, 2, 1, -1, -1, -1, -1, 9, 8, 7, 6, -1, -1, -1, -1);
  const unsigned heads = 0x00210021u;  // bytes 0 and 5 of each lane
  auto* o = static_cast<__m256i*>(out);
  size_t k = 0;
  while (max - k >= 16 && size_t(end - p) >= 86) {
    __m256i v[4];
    for (int j = 0; j < 4; ++j) {
      const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 20 * j));
      const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 20 * j + 10));
      v[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
    }
    const __m256i eq = _mm256_and_si256(
        _mm256_and_si256(_mm256_cmpeq_epi8(v[0], head), _mm256_cmpeq_epi8(v[1], head)),
        _mm256_and_si256(_mm256_cmpeq_epi8(v[2], head), _mm256_cmpeq_epi8(v[3], head)));
    if ((unsigned(_mm256_movemask_epi8(eq)) & heads) != heads) break;
    for (int j = 0; j < 4; ++j) _mm256_storeu_si256(o + j, _mm256_shuffle_epi8(v[j], swap));
    o += 4;
    k += 16;
    p += 80;
  }
  return k;
}

/// The same for 19 heads (a two-byte argument each): a block of sixteen is
/// 48 bytes and reads 52 (the last load starts at its byte 36).
CBOR_FAST_TARGET_AVX2 size_t u16_run_avx2(const uint8_t* p, const uint8_t* end, size_t max,
                                          void* out) noexcept {
  const __m256i head = _mm256_set1_epi8(0x19);
  // Both lanes hold the same 16 bytes: four elements at bytes 0, 3, 6 and 9;
  // the low lane takes the first two, the high lane the other two.
  const __m256i swap =
      _mm256_setr_epi8(2, 1, -1, -1, -1, -1, -1, -1, 5, 4, -1, -1, -1, -1, -1, -1, 8, 7, -1, -1, -1,
                       -1, -1, -1, 11, 10, -1, -1, -1, -1, -1, -1);
  const unsigned heads = 0x249u;  // bytes 0, 3, 6 and 9 of the low lane
  auto* o = static_cast<__m256i*>(out);
  size_t k = 0;
  while (max - k >= 16 && size_t(end - p) >= 52) {
    __m256i v[4];
    for (int j = 0; j < 4; ++j)
      v[j] = _mm256_broadcastsi128_si256(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12 * j)));
    const __m256i eq = _mm256_and_si256(
        _mm256_and_si256(_mm256_cmpeq_epi8(v[0], head), _mm256_cmpeq_epi8(v[1], head)),
        _mm256_and_si256(_mm256_cmpeq_epi8(v[2], head), _mm256_cmpeq_epi8(v[3], head)));
    if ((unsigned(_mm256_movemask_epi8(eq)) & heads) != heads) break;
    for (int j = 0; j < 4; ++j) _mm256_storeu_si256(o + j, _mm256_shuffle_epi8(v[j], swap));
    o += 4;
    k += 16;
    p += 48;
  }
  return k;
}

bool cpu_has_avx2() noexcept {
  __builtin_cpu_init();  // may run before the constructors that set the flags
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

/// Whether read_array() takes the AVX2 runs here; CPUID is asked once.
inline bool wide_runs() noexcept {
#if CBOR_FAST_BULK_AVX2
  static const bool has = cpu_has_avx2();
  return has;
#else
  return false;
#endif
}

/// One element item (from next()) into T: ok, type_mismatch or out_of_range.
template <class T>
status convert_item(const item& e, T& out) noexcept {
  switch (e.type) {
    case item_type::unsigned_int: return convert_int(e.value(), out);
    case item_type::negative_int: return convert_negative(e.value(), out);
    case item_type::floating:
      if constexpr (std::is_same<T, double>::value) {
        out = e.float_value();
        return status::ok;
      } else {
        return status::type_mismatch;
      }
    default: return status::type_mismatch;
  }
}
}  // namespace

struct bulk_reader {
  static status peek(reader& r, peeked_head& h) noexcept {
    if (r.error_.code != status::ok) return r.error_.code;
    r.pop_finished_tags();
    const reader::frame* top = r.top_;
    if (top->left == 0 && !top->indefinite) return status::invalid_state;
    if (r.pos_ == r.end_) {
      if (r.depth_ == 0) return status::end;
      item it;
      return r.next(it);  // truncated, sticky
    }
    const uint8_t* p = r.pos_;
    const uint8_t b = *p;
    if (top->indefinite && b == 0xff) return status::invalid_state;
    h.major = uint8_t(b >> 5);
    h.ai = uint8_t(b & 0x1f);
    h.offset = r.offset();
    h.complete = false;
    if (h.ai < 24) {
      h.arg = h.ai;
      h.size = 1;
      h.complete = true;
    } else if (h.ai < 28) {
      const unsigned n = 1u << (h.ai - 24);
      if (size_t(r.end_ - p - 1) >= n) {
        h.arg = load_be(p + 1, n);
        h.size = 1 + n;
        h.complete = true;
      }
    }
    return status::ok;
  }

  static status fail(reader& r, status s, size_t offset) noexcept { return r.fail(s, offset); }

  /// Elements through next() from element `index` on, until the array's end item.
  template <class T, class Out>
  static status slow_elements(reader& r, Out& out, size_t index, bool definite) {
    for (;;) {
      item e;
      const status s = r.next(e);
      if (s != status::ok) return s;
      if (e.type == item_type::end) break;
      T v;
      const status cs = convert_item(e, v);
      if (cs != status::ok) return r.fail(cs, e.offset);
      if (definite) {
        out.slots()[index] = v;
      } else if (!out.put(index, v)) {
        return r.fail(status::buffer_too_small, e.offset);
      }
      ++index;
    }
    out.done(index);
    return status::ok;
  }

  /// wide: take the AVX2 runs (only when the CPU has AVX2).
  template <class T, class Out>
  static status read(reader& r, Out& out, bool wide) {
    peeked_head h;
    status s;
    // Streaming: the whole array first (nothing is read of a partial one).
    if (r.options_.streaming && (s = r.item_ready()) != status::ok) return s;
    s = peek(r, h);
    if (s != status::ok) return s;
    if (h.major == 6 && h.complete) {
      if (h.arg == tag_homogeneous) {
        // Tag 41 before an array: look past it (taken only if an array follows).
        const uint8_t* after = r.pos_ + h.size;
        if (after == r.end_ || (*after >> 5) != 4) return status::type_mismatch;
        item tag;
        s = r.next(tag);
        if (s != status::ok) return s;
        return read<T>(r, out, wide);
      }
      typed_array info;
      if (!typed_array_from_tag(h.arg, info)) return status::type_mismatch;
      return read_typed<T>(r, out, h, info);
    }
    if (h.major != 4) return status::type_mismatch;
    item head;
    if (h.ai == 31) {
      s = r.next(head);
      if (s != status::ok) return s;
      out.done(0);
      return slow_elements<T>(r, out, 0, false);
    }
    if (!h.complete) return r.next(head);  // reserved or truncated head: next() reports it
    const uint64_t n = h.arg;
    const uint8_t* p = r.pos_ + h.size;
    const uint8_t* const end = r.end_;
    // Every element takes a byte: a longer count is refused by next()
    // (truncated, or container_too_large first) before anything is sized by it.
    if (n > size_t(end - p) || n > r.options_.max_container_items) {
      s = r.next(head);
      if (s != status::ok) return s;
      // Streaming: next() takes a head whatever its count (more input may
      // come), and item_ready() let this item through only because its scout
      // met an error inside (a complete array holds a byte per element).
      // The elements one by one reach that error; nothing is sized by n.
      out.done(0);
      return slow_elements<T>(r, out, 0, false);
    }
    if (!out.begin(n)) return status::buffer_too_small;
    T* slot = out.slots();
    if (r.depth_ == 0) r.renew_budget(0);  // a top-level array: a whole budget
    const bool plain =
        r.slow_ == 0 && r.top_->left != 0 && r.items_left_ > n && r.depth_ < r.options_.max_depth;
    if (!plain) {
      s = r.next(head);
      if (s != status::ok) return s;
      return slow_elements<T>(r, out, 0, true);
    }
    size_t i = 0;
    const size_t count = size_t(n);
    while (i < count) {
#if defined(__SSE2__)
      if constexpr (!std::is_same<T, double>::value) {
        // Sixteen integers 0..23 (one byte each) at a time: widened to 64 bits.
        const __m128i k23 = _mm_set1_epi8(23);
        const __m128i z = _mm_setzero_si128();
        while (count - i >= 16 && size_t(end - p) >= 16) {
          const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
          if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, k23), k23)) != 0xffff) break;
          const __m128i lo = _mm_unpacklo_epi8(v, z);
          const __m128i hi = _mm_unpackhi_epi8(v, z);
          const __m128i w[4] = {_mm_unpacklo_epi16(lo, z), _mm_unpackhi_epi16(lo, z),
                                _mm_unpacklo_epi16(hi, z), _mm_unpackhi_epi16(hi, z)};
          __m128i* o = reinterpret_cast<__m128i*>(slot + i);
          for (int k = 0; k < 4; ++k) {
            _mm_storeu_si128(o + 2 * k, _mm_unpacklo_epi32(w[k], z));
            _mm_storeu_si128(o + 2 * k + 1, _mm_unpackhi_epi32(w[k], z));
          }
          p += 16;
          i += 16;
        }
        if (i == count) break;
      }
#endif
      // A run of elements with the same head as this one (same width): one
      // compare, one load and one store each, for as many as surely fit
      // (m: elements of this width in the bytes left).
      if (size_t(end - p) >= 9) {
        const uint8_t b0 = *p;
        const size_t left = count - i;
        const size_t avail = size_t(end - p);
        auto fit = [left, avail](size_t width) noexcept {
          return avail / width < left ? avail / width : left;
        };
        size_t k = 0;
        if constexpr (std::is_same<T, double>::value) {
          (void)wide;
          if (b0 == 0xfb) {
            const size_t m = fit(9);
            for (; k < m && *p == 0xfb; ++k, p += 9)
              slot[i + k] = bits_to_double(load_argument<8>(p + 1));
          } else if (b0 == 0xfa) {
            const size_t m = fit(5);
            for (; k < m && *p == 0xfa; ++k, p += 5)
              slot[i + k] = single_to_double(uint32_t(load_be(p + 1, 4)));
          }
        } else {
          if (b0 == 0x1a) {
            const size_t m = fit(5);
#if CBOR_FAST_BULK_AVX2
            // Sixteen at a time, byte-swapped in vector registers.
            if (wide) {
              k = u32_run_avx2(p, end, m, slot + i);
              p += 5 * k;
            }
#else
            (void)wide;
#endif
            // Eight at a time while all eight heads match (one test for them).
            T* o = slot + i;
            for (; k + 8 <= m &&
                   ((p[0] ^ 0x1a) | (p[5] ^ 0x1a) | (p[10] ^ 0x1a) | (p[15] ^ 0x1a) |
                    (p[20] ^ 0x1a) | (p[25] ^ 0x1a) | (p[30] ^ 0x1a) | (p[35] ^ 0x1a)) == 0;
                 k += 8, p += 40) {
              for (unsigned e = 0; e < 8; ++e) o[k + e] = T(load_be(p + 1 + 5 * e, 4));
            }
            for (; k < m && *p == 0x1a; ++k, p += 5) slot[i + k] = T(load_be(p + 1, 4));
          } else if (b0 == 0x19) {
            const size_t m = fit(3);
#if CBOR_FAST_BULK_AVX2
            if (wide) {
              k = u16_run_avx2(p, end, m, slot + i);
              p += 3 * k;
            }
#endif
            for (; k < m && *p == 0x19; ++k, p += 3) slot[i + k] = T(uint64_t(p[1]) << 8 | p[2]);
          } else if (b0 == 0x18) {
            const size_t m = fit(2);
            for (; k < m && *p == 0x18; ++k, p += 2) slot[i + k] = T(p[1]);
          }
        }
        i += k;
        if (i == count) break;
      }
      size_t stretch = size_t(end - p) / 9;
      if (stretch > 64) stretch = 64;  // then a look for another run
      if (stretch > count - i) stretch = count - i;
      if (stretch == 0) stretch = 1;  // the last few bytes: each element bounds-checked
      const bool checked = size_t(end - p) < 9;
      const size_t stop = i + stretch;
      for (; i < stop; ++i) {
        if (checked && p == end) goto slow;  // the input ends before this element
        const uint8_t b = *p;
        if (checked) {
          const unsigned ai = b & 0x1f;
          const size_t need = ai < 24 ? 1 : ai < 28 ? 1 + (size_t(1) << (ai - 24)) : 0;
          if (need == 0 || need > size_t(end - p)) goto slow;
        }
        if constexpr (std::is_same<T, double>::value) {
          if (b == 0xfb) {
            slot[i] = bits_to_double(load_argument<8>(p + 1));
            p += 9;
            continue;
          }
          if (b == 0xfa) {
            slot[i] = single_to_double(uint32_t(load_be(p + 1, 4)));
            p += 5;
            continue;
          }
          if (b == 0xf9) {
            slot[i] = half_to_double(uint16_t(uint64_t(p[1]) << 8 | p[2]));
            p += 3;
            continue;
          }
        }
        const unsigned major = b >> 5;
        if (major > 1 ||
            (!std::is_same<T, int64_t>::value && !std::is_same<T, double>::value && major != 0))
          goto slow;
        const unsigned ai = b & 0x1f;
        uint64_t v;
        if (ai < 24) {
          v = ai;
          p += 1;
        } else if (ai == 24) {
          v = p[1];
          p += 2;
        } else if (ai == 25) {
          v = uint64_t(p[1]) << 8 | p[2];
          p += 3;
        } else if (ai == 26) {
          v = load_be(p + 1, 4);
          p += 5;
        } else if (ai == 27) {
          v = load_argument<8>(p + 1);
          p += 9;
        } else {
          goto slow;
        }
        status cs;
        if (major == 0) {
          cs = convert_int(v, slot[i]);
        } else {
          cs = convert_negative(v, slot[i]);
        }
        if (cs != status::ok) {
          // Up to the element (consumed), then the sticky error at its offset.
          const size_t at = size_t(p - r.begin_) - (ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24)));
          commit(r, h, r.begin_ + at, i);
          const status ps = r.push(frame_array, false, n - i, h.offset);
          if (ps != status::ok) return ps;
          return r.fail(cs, at);
        }
      }
    }
    // All elements read: the array is one item of its level, fully consumed.
    commit(r, h, p, count);
    out.done(count);
    return status::ok;
  slow:
    // Not a complete number head: next() from this element on (exact errors).
    commit(r, h, p, i);
    s = r.push(frame_array, false, n - i, h.offset);
    if (s != status::ok) return s;
    if (n - i == 0) {
      item e;
      return r.next(e);
    }
    return slow_elements<T>(r, out, i, true);
  }

  /// The array head and `elements` elements taken, position at p, no frame pushed.
  static void commit(reader& r, const peeked_head& h, const uint8_t* p, size_t elements) noexcept {
    if (r.depth_ == 0) r.item_start_ = h.offset;
    r.pos_ = p;
    r.items_left_ -= 1 + elements;
    --r.top_->left;
    r.note_plain_end();
  }

  template <class T, class Out>
  static status read_typed(reader& r, Out& out, const peeked_head& h, typed_array& info) {
    // The byte string's head, looked at before anything is read so a full
    // buffer leaves the reader where it was.
    const uint8_t* bp = r.pos_ + h.size;
    if (bp != r.end_ && (*bp >> 5) == 2 && (*bp & 0x1f) < 28) {
      const unsigned ai = *bp & 0x1f;
      const size_t hs = ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24));
      if (size_t(r.end_ - bp) >= hs) {
        const uint64_t len = ai < 24 ? ai : load_be(bp + 1, unsigned(hs - 1));
        if (len <= size_t(r.end_ - bp - hs) && len % info.element_size == 0 &&
            !out.begin(len / info.element_size))
          return status::buffer_too_small;
      }
    }
    item tag;
    status s = r.next(tag);
    if (s != status::ok) return s;
    item bytes;
    s = r.next(bytes);
    if (s != status::ok) return s;
    if (bytes.type != item_type::byte_string || bytes.is_indefinite() ||
        bytes.count() % info.element_size != 0)
      return r.fail(status::type_mismatch, bytes.offset);
    info.bytes = bytes.bytes();
    info.offset = tag.offset;
    info.data_offset = bytes.offset + bytes.head_size;
    const size_t n = info.count();
    if (!out.begin(n)) return r.fail(status::buffer_too_small, bytes.offset);
    size_t bad = 0;
    const status cs = typed_convert(info, out.slots(), n, &bad);
    if (cs != status::ok)
      return r.fail(cs, cs == status::type_mismatch ? tag.offset
                                                    : info.data_offset + bad * info.element_size);
    out.done(n);
    return status::ok;
  }

  template <class T>
  static status read_buffer(reader& r, T* out, size_t capacity, size_t* count, bool wide) noexcept {
    if (count == nullptr || (out == nullptr && capacity != 0)) return status::invalid_argument;
    *count = 0;
    buffer_out<T> o{out, capacity, count};
    return read<T>(r, o, wide);
  }
  template <class T>
  static status read_vector(reader& r, std::vector<T>& v, bool wide) noexcept {
    try {
      vector_out<T> o{v};
      const status s = read<T>(r, o, wide);
      if (s != status::ok) v.clear();
      return s;
    } catch (const std::bad_alloc&) {
      v.clear();
      return r.fail(status::out_of_memory, r.offset());
    }
  }
};

status peek_next(reader& r, peeked_head& out) noexcept { return bulk_reader::peek(r, out); }
status bulk_fail(reader& r, status s, size_t offset) noexcept {
  return bulk_reader::fail(r, s, offset);
}

bool bulk_path_supported(bulk_path path) noexcept { return path != bulk_path::avx2 || wide_runs(); }
status read_array_on(bulk_path path, reader& r, uint64_t* out, size_t capacity,
                     size_t* count) noexcept {
  return bulk_reader::read_buffer(r, out, capacity, count, path == bulk_path::avx2 && wide_runs());
}
status read_array_on(bulk_path path, reader& r, int64_t* out, size_t capacity,
                     size_t* count) noexcept {
  return bulk_reader::read_buffer(r, out, capacity, count, path == bulk_path::avx2 && wide_runs());
}

}  // namespace detail

inline namespace v1 {

status reader::read_array(uint64_t* out, size_t capacity, size_t* count) noexcept {
  return detail::bulk_reader::read_buffer(*this, out, capacity, count, detail::wide_runs());
}
status reader::read_array(int64_t* out, size_t capacity, size_t* count) noexcept {
  return detail::bulk_reader::read_buffer(*this, out, capacity, count, detail::wide_runs());
}
status reader::read_array(double* out, size_t capacity, size_t* count) noexcept {
  return detail::bulk_reader::read_buffer(*this, out, capacity, count, detail::wide_runs());
}
status reader::read_array(std::vector<uint64_t>& out) noexcept {
  return detail::bulk_reader::read_vector(*this, out, detail::wide_runs());
}
status reader::read_array(std::vector<int64_t>& out) noexcept {
  return detail::bulk_reader::read_vector(*this, out, detail::wide_runs());
}
status reader::read_array(std::vector<double>& out) noexcept {
  return detail::bulk_reader::read_vector(*this, out, detail::wide_runs());
}

}  // namespace v1
}  // namespace cbor_fast
