// edn_fuzz: diagnostic notation both ways.
//  1. The input as CBOR: each item printed with every encoding indicator
//     (diag_write) parses back (diag_parse) to exactly its bytes, unless it
//     holds a NaN with a payload or sign that notation has no words for.
//  2. The input as text: diag_parse either fails with an offset inside the
//     text and leaves the output alone, or writes items that a reader accepts
//     and that print and parse back to the same bytes.
// Never a crash, a hang or recursion on depth.
//
// Input: configuration byte (fuzz_util.hpp; a: parse the text as a sequence;
// the depth code is both sides' max_depth), then the bytes.
#include <string>
#include <string_view>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

using namespace cbor_fast_fuzz;
using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::status;

namespace {

/// A float notation cannot spell: a NaN other than the quiet positive one.
bool has_odd_nan(const uint8_t* p, size_t n, uint32_t depth) {
  cbor_fast::reader_options o;
  o.max_depth = depth;
  cbor_fast::reader r(p, n, o);
  item it;
  while (r.next(it) == status::ok) {
    if (it.type != item_type::floating || it.float_value() == it.float_value()) continue;
    const uint64_t bits = it.float_bits();
    if (!(it.width == 2 && bits == 0x7e00) && !(it.width == 4 && bits == 0x7fc00000) &&
        !(it.width == 8 && bits == 0x7ff8000000000000))
      return true;
  }
  return false;
}

/// Prints each item of [p, p + n) with indicators and parses it back.
void round_trip(const uint8_t* p, size_t n, uint32_t depth) {
  cbor_fast::reader_options o;
  o.max_depth = depth;
  o.validate_utf8 = true;  // printed text must parse as UTF-8
  cbor_fast::reader r(p, n, o);
  cbor_fast::diag_options d;
  d.encoding_indicators = true;
  cbor_fast::diag_parse_options po;
  po.max_depth = depth;
  for (;;) {
    const size_t start = r.offset();
    std::string text;
    const status s = cbor_fast::diag_next(r, text, d);
    if (s != status::ok) return;
    const size_t end = r.offset();
    if (has_odd_nan(p + start, end - start, depth)) continue;
    std::vector<uint8_t> back;
    cbor_fast::error_info e;
    const status ps = cbor_fast::diag_parse(text, back, po, &e);
    if (ps != status::ok) {
      std::fprintf(stderr, "printed text does not parse (%s at %zu): %s\n",
                   cbor_fast::status_name(ps), e.offset, text.c_str());
      FUZZ_FAIL("diag output does not parse");
    }
    if (back.size() != end - start || std::memcmp(back.data(), p + start, back.size()) != 0) {
      std::fprintf(stderr, "round trip changed the bytes: %s\n", text.c_str());
      FUZZ_FAIL("diag round trip is not exact");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);

  round_trip(data, size, c.max_depth);

  const std::string_view text(reinterpret_cast<const char*>(data), size);
  cbor_fast::diag_parse_options po;
  po.max_depth = c.max_depth;
  po.sequence = c.a;
  std::vector<uint8_t> out = {0x5a};
  cbor_fast::error_info e;
  const status s = cbor_fast::diag_parse(text, out, po, &e);
  FUZZ_CHECK(e.code == s);
  if (s != status::ok) {
    FUZZ_CHECK(out.size() == 1 && out[0] == 0x5a);
    FUZZ_CHECK(e.offset <= size);
    FUZZ_CHECK(s == status::syntax_error || s == status::out_of_range ||
               s == status::invalid_utf8 || s == status::depth_exceeded);
    return 0;
  }
  // Well-formed items: exactly one, or as a sequence any number (none for a
  // text of whitespace and comments only, an empty sequence since 0.5).
  cbor_fast::reader_options o;
  o.max_depth = c.max_depth;
  o.validate_utf8 = true;
  cbor_fast::reader r(out.data() + 1, out.size() - 1, o);
  size_t items = 0;
  status rs;
  while ((rs = r.skip()) == status::ok) ++items;
  FUZZ_CHECK(rs == status::end);
  FUZZ_CHECK(c.a || items == 1);
  round_trip(out.data() + 1, out.size() - 1, c.max_depth);
  return 0;
}
