// Differential test: the C API document path against the C++ pull reader.
//
// cbor_decode() builds its node array with a fused decoder and falls back to
// a reader-driven one for anything unusual; cbor_encode() writes the nodes
// back. Both must agree with the reader item for item: type, depth, offset,
// integer, float value bits and width, string bytes (without COPY_STRINGS the
// very same input address), container sizes, tag numbers, simple values, the
// node count and, for ENCODE_NONE, the input bytes. Inputs: the corpus, a few
// thousand generated values (every major type and head size, indefinite
// forms, NaN payloads, nesting to depth 8), and corrupted encodings whose
// status and error offset must be the reader's for the first item.
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cbor_fast.h"
#include "conformance/test_util.hpp"
#include "corpus.hpp"

namespace {

using namespace cbor_fast_test;
using cbor_fast::byte_view;

struct doc_free {
  void operator()(cbor_doc* d) const { cbor_doc_free(d); }
};
struct writer_free {
  void operator()(cbor_writer* w) const { cbor_writer_free(w); }
};
using doc_ptr = std::unique_ptr<cbor_doc, doc_free>;

/// One data item (no end items, no string chunks) as either side reports it.
struct rec {
  int type = 0;
  bool indefinite = false;
  uint32_t depth = 0;
  size_t offset = 0;
  /// Integer n, tag number, simple value, array items / map pairs, string
  /// length, or the bits of the float widened to double.
  uint64_t arg = 0;
  uint32_t width = 0;             ///< floats
  const uint8_t* data = nullptr;  ///< strings, unless has_joined
  bool has_joined = false;        ///< reader side: an indefinite string's chunks, joined
  std::string joined;

  byte_view content() const {
    return has_joined ? byte_view{reinterpret_cast<const uint8_t*>(joined.data()), joined.size()}
                      : byte_view{data, size_t(arg)};
  }
  std::string str() const {
    return "type " + std::to_string(type) + (indefinite ? " indef" : "") + " depth " +
           std::to_string(depth) + " offset " + std::to_string(offset) + " arg " + to_hex_u64(arg) +
           " width " + std::to_string(width);
  }
};

const char* name(int s) { return cbor_status_name(static_cast<cbor_fast_status>(s)); }

// ---- the C side ---------------------------------------------------------------

/// Fills r from one node through the C getters; false (and a failure) if a getter fails.
bool describe(const cbor_node* n, uint32_t depth, rec& r) {
  r.type = cbor_node_type(n);
  r.indefinite = cbor_node_is_indefinite(n) != 0;
  r.depth = depth;
  r.offset = cbor_node_offset(n);
  cbor_fast_status s = CBOR_FAST_OK;
  uint64_t raw = 0;
  const uint8_t* magnitude = nullptr;
  size_t size = 0;
  int negative = -1;
  switch (r.type) {
    case CBOR_FAST_TYPE_UINT:
    case CBOR_FAST_TYPE_NEGATIVE:
      s = cbor_node_get_int_raw(n, &r.arg, &negative);
      if (s == CBOR_FAST_OK && negative != (r.type == CBOR_FAST_TYPE_NEGATIVE ? 1 : 0))
        s = CBOR_FAST_ERR_INTERNAL;
      if (s == CBOR_FAST_OK &&
          (cbor_node_get_bignum(n, &raw, &magnitude, &size, &negative) != CBOR_FAST_OK ||
           raw != r.arg || magnitude != nullptr))
        s = CBOR_FAST_ERR_INTERNAL;
      break;
    case CBOR_FAST_TYPE_BYTES:
      s = cbor_node_get_bytes(n, &r.data, &size);
      r.arg = size;
      break;
    case CBOR_FAST_TYPE_TEXT: {
      const char* d = nullptr;
      s = cbor_node_get_text(n, &d, &size);
      r.data = reinterpret_cast<const uint8_t*>(d);
      r.arg = size;
      break;
    }
    case CBOR_FAST_TYPE_ARRAY:
    case CBOR_FAST_TYPE_MAP: r.arg = cbor_node_size(n); break;
    case CBOR_FAST_TYPE_TAG: {
      s = cbor_node_get_tag(n, &r.arg);
      const cbor_node* c = cbor_node_tag_content(n);
      if (s == CBOR_FAST_OK && (r.arg == 2 || r.arg == 3) &&
          cbor_node_type(c) == CBOR_FAST_TYPE_BYTES) {
        // A bignum: the magnitude is the content's own view.
        const uint8_t* d = nullptr;
        size_t dsize = 0;
        if (cbor_node_get_bytes(c, &d, &dsize) != CBOR_FAST_OK ||
            cbor_node_get_bignum(n, &raw, &magnitude, &size, &negative) != CBOR_FAST_OK ||
            raw != 0 || magnitude != d || size != dsize || negative != (r.arg == 3 ? 1 : 0))
          s = CBOR_FAST_ERR_INTERNAL;
      }
      break;
    }
    case CBOR_FAST_TYPE_SIMPLE:
    case CBOR_FAST_TYPE_BOOL:
    case CBOR_FAST_TYPE_NULL:
    case CBOR_FAST_TYPE_UNDEFINED: {
      uint8_t v = 0;
      s = cbor_node_get_simple(n, &v);
      r.arg = v;
      int b = -1;
      if (s == CBOR_FAST_OK && r.type == CBOR_FAST_TYPE_BOOL &&
          (cbor_node_get_bool(n, &b) != CBOR_FAST_OK || b != (v == 21 ? 1 : 0)))
        s = CBOR_FAST_ERR_INTERNAL;
      break;
    }
    case CBOR_FAST_TYPE_FLOAT: {
      double d = 0;
      s = cbor_node_get_double(n, &d);
      r.arg = double_bits(d);
      r.width = cbor_node_float_width(n);
      break;
    }
    default: s = CBOR_FAST_ERR_INTERNAL; break;
  }
  if (s != CBOR_FAST_OK) ADD_FAILURE() << "C getters disagree on node " << r.str();
  return s == CBOR_FAST_OK;
}

/// Preorder walk of a C document with cbor_node_child / cbor_node_next and an
/// explicit stack; every container must yield exactly its size in children.
bool flatten_doc(const cbor_doc* doc, std::vector<rec>& out) {
  struct frame {
    const cbor_node* next;
    uint64_t due;
    uint64_t seen;
  };
  std::vector<frame> stack;
  const cbor_node* n = cbor_doc_root(doc);
  if (n == nullptr || cbor_node_next(n) != nullptr) {
    ADD_FAILURE() << "root missing or with a sibling";
    return false;
  }
  for (;;) {
    rec r;
    if (!describe(n, uint32_t(stack.size()), r)) return false;
    const cbor_node* child = cbor_node_child(n);
    if (r.type == CBOR_FAST_TYPE_ARRAY || r.type == CBOR_FAST_TYPE_MAP ||
        r.type == CBOR_FAST_TYPE_TAG) {
      if (r.type == CBOR_FAST_TYPE_TAG && child != cbor_node_tag_content(n)) {
        ADD_FAILURE() << "tag child is not its content: " << r.str();
        return false;
      }
      stack.push_back({child,
                       r.type == CBOR_FAST_TYPE_TAG   ? 1
                       : r.type == CBOR_FAST_TYPE_MAP ? 2 * r.arg
                                                      : r.arg,
                       0});
    } else if (child != nullptr) {
      ADD_FAILURE() << "scalar node with a child: " << r.str();
      return false;
    }
    out.push_back(std::move(r));
    n = nullptr;
    while (n == nullptr && !stack.empty()) {
      frame& f = stack.back();
      if (f.next == nullptr) {
        if (f.seen != f.due) {
          ADD_FAILURE() << "container with " << f.seen << " of " << f.due << " children";
          return false;
        }
        stack.pop_back();
      } else if (f.seen == f.due) {
        ADD_FAILURE() << "container with more than its " << f.due << " children";
        return false;
      } else {
        n = f.next;
        f.next = cbor_node_next(n);
        ++f.seen;
      }
    }
    if (n == nullptr) return true;
  }
}

cbor_fast_status encode_to(const cbor_doc* doc, uint32_t flags, bytes& out) {
  cbor_writer* raw = nullptr;
  cbor_fast_status s = cbor_writer_new(nullptr, &raw);
  if (s != CBOR_FAST_OK) return s;
  std::unique_ptr<cbor_writer, writer_free> w(raw);
  s = cbor_encode(doc, flags, w.get());
  if (s != CBOR_FAST_OK) return s;
  const uint8_t* data = nullptr;
  size_t size = 0;
  s = cbor_writer_finish(w.get(), &data, &size);
  if (s == CBOR_FAST_OK) out.assign(data, data + size);
  return s;
}

// ---- the reader side ------------------------------------------------------------

/// What the reader makes of the first top-level item of an input.
struct first_item {
  status s = status::ok;  ///< ok, end, or the reader's error
  cbor_fast::error_info error;
  size_t consumed = 0;         ///< offset just past the item (s == ok)
  status finish = status::ok;  ///< reader.finish() right after it
  std::vector<rec> recs;
};

first_item read_first(const uint8_t* data, size_t size) {
  first_item out;
  cbor_fast::reader r(data, size);
  struct frame {
    size_t index;
    uint64_t children;
    bool string;
    bool tag;
  };
  std::vector<frame> stack;
  item it;
  for (;;) {
    out.s = r.next(it);
    if (out.s != status::ok) {
      out.error = r.error();
      return out;
    }
    if (it.type == item_type::end) {
      const frame f = stack.back();
      stack.pop_back();
      rec& c = out.recs[f.index];
      if (f.string) {
        c.arg = c.joined.size();
      } else if (c.indefinite) {
        c.arg = c.type == int(item_type::map) ? f.children / 2 : f.children;
      }
    } else if (!stack.empty() && stack.back().string) {
      out.recs[stack.back().index].joined.append(it.text());  // a chunk
      continue;
    } else {
      if (!stack.empty()) ++stack.back().children;
      const size_t index = out.recs.size();
      rec c;
      c.type = int(it.type);
      c.indefinite = it.is_indefinite();
      c.depth = it.depth;
      c.offset = it.offset;
      c.arg = it.arg;
      bool opened = true;
      switch (it.type) {
        case item_type::byte_string:
        case item_type::text_string:
          if (c.indefinite) {
            c.has_joined = true;
            stack.push_back({index, 0, true, false});
          } else {
            c.data = it.u.data;
            opened = false;
          }
          break;
        case item_type::array:
        case item_type::map: stack.push_back({index, 0, false, false}); break;
        case item_type::tag: stack.push_back({index, 0, false, true}); break;
        case item_type::floating:
          c.arg = double_bits(it.float_value());
          c.width = it.width;
          opened = false;
          break;
        default: opened = false; break;
      }
      out.recs.push_back(std::move(c));
      if (opened) continue;
    }
    // An item is complete: so is every tag whose content it was.
    while (!stack.empty() && stack.back().tag && stack.back().children == 1) stack.pop_back();
    if (stack.empty()) break;
  }
  out.consumed = r.offset();
  out.finish = r.finish();
  return out;
}

// ---- comparison ---------------------------------------------------------------------

enum class mode {
  borrowed,  ///< C strings must be the reader's views into the input
  copied,    ///< C strings must live outside the input
  values,    ///< two encodings of the same values: no offsets, forms or widths
};

/// Compares the C records `c` with `r`; reports the first few differences.
void compare(const std::vector<rec>& c, const std::vector<rec>& r, mode m, const uint8_t* input,
             size_t size, const std::string& what) {
  ASSERT_EQ(c.size(), r.size()) << what << ": item counts differ";
  int reported = 0;
  for (size_t i = 0; i < c.size() && reported < 5; ++i) {
    const rec& a = c[i];
    const rec& b = r[i];
    std::string why;
    if (a.type != b.type || a.depth != b.depth || a.arg != b.arg) why = "value";
    if (m != mode::values &&
        (a.offset != b.offset || a.indefinite != b.indefinite || a.width != b.width))
      why = "offset, form or width";
    const bool is_string = a.type == CBOR_FAST_TYPE_BYTES || a.type == CBOR_FAST_TYPE_TEXT;
    if (why.empty() && is_string) {
      if (a.content() != b.content()) why = "string content";
      const bool in_input = a.data >= input && a.data < input + size;
      if (m == mode::borrowed && !a.indefinite && a.data != b.data)
        why = "string view is not the reader's";
      if (m == mode::copied && in_input) why = "copied string points into the input";
    }
    if (!why.empty()) {
      ++reported;
      ADD_FAILURE() << what << ": item #" << i << " " << why << "\n  C:      " << a.str()
                    << "\n  reader: " << b.str();
    }
  }
}

struct decoded {
  doc_ptr doc;
  std::vector<rec> recs;
};

/// cbor_decode(EXACT | extra) of an input the reader read completely (ref);
/// checks the document against the reader and that ENCODE_NONE gives the input back.
decoded decode_and_check(const exact_buffer& in, uint32_t extra, const first_item& ref,
                         const std::string& what) {
  decoded out;
  cbor_doc* raw = nullptr;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status s =
      cbor_decode(in.data(), in.size(), CBOR_FAST_DECODE_EXACT | extra, nullptr, &raw, &err);
  out.doc.reset(raw);
  EXPECT_EQ(s, CBOR_FAST_OK) << what << ": " << name(s) << " at " << err.offset;
  if (s != CBOR_FAST_OK) return out;
  EXPECT_EQ(err.code, CBOR_FAST_OK) << what;
  EXPECT_EQ(cbor_doc_encoded_size(raw), in.size()) << what;
  EXPECT_EQ(cbor_doc_node_count(raw), ref.recs.size()) << what;
  if (!flatten_doc(raw, out.recs)) return out;
  compare(out.recs, ref.recs,
          (extra & CBOR_FAST_DECODE_COPY_STRINGS) != 0 ? mode::copied : mode::borrowed, in.data(),
          in.size(), what);
  bytes again;
  EXPECT_EQ(encode_to(raw, CBOR_FAST_ENCODE_NONE, again), CBOR_FAST_OK) << what;
  const bytes input(in.data(), in.data() + in.size());
  if (again != input) {
    size_t at = 0;
    while (at < again.size() && at < input.size() && again[at] == input[at]) ++at;
    ADD_FAILURE() << what << ": ENCODE_NONE gives " << again.size()
                  << " bytes, first difference at " << at
                  << (input.size() <= 4096 ? "\n  out: " + to_hex(again) : std::string());
  }
  return out;
}

// ---- generated values -------------------------------------------------------------

constexpr int k_generated = 3000;
constexpr int k_max_depth = 8;
const uint64_t k_boundaries[] = {
    0, 1, 23, 24, 255, 256, 65535, 65536, 0xffffffffu, uint64_t(1) << 32, UINT64_MAX};

/// Random values through the C++ writer: every major type, every head size,
/// bignums, floats of each width (specials, subnormals, NaN payloads),
/// definite and indefinite strings, arrays and maps, tags, simple values.
class value_generator {
 public:
  explicit value_generator(uint64_t seed) : rng_(seed) {}

  bytes next() {
    cbor_fast::writer w;
    budget_ = 1 + int(below(48));
    value(w, 0);
    EXPECT_STATUS(w.finish(), status::ok);
    return w.to_vector();
  }

 private:
  uint64_t below(uint64_t n) { return rng_() % n; }
  uint64_t integer() {
    if (below(2) == 0) return k_boundaries[below(sizeof k_boundaries / sizeof *k_boundaries)];
    return rng_() >> below(64);
  }
  std::string text(size_t size) {
    static const size_t k_sizes[] = {0, 1, 5, 23, 24, 25, 255, 256};
    if (size == SIZE_MAX) size = k_sizes[below(below(4) == 0 ? 8 : 6)];
    std::string s(size, '\0');
    for (char& ch : s) ch = char(below(4) == 0 ? below(256) : 'a' + below(26));
    return s;
  }
  void write_float(cbor_fast::writer& w) {
    static const double k_special[] = {
        0.0,          -0.0,          HUGE_VAL, -HUGE_VAL,
        std::nan(""), -std::nan(""), 5e-324,   0x1p-24,
        0x1p-149,     0x1p-1022,     65504.0,  65505.0,
        1.0,          -2.5,          1e300,    3.4028234663852886e38};
    using cbor_fast::float_width;
    const float_width widths[] = {float_width::shortest, float_width::half, float_width::single,
                                  float_width::double_};
    switch (below(4)) {
      case 0:
        w.write_float(k_special[below(sizeof k_special / sizeof *k_special)], widths[below(4)]);
        break;
      case 1: {  // random wire bits of one width, so NaN payloads and subnormals occur
        const uint64_t bits = rng_();
        const uint64_t pick = below(3);
        if (pick == 0) w.write_float(half_value(uint16_t(bits)), float_width::half);
        if (pick == 1) w.write_float(single_value(uint32_t(bits)), float_width::single);
        if (pick == 2) w.write_float(bits_double(bits), float_width::double_);
        break;
      }
      case 2: {  // a NaN with a random payload (signalling ones too)
        const uint64_t m = rng_() | 1;
        const uint64_t pick = below(3);
        const bool neg = below(2) == 0;
        if (pick == 0) w.write_float(widened_nan(neg, m & 0x3ff, 42), float_width::half);
        if (pick == 1) w.write_float(widened_nan(neg, m & 0x7fffff, 29), float_width::single);
        if (pick == 2)
          w.write_float(widened_nan(neg, m & 0xfffffffffffffu, 0), float_width::double_);
        break;
      }
      default: w.write_float(bits_double(rng_())); break;
    }
  }

  void value(cbor_fast::writer& w, int depth) {
    --budget_;
    const bool nest = depth < k_max_depth && budget_ > 0 && below(4) < (depth == 0 ? 3u : 2u);
    switch (nest ? 9 + below(5) : below(9)) {
      case 0: w.write_uint(integer()); break;
      case 1: w.write_negative(integer()); break;
      case 2: w.write_int(int64_t(rng_())); break;
      case 3: {
        const std::string m = text(below(20));
        w.write_bignum(reinterpret_cast<const uint8_t*>(m.data()), m.size(), below(2) == 0);
        break;
      }
      case 4: write_float(w); break;
      case 5: {
        const std::string b = text(SIZE_MAX);
        w.write_bytes(b.data(), b.size());
        break;
      }
      case 6: w.write_text(text(SIZE_MAX)); break;
      case 7: {
        // Mostly false/true/null/undefined, some one-byte and two-byte simple values.
        const uint64_t v = below(12) == 0  ? below(20)
                           : below(5) == 0 ? 32 + below(224)
                                           : 20 + below(4);
        w.write_simple(uint8_t(v));
        break;
      }
      case 8: {
        const bool is_text = below(2) == 0;
        is_text ? w.begin_text_indefinite() : w.begin_bytes_indefinite();
        for (uint64_t i = below(4); i != 0; --i) {
          const std::string chunk = text(below(3) == 0 ? 0 : below(3) == 0 ? 24 : 1 + below(9));
          is_text ? w.write_text(chunk) : w.write_bytes(chunk.data(), chunk.size());
        }
        w.end();
        break;
      }
      case 9:
      case 10: {
        const uint64_t n = below(5);
        below(2) == 0 ? w.begin_array(n) : w.begin_array_indefinite();
        for (uint64_t i = 0; i < n; ++i) value(w, depth + 1);
        w.end();
        break;
      }
      case 11:
      case 12: {
        const uint64_t n = below(4);
        below(2) == 0 ? w.begin_map(n) : w.begin_map_indefinite();
        for (uint64_t i = 0; i < 2 * n; ++i) value(w, depth + 1);
        w.end();
        break;
      }
      default:
        w.write_tag(integer());
        value(w, depth + 1);
        break;
    }
  }

  std::mt19937_64 rng_;
  int budget_ = 0;
};

std::vector<bytes> generated() {
  value_generator g(0xc0ffee5eedULL);
  std::vector<bytes> out;
  for (int i = 0; i < k_generated; ++i) out.push_back(g.next());
  return out;
}

// ---- the tests --------------------------------------------------------------------

TEST(CapiDifferential, CorpusMatchesReader) {
  const std::pair<const char*, size_t> files[] = {
      {"twitter", 27259}, {"citm_catalog", 63647}, {"canada", 167187}};
  for (const auto& file : files) {
    const std::string path = cbor_fast_test::corpus_path(file.first);
    bytes raw;
    ASSERT_TRUE(cbor_fast_test::read_file(path, raw)) << "corpus file missing: " << path;
    const exact_buffer in(raw);
    const first_item ref = read_first(in.data(), in.size());
    ASSERT_STATUS(ref.s, status::ok) << path;
    ASSERT_EQ(ref.consumed, in.size()) << path;
    ASSERT_EQ(ref.recs.size(), file.second) << path;  // the README's data item count
    decode_and_check(in, CBOR_FAST_DECODE_NONE, ref, path);
    decode_and_check(in, CBOR_FAST_DECODE_COPY_STRINGS, ref, path + " (copied)");
    std::printf("[ capi-diff ] %s: %zu items, %zu bytes\n", file.first, ref.recs.size(), in.size());
  }
}

TEST(CapiDifferential, GeneratedValuesMatchReader) {
  const std::vector<bytes> inputs = generated();
  size_t items = 0;
  uint32_t max_depth = 0;
  std::map<std::string, size_t> seen;  // coverage: the test must not degrade silently
  for (size_t i = 0; i < inputs.size() && !HasFailure(); ++i) {
    const exact_buffer in(inputs[i]);
    const std::string what = "generated #" + std::to_string(i) + " " + to_hex(inputs[i]);
    const first_item ref = read_first(in.data(), in.size());
    ASSERT_STATUS(ref.s, status::ok) << what;
    ASSERT_EQ(ref.consumed, in.size()) << what;
    items += ref.recs.size();
    for (const rec& r : ref.recs) {
      if (r.depth > max_depth) max_depth = r.depth;
      ++seen["type" + std::to_string(r.type) + (r.indefinite ? "_" : "")];
      if (r.type == CBOR_FAST_TYPE_FLOAT) {
        ++seen["width" + std::to_string(r.width)];
        if (std::isnan(bits_double(r.arg))) ++seen["nan" + std::to_string(r.width)];
      }
    }
    const decoded d = decode_and_check(in, CBOR_FAST_DECODE_NONE, ref, what);
    decode_and_check(in, CBOR_FAST_DECODE_COPY_STRINGS, ref, what + " (copied)");
    if (!d.doc) continue;

    // Preferred serialization: same values, only definite lengths, shortest
    // floats, and a fixed point (encoding it again changes nothing).
    bytes pref;
    ASSERT_EQ(encode_to(d.doc.get(), CBOR_FAST_ENCODE_PREFERRED, pref), CBOR_FAST_OK) << what;
    const exact_buffer pin(pref);
    const std::string pwhat = what + " preferred " + to_hex(pref);
    const first_item pref_ref = read_first(pin.data(), pin.size());
    ASSERT_STATUS(pref_ref.s, status::ok) << pwhat;
    const decoded p = decode_and_check(pin, CBOR_FAST_DECODE_NONE, pref_ref, pwhat);
    compare(p.recs, d.recs, mode::values, pin.data(), pin.size(), pwhat);
    for (const rec& r : p.recs) {
      EXPECT_FALSE(r.indefinite) << pwhat << ": " << r.str();
      if (r.type != CBOR_FAST_TYPE_FLOAT) continue;
      cbor_fast::writer w;
      w.write_float(bits_double(r.arg));
      EXPECT_EQ(r.width + 1, w.size()) << pwhat << ": float not in its shortest width";
    }
    bytes again;
    if (p.doc) {
      EXPECT_EQ(encode_to(p.doc.get(), CBOR_FAST_ENCODE_PREFERRED, again), CBOR_FAST_OK);
    }
    EXPECT_TRUE(again == pref) << pwhat << ": preferred is not a fixed point";
  }
  for (const char* key :
       {"type1",  "type2",  "type3",  "type3_", "type4", "type4_", "type5",  "type5_",
        "type6",  "type6_", "type7",  "type8",  "type9", "type10", "type11", "type12",
        "width2", "width4", "width8", "nan2",   "nan4",  "nan8"})
    EXPECT_GT(seen[key], 0u) << "generator never produced " << key;
  // Containers nest to k_max_depth; a bignum there adds its byte string below.
  EXPECT_GE(max_depth, uint32_t(k_max_depth));
  std::printf("[ capi-diff ] %zu generated values, %zu items, max depth %u\n", inputs.size(), items,
              max_depth);
}

TEST(CapiDifferential, CorruptedInputsFailLikeReader) {
  static const uint8_t k_interesting[] = {0x18, 0x1b, 0x1c, 0x1f, 0x3f, 0x5b, 0x5f, 0x7f, 0x9b,
                                          0x9f, 0xbb, 0xbf, 0xc2, 0xdf, 0xf8, 0xfb, 0xff, 0x00};
  // Values of a few bytes at least, so that corruption lands inside structure.
  std::vector<bytes> inputs;
  for (bytes& b : generated())
    if (b.size() >= 4) inputs.push_back(std::move(b));
  std::mt19937_64 rng(0xbadc0deULL);
  std::map<std::string, size_t> seen;
  for (int i = 0; i < 500 && !HasFailure(); ++i) {
    bytes m = inputs[rng() % inputs.size()];
    const std::string original = to_hex(m);
    const uint64_t how = rng() % 8;
    if (how < 4) {  // one byte replaced
      const size_t pos = rng() % m.size();
      uint8_t b;
      do {
        b = rng() % 2 == 0 ? k_interesting[rng() % sizeof k_interesting] : uint8_t(rng());
      } while (b == m[pos]);
      m[pos] = b;
    } else if (how < 7) {  // truncated
      m.resize(rng() % m.size());
    } else {  // one byte appended: trailing bytes
      m.push_back(uint8_t(rng()));
    }
    const exact_buffer in(m);
    const first_item ref = read_first(in.data(), in.size());
    const std::string what =
        "corrupted #" + std::to_string(i) + " " + to_hex(m) + " (from " + original + ")";
    for (uint32_t flags : {CBOR_FAST_DECODE_NONE, CBOR_FAST_DECODE_EXACT,
                           CBOR_FAST_DECODE_EXACT | CBOR_FAST_DECODE_COPY_STRINGS}) {
      const bool exact = (flags & CBOR_FAST_DECODE_EXACT) != 0;
      // What the reader says about the first item; finish() decides EXACT.
      int want = int(ref.s);
      cbor_fast::error_info want_error = ref.error;
      if (ref.s == status::end) want_error = {status::end, 0, 0, 0};
      if (ref.s == status::ok) {
        EXPECT_TRUE(ref.finish == status::ok || ref.finish == status::trailing_bytes) << what;
        if (exact && ref.finish == status::trailing_bytes) {
          want = int(status::trailing_bytes);
          // Bytes after the item: the first of them starts the next item.
          want_error = {status::trailing_bytes, ref.consumed, ref.consumed, 0};
        }
      }
      cbor_doc* raw = nullptr;
      cbor_fast_error err = CBOR_FAST_ERROR_INIT;
      const cbor_fast_status s = cbor_decode(in.data(), in.size(), flags, nullptr, &raw, &err);
      const doc_ptr doc(raw);
      const std::string wf = what + " flags " + std::to_string(flags);
      ASSERT_EQ(int(s), want) << wf << ": C " << name(s) << ", reader " << name(want);
      ASSERT_EQ(int(err.code), want) << wf;
      ASSERT_NE(err.message, nullptr) << wf;
      if (exact) ++seen[name(want)];
      if (want != int(status::ok)) {
        EXPECT_EQ(raw, nullptr) << wf;
        EXPECT_EQ(err.offset, want_error.offset) << wf << ": " << name(want);
        EXPECT_EQ(err.item_offset, want_error.item_offset) << wf << ": " << name(want);
        EXPECT_EQ(err.depth, want_error.depth) << wf << ": " << name(want);
        continue;
      }
      // Accepted: the document must be the reader's view of the first item.
      EXPECT_EQ(cbor_doc_encoded_size(raw), ref.consumed) << wf;
      EXPECT_EQ(cbor_doc_node_count(raw), ref.recs.size()) << wf;
      std::vector<rec> recs;
      if (flatten_doc(raw, recs)) {
        compare(recs, ref.recs,
                (flags & CBOR_FAST_DECODE_COPY_STRINGS) != 0 ? mode::copied : mode::borrowed,
                in.data(), in.size(), wf);
      }
    }
  }
  std::string mix;
  for (const auto& kv : seen) mix += " " + kv.first + "=" + std::to_string(kv.second);
  std::printf("[ capi-diff ] 500 corrupted inputs, EXACT statuses (x2):%s\n", mix.c_str());
  for (const char* key :
       {"ok", "truncated", "trailing_bytes", "reserved_additional_info", "unexpected_break"})
    EXPECT_GT(seen[key], 0u) << "no corrupted input gave " << key;
}

}  // namespace
