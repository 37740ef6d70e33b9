// json_fuzz: JSON -> CBOR (json_to_cbor, simdjson) on any text. When it
// parses, the CBOR is exactly one well-formed item that CBOR -> JSON prints
// without error, and that JSON parses back to the very same bytes (integers,
// bignums, the shortest exact floats, strings and key order all survive).
// On failure nothing was written and the offset lies within the text.
//
// Input: configuration byte (fuzz_util.hpp; a: reject duplicate keys; the
// depth code is from_json's max_depth), then the JSON text.
#include <string>
#include <string_view>

#include "cbor_fast/json.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

using namespace cbor_fast_fuzz;
using cbor_fast::status;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  cbor_fast::from_json_options o;
  o.reject_duplicate_keys = c.a;
  o.max_depth = c.max_depth;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  cbor_fast::writer w;
  cbor_fast::error_info e;
  const status s = cbor_fast::json_to_cbor(text, w, o, &e);
  FUZZ_CHECK(e.code == s);
  if (s != status::ok) {
    FUZZ_CHECK(w.size() == 0);
    FUZZ_CHECK(e.offset <= size);
    FUZZ_CHECK(s == status::syntax_error || s == status::invalid_utf8 ||
               s == status::depth_exceeded || s == status::out_of_range ||
               s == status::duplicate_key || s == status::string_too_long);
    return 0;
  }
  FUZZ_CHECK(w.finish() == status::ok);

  // Exactly one well-formed item, nested no deeper than allowed (a bignum's
  // tag is one level more than its number was in JSON), valid UTF-8.
  cbor_fast::reader_options ro;
  ro.max_depth = c.max_depth + 1;
  ro.validate_utf8 = true;
  ro.reject_duplicate_keys = c.a;
  {
    cbor_fast::reader r(w.data(), w.size(), ro);
    FUZZ_CHECK(r.skip() == status::ok);
    FUZZ_CHECK(r.at_end());
  }

  // CBOR -> JSON -> CBOR: the same bytes.
  cbor_fast::reader r(w.data(), w.size(), ro);
  std::string json;
  FUZZ_CHECK(cbor_fast::json_next(r, json) == status::ok);
  cbor_fast::writer w2;
  const status s2 = cbor_fast::json_to_cbor(json, w2, o, &e);
  if (s2 != status::ok) {
    std::fprintf(stderr, "printed JSON does not parse (%s at %zu): %s\n",
                 cbor_fast::status_name(s2), e.offset, json.c_str());
    FUZZ_FAIL("to-json output is not JSON");
  }
  FUZZ_CHECK(w2.finish() == status::ok);
  if (w2.size() != w.size() || std::memcmp(w2.data(), w.data(), w.size()) != 0) {
    std::fprintf(stderr, "round trip changed the bytes: %s\n", json.c_str());
    FUZZ_FAIL("JSON round trip is not stable");
  }
  return 0;
}
