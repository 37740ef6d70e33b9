// diag_fuzz: diag_next() over the input until end or error. Each printed item
// must be well-bracketed (quotes and h'' hex respected), free of raw control
// characters, and the items and final status must be the ones a skip() pass
// finds. diag_append_float() must print text that reads back as the value.
//
// Input: configuration byte (fuzz_util.hpp; a: float width indicators), then CBOR.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "cbor_fast/diag.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace cbor_fast_fuzz;
using cbor_fast::status;

/// Brackets balance outside "..." (with \ escapes) and h'...' / '' literals,
/// hex literals hold an even number of lowercase hex digits, and no byte is a
/// C0 control or DEL.
bool well_formed_text(const std::string& s) {
  std::vector<char> open;
  enum { normal, in_text, in_hex } state = normal;
  size_t hex_digits = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch < 0x20 || ch == 0x7f) return false;
    const char c = s[i];
    switch (state) {
      case normal:
        if (c == '[' || c == '{' || c == '(') {
          open.push_back(c == '[' ? ']' : c == '{' ? '}' : ')');
        } else if (c == ']' || c == '}' || c == ')') {
          if (open.empty() || open.back() != c) return false;
          open.pop_back();
        } else if (c == '"') {
          state = in_text;
        } else if (c == '\'') {
          state = in_hex;
          hex_digits = 0;
        }
        break;
      case in_text:
        if (c == '\\') {
          if (++i == s.size()) return false;
        } else if (c == '"') {
          state = normal;
        }
        break;
      case in_hex:
        if (c == '\'') {
          if (hex_digits % 2 != 0) return false;
          state = normal;
        } else if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) {
          ++hex_digits;
        } else {
          return false;
        }
        break;
    }
  }
  return state == normal && open.empty();
}

void check_float_text(double v) {
  std::string s = "#";
  cbor_fast::diag_append_float(v, s);
  FUZZ_CHECK(s.size() > 1 && s[0] == '#');
  const std::string t = s.substr(1);
  if (std::isnan(v)) {
    FUZZ_CHECK(t == "NaN");
  } else if (std::isinf(v)) {
    FUZZ_CHECK(t == (v > 0 ? "Infinity" : "-Infinity"));
  } else {
    // Reads back exactly (sign of zero included), and looks like a float.
    char* end = nullptr;
    const double back = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || double_bits(back) != double_bits(v)) {
      std::fprintf(stderr, "float %a printed as \"%s\"\n", v, t.c_str());
      FUZZ_FAIL("float text does not read back");
    }
    FUZZ_CHECK(t.find_first_of(".e") != std::string::npos);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  cbor_fast::reader_options opts;
  opts.validate_utf8 = c.utf8;
  opts.max_depth = c.max_depth;
  cbor_fast::diag_options dopts;
  dopts.float_width_indicators = c.a;

  // The reference: item boundaries and final status of a skip() pass.
  std::vector<size_t> ends;
  cbor_fast::reader ref(data, size, opts);
  status rs;
  while ((rs = ref.skip()) == status::ok) ends.push_back(ref.offset());

  cbor_fast::reader r(data, size, opts);
  std::string out = "prefix";
  size_t printed = 0;
  for (;;) {
    const size_t before = out.size();
    const status s = cbor_fast::diag_next(r, out, dopts);
    if (s != status::ok) {
      FUZZ_CHECK(s == rs && printed == ends.size());
      FUZZ_CHECK(out.compare(0, 6, "prefix") == 0);
      if (s == status::end) {
        FUZZ_CHECK(out.size() == before);
      } else {
        FUZZ_CHECK(r.error().code == s && r.error().offset == ref.error().offset);
      }
      break;
    }
    FUZZ_CHECK(printed < ends.size() && r.offset() == ends[printed]);
    const std::string text = out.substr(before);
    FUZZ_CHECK(!text.empty());
    if (!well_formed_text(text)) {
      std::fprintf(stderr, "badly formed diagnostic text: %s\n", text.c_str());
      FUZZ_FAIL("badly formed diagnostic text");
    }
    ++printed;
  }

  // Any 8 bytes as a double.
  if (size >= 8) check_float_text(bits_double(load_be(data, 8)));
  return 0;
}
