// writer_fuzz: the input is a program of writer calls. A model of the
// writer's rules (definite counts, tags taking one item, chunks of
// indefinite strings, map pairs) predicts every call's status; whatever the
// writer accepted is read back by the reader as well-formed and with the
// values written (integers, bignums, strings, floats at the shortest exact or
// the forced width). Caller-buffer and sink writers must agree with the
// growable one.
//
// Input: mode byte (bits 0-1: 0 growable, 1 caller buffer of 4 * p bytes,
// 2 sink with chunk size p + 1 that fails after p - 32 calls when p >= 32,
// 3 growable then detach(); p = bits 2-7), then operations, one byte each
// (value % 24) followed by its arguments (see run()).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"
#include "fuzz_util.hpp"

using cbor_fast::float_width;
using cbor_fast::item_type;
using cbor_fast::status;

namespace {

using namespace cbor_fast_fuzz;

/// Arguments are read from here; past the end every byte is 0.
struct cursor {
  const uint8_t* p;
  const uint8_t* end;
  bool done() const { return p == end; }
  uint8_t byte() { return p != end ? *p++ : 0; }
  /// 0..8 big-endian bytes, the count given by a first byte.
  uint64_t u64() {
    const unsigned n = byte() % 9;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v = v << 8 | byte();
    return v;
  }
  std::string bytes(size_t n) {
    const size_t avail = size_t(end - p);
    if (n > avail) n = avail;
    std::string s(reinterpret_cast<const char*>(p), n);
    p += n;
    return s;
  }
};

/// An item the reader should see.
struct expected {
  item_type type = item_type::none;
  uint8_t flags = 0;
  uint64_t arg = 0;  ///< floats: see float_* below
  std::string bytes;
  // Floats: the width on the wire and the widened bits, or any NaN.
  uint32_t width = 0;
  uint64_t bits = 0;
  bool any_nan = false;
};

expected make(item_type type, uint8_t flags = 0, uint64_t arg = 0) {
  expected e;
  e.type = type;
  e.flags = flags;
  e.arg = arg;
  return e;
}

/// A value rounded to binary16 (nearest, ties to even), as a double; written
/// without the library's conversions.
double round_to_half(double v) {
  if (std::isnan(v) || std::isinf(v)) return v;
  const double a = std::fabs(v);
  if (a >= 65520.0) return std::copysign(INFINITY, v);
  if (a < std::ldexp(1.0, -14))
    return std::nearbyint(v * std::ldexp(1.0, 24)) * std::ldexp(1.0, -24);
  int x = 0;
  std::frexp(a, &x);  // a = m * 2^x, m in [0.5, 1)
  const double quantum = std::ldexp(1.0, x - 11);
  return std::nearbyint(v / quantum) * quantum;
}

bool fits_half(double v) {
  if (std::isnan(v)) return (double_bits(v) & ((uint64_t(1) << 42) - 1)) == 0;
  return double_bits(round_to_half(v)) == double_bits(v);
}
bool fits_single(double v) {
  if (std::isnan(v)) return (double_bits(v) & ((uint64_t(1) << 29) - 1)) == 0;
  return double_bits(double(float(v))) == double_bits(v);
}

expected float_expectation(double v, float_width w) {
  expected e = make(item_type::floating);
  if (w == float_width::shortest) {
    e.width = fits_half(v) ? 2 : fits_single(v) ? 4 : 8;
    e.bits = double_bits(v);
  } else if (w == float_width::double_) {
    e.width = 8;
    e.bits = double_bits(v);
  } else {
    e.width = w == float_width::half ? 2 : 4;
    e.any_nan = std::isnan(v);
    e.bits = double_bits(w == float_width::half ? round_to_half(v) : double(float(v)));
  }
  return e;
}

/// The model: what is open, and the sticky error.
struct frame {
  char kind;  ///< 'a' array, 'm' map, 'B' bytes / 'T' text (indefinite), 't' tag
  bool indefinite;
  uint64_t left;  ///< definite: items still due (maps: 2 * pairs); tags: 1 until content starts
  uint64_t seen;
};

struct model {
  std::vector<frame> stack;
  status sticky = status::ok;

  /// Status of starting an item; chunk_kind is 'B' or 'T' for a definite
  /// string that may be a chunk, 0 otherwise.
  status before(char chunk_kind) const {
    if (sticky != status::ok) return sticky;
    if (stack.empty()) return status::ok;
    const frame& f = stack.back();
    if (f.kind == 'B' || f.kind == 'T')
      return chunk_kind == f.kind ? status::ok : status::writer_bad_chunk;
    if (!f.indefinite && f.left == 0) return status::writer_count_mismatch;
    return status::ok;
  }
  /// An item started (counted in its parent).
  void start() {
    if (stack.empty()) return;
    frame& f = stack.back();
    if (f.indefinite) {
      ++f.seen;
    } else {
      --f.left;
    }
  }
  /// An item completed: tags waiting for it complete too.
  void complete() {
    while (!stack.empty() && stack.back().kind == 't' && stack.back().left == 0) stack.pop_back();
  }
  status end_status() const {
    if (sticky != status::ok) return sticky;
    if (stack.empty()) return status::writer_no_container;
    const frame& f = stack.back();
    if (f.kind == 't') return status::writer_count_mismatch;
    if (!f.indefinite && f.left != 0) return status::writer_count_mismatch;
    if (f.kind == 'm' && f.indefinite && f.seen % 2 != 0) return status::writer_odd_map;
    return status::ok;
  }
};

enum class mode { owned, fixed, sink, detach };

struct sink_state {
  std::vector<uint8_t> bytes;
  long fail_after = -1;  ///< calls that succeed before one fails; < 0: never fails
  bool failed = false;
};

int sink_cb(void* ctx, const uint8_t* data, size_t size) {
  auto* s = static_cast<sink_state*>(ctx);
  FUZZ_CHECK(!s->failed);  // a failed sink is never called again
  if (s->fail_after == 0) {
    s->failed = true;
    return 1;
  }
  if (s->fail_after > 0) --s->fail_after;
  s->bytes.insert(s->bytes.end(), data, data + size);
  return 0;
}

struct run_result {
  status final = status::ok;
  std::vector<uint8_t> bytes;   ///< when final is ok
  size_t size = 0;              ///< writer size() at the end
  std::vector<uint8_t> prefix;  ///< fixed buffer: bytes written before the first overflow
  bool sink_failed = false;
};

/// Runs the program with one writer, checking each status against the model.
run_result run(const uint8_t* program, size_t program_size, mode m, unsigned param) {
  std::vector<uint8_t> buffer;
  size_t capacity = 0;
  sink_state sink;
  cbor_fast::writer w;
  if (m == mode::fixed) {
    capacity = 4 * size_t(param);
    buffer.assign(capacity + 16, 0xee);
    w = cbor_fast::writer(buffer.data(), capacity);
  } else if (m == mode::sink) {
    if (param >= 32) sink.fail_after = long(param - 32);
    w = cbor_fast::writer(sink_cb, &sink, size_t(param) + 1);
  }

  model mo;
  std::vector<expected> expect;
  run_result res;
  bool overflowed = false;
  cursor in{program, program + program_size};
  while (!in.done()) {
    const unsigned op = in.byte() % 24u;
    const size_t size_before = w.size();
    const bool sink_failed_before = sink.failed;
    status want = status::ok;  // the model's prediction
    status got;
    std::vector<expected> items;  // what the call adds if accepted
    char chunk_kind = 0;
    bool opens = false;
    frame opened{};
    bool closes = false;
    switch (op) {
      case 0: {
        const uint64_t v = in.u64();
        got = w.write_uint(v);
        items.push_back(make(item_type::unsigned_int, 0, v));
        break;
      }
      case 1: {
        const auto v = int64_t(in.u64());
        got = w.write_int(v);
        if (v >= 0)
          items.push_back(make(item_type::unsigned_int, 0, uint64_t(v)));
        else
          items.push_back(make(item_type::negative_int, 0, ~uint64_t(v)));
        break;
      }
      case 2: {
        const uint64_t n = in.u64();
        got = w.write_negative(n);
        items.push_back(make(item_type::negative_int, 0, n));
        break;
      }
      case 3: {
        const uint8_t b = in.byte();
        const bool negative = (b & 16) != 0;
        const std::string mag = in.bytes(b & 15u);
        got = w.write_bignum(reinterpret_cast<const uint8_t*>(mag.data()), mag.size(), negative);
        size_t skip = 0;
        while (skip < mag.size() && mag[skip] == '\0') ++skip;
        const std::string stripped = mag.substr(skip);
        if (stripped.size() <= 8) {
          const uint64_t v =
              load_be(reinterpret_cast<const uint8_t*>(stripped.data()), stripped.size());
          items.push_back(make(negative ? item_type::negative_int : item_type::unsigned_int, 0, v));
        } else {
          items.push_back(make(item_type::tag, 0, negative ? 3u : 2u));
          expected bytes = make(item_type::byte_string, 0, stripped.size());
          bytes.bytes = stripped;
          items.push_back(bytes);
        }
        break;
      }
      case 4:
      case 5: {
        const std::string s = in.bytes(in.byte() % 64u);
        got = op == 4 ? w.write_bytes(s.data(), s.size()) : w.write_text(s);
        expected e = make(op == 4 ? item_type::byte_string : item_type::text_string, 0, s.size());
        e.bytes = s;
        items.push_back(e);
        chunk_kind = op == 4 ? 'B' : 'T';
        break;
      }
      case 6: {
        const uint64_t tag = in.u64();
        got = w.write_tag(tag);
        items.push_back(make(item_type::tag, 0, tag));
        opens = true;
        opened = {'t', false, 1, 0};
        break;
      }
      case 7: {
        const bool b = (in.byte() & 1) != 0;
        got = w.write_bool(b);
        items.push_back(make(item_type::boolean, 0, b ? 21u : 20u));
        break;
      }
      case 8:
        got = w.write_null();
        items.push_back(make(item_type::null, 0, 22));
        break;
      case 9:
        got = w.write_undefined();
        items.push_back(make(item_type::undefined, 0, 23));
        break;
      case 10: {
        const uint8_t v = in.byte();
        got = w.write_simple(v);
        const item_type t = v == 20 || v == 21 ? item_type::boolean
                            : v == 22          ? item_type::null
                            : v == 23          ? item_type::undefined
                                               : item_type::simple;
        items.push_back(make(t, 0, v));
        if (v >= 24 && v <= 31) want = status::invalid_argument;
        break;
      }
      case 11:
      case 12:
      case 13: {
        // A double from 8 bytes, or a half / single value widened (these hit
        // the shortest-width choice far more often).
        uint64_t bits = 0;
        if (op == 11) {
          for (int i = 0; i < 8; ++i) bits = bits << 8 | in.byte();
        } else if (op == 12) {
          bits = widen_wire_float(uint64_t(in.byte()) << 8 | in.byte(), 2);
        } else {
          uint64_t b = 0;
          for (int i = 0; i < 4; ++i) b = b << 8 | in.byte();
          bits = widen_wire_float(b, 4);
        }
        static const float_width widths[4] = {float_width::shortest, float_width::half,
                                              float_width::single, float_width::double_};
        const float_width fw = widths[in.byte() % 4];
        const double v = bits_double(bits);
        got = w.write_float(v, fw);
        items.push_back(float_expectation(v, fw));
        break;
      }
      case 14:
      case 16: {
        const uint64_t n = in.byte();
        got = op == 14 ? w.begin_array(n) : w.begin_map(n);
        items.push_back(make(op == 14 ? item_type::array : item_type::map, 0, n));
        opens = true;
        opened = {op == 14 ? 'a' : 'm', false, op == 14 ? n : 2 * n, 0};
        break;
      }
      case 15:
      case 17:
        got = op == 15 ? w.begin_array_indefinite() : w.begin_map_indefinite();
        items.push_back(make(op == 15 ? item_type::array : item_type::map, 1, 0));
        opens = true;
        opened = {op == 15 ? 'a' : 'm', true, 0, 0};
        break;
      case 18:
      case 19:
        got = op == 18 ? w.begin_bytes_indefinite() : w.begin_text_indefinite();
        items.push_back(make(op == 18 ? item_type::byte_string : item_type::text_string, 1, 0));
        opens = true;
        opened = {op == 18 ? 'B' : 'T', true, 0, 0};
        break;
      default: {
        got = w.end();
        closes = true;
        const bool indefinite = !mo.stack.empty() && mo.stack.back().indefinite;
        items.push_back(make(item_type::end, uint8_t(indefinite ? 3 : 0), 0));
        break;
      }
    }

    // The model's prediction: argument errors, then structure.
    const status structural = closes ? mo.end_status() : mo.before(chunk_kind);
    if (want == status::invalid_argument && structural != status::ok) {
      // Argument check or structure first: either order is reasonable.
      FUZZ_CHECK(got == status::invalid_argument || got == structural);
      FUZZ_CHECK(w.size() == size_before);
      if (got == structural) mo.sticky = got;
      continue;
    }
    if (want == status::ok) want = structural;
    if (want == status::ok && m == mode::fixed && w.size() > capacity)
      want = status::buffer_too_small;
    // A sink that failed during this call makes it fail; afterwards sticky.
    if (m == mode::sink && sink.failed && !sink_failed_before) {
      FUZZ_CHECK(want == status::ok);
      want = status::sink_failed;
    }
    if (got != want) {
      std::fprintf(stderr, "op %u at input offset %zu: writer says %s, model says %s\n", op,
                   size_t(in.p - program), cbor_fast::status_name(got),
                   cbor_fast::status_name(want));
      FUZZ_CHECK(got == want);
    }
    // (A failed sink drops the bytes it was handed, so size() may shrink then.)
    FUZZ_CHECK(w.size() >= size_before || want == status::sink_failed);
    if (want != status::ok && want != status::buffer_too_small) {
      FUZZ_CHECK(w.size() == size_before || want == status::sink_failed);
      if (want != status::invalid_argument) mo.sticky = want;
      continue;
    }
    if (want == status::buffer_too_small && !overflowed) {
      overflowed = true;
      res.prefix.assign(buffer.begin(), buffer.begin() + long(size_before));
    }
    FUZZ_CHECK(w.error() == (overflowed ? status::buffer_too_small : status::ok));

    // Accepted: the model moves on.
    expect.insert(expect.end(), items.begin(), items.end());
    if (closes) {
      mo.stack.pop_back();
      mo.complete();
    } else {
      mo.start();
      if (opens) {
        mo.stack.push_back(opened);
      } else {
        mo.complete();
      }
    }
    FUZZ_CHECK(w.depth() == mo.stack.size());
  }

  status want = mo.sticky != status::ok ? mo.sticky
                : !mo.stack.empty()     ? status::writer_unclosed
                : overflowed            ? status::buffer_too_small
                                        : status::ok;
  const bool sink_failed_before = sink.failed;
  const status got = w.finish();
  if (m == mode::sink && sink.failed && !sink_failed_before && want == status::ok)
    want = status::sink_failed;
  if (got != want) {
    std::fprintf(stderr, "finish: writer says %s, model says %s\n", cbor_fast::status_name(got),
                 cbor_fast::status_name(want));
    FUZZ_CHECK(got == want);
  }
  res.final = got;
  res.size = w.size();
  res.sink_failed = sink.failed;
  if (m == mode::fixed) {
    for (size_t i = capacity; i < buffer.size(); ++i) FUZZ_CHECK(buffer[i] == 0xee);
  }
  if (got != status::ok) return res;

  switch (m) {
    case mode::owned:
      res.bytes = w.to_vector();
      FUZZ_CHECK(res.bytes.size() == w.size());
      break;
    case mode::fixed:
      res.bytes.assign(buffer.begin(), buffer.begin() + long(w.size()));
      FUZZ_CHECK(w.data() == buffer.data());
      break;
    case mode::sink:
      res.bytes = sink.bytes;
      FUZZ_CHECK(res.bytes.size() == w.size());
      break;
    case mode::detach: {
      size_t n = 0, cap = 0;
      const size_t total = w.size();
      uint8_t* p = w.detach(&n, &cap);
      FUZZ_CHECK(n == total && (p != nullptr || n == 0) && cap >= n);
      if (p != nullptr) {
        res.bytes.assign(p, p + n);
        const cbor_fast::allocator& a = cbor_fast::default_allocator();
        a.free(a.context, p, cap);
      }
      // Fresh again: one more document.
      FUZZ_CHECK(w.size() == 0 && w.depth() == 0 && w.error() == status::ok);
      FUZZ_CHECK(w.write_uint(500) == status::ok && w.finish() == status::ok);
      FUZZ_CHECK(w.size() == 3 && w.data()[0] == 0x19 && w.data()[1] == 0x01 &&
                 w.data()[2] == 0xf4);
      break;
    }
  }

  // ---- read back ----
  cbor_fast::reader r(res.bytes.data(), res.bytes.size(), unlimited());
  cbor_fast::item it;
  size_t i = 0;
  status s;
  while ((s = r.next(it)) == status::ok) {
    FUZZ_CHECK(i < expect.size());
    const expected& e = expect[i];
    if (it.type != e.type || it.flags != e.flags) {
      std::fprintf(stderr, "item %zu at %zu: type %d flags %d, expected type %d flags %d\n", i,
                   it.offset, int(it.type), int(it.flags), int(e.type), int(e.flags));
      FUZZ_FAIL("read back a different item");
    }
    if (it.type == item_type::floating) {
      FUZZ_CHECK(it.width == e.width);
      if (e.any_nan) {
        FUZZ_CHECK(std::isnan(it.float_value()));
      } else if (double_bits(it.float_value()) != e.bits) {
        std::fprintf(stderr, "float at %zu: read %a (width %u), expected %a\n", it.offset,
                     it.float_value(), unsigned(it.width), bits_double(e.bits));
        FUZZ_FAIL("float read back differs");
      }
    } else if (it.type != item_type::end) {
      FUZZ_CHECK(it.arg == e.arg);
      if ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
          !it.is_indefinite())
        FUZZ_CHECK(it.text() == e.bytes);
    }
    ++i;
  }
  FUZZ_CHECK(s == status::end && i == expect.size() && r.finish() == status::ok);
  return res;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto m = mode(data[0] & 3);
  const unsigned param = data[0] >> 2;
  const run_result got = run(data + 1, size - 1, m, param);
  if (m == mode::owned) return 0;

  // The growable writer is the reference for the other destinations.
  const run_result ref = run(data + 1, size - 1, mode::owned, 0);
  if (m == mode::fixed && got.final == status::buffer_too_small) {
    FUZZ_CHECK(ref.final == status::ok && ref.size == got.size);
    FUZZ_CHECK(std::equal(got.prefix.begin(), got.prefix.end(), ref.bytes.begin()));
  } else if (m == mode::sink && got.sink_failed) {
    FUZZ_CHECK(got.final == status::sink_failed || got.final == ref.final);
  } else {
    FUZZ_CHECK(got.final == ref.final);
    if (got.final == status::ok) FUZZ_CHECK(got.bytes == ref.bytes);
  }
  return 0;
}
