// differential_fuzz: the C++ reader and the C document must agree.
//  - cbor_decode() of the first item vs the C++ reader's item stream: same
//    status, same error offset and depth; on success the same values node for
//    node (types, integers, float bits and widths, string bytes, counts,
//    offsets) and the same encoded size. (The document's decoder has a fused
//    fast path of its own; the reader is only its fallback.)
//  - decode -> encode -> decode is stable, and the reader reads the encoding
//    back as the same values.
//  - the C reader (cbor_reader_*) yields exactly the C++ reader's items.
//
// Input: configuration byte (fuzz_util.hpp; a: COPY_STRINGS), then CBOR.
#include <cstring>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace cbor_fast_fuzz;
using cbor_fast::status;

/// Every item of the C reader equals the C++ reader's, to the final status.
void compare_readers(const uint8_t* data, size_t size, const cbor_fast::reader_options& opts) {
  cbor_fast::reader r(data, size, opts);
  cbor_reader* cr = nullptr;
  FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &cr) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(cr, CBOR_FAST_OPT_MAX_DEPTH, opts.max_depth) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(cr, CBOR_FAST_OPT_VALIDATE_UTF8, opts.validate_utf8) == CBOR_FAST_OK);
  cbor_fast::item it;
  for (;;) {
    cbor_fast_item ci = CBOR_FAST_ITEM_INIT;
    const status s = r.next(it);
    const cbor_fast_status cs = cbor_reader_next(cr, &ci);
    FUZZ_CHECK(int(s) == int(cs));
    FUZZ_CHECK(r.offset() == cbor_reader_offset(cr) && r.depth() == cbor_reader_depth(cr));
    if (s != status::ok) {
      cbor_fast_error e = CBOR_FAST_ERROR_INIT;
      const cbor_fast_status es = cbor_reader_error(cr, &e);
      if (s == status::end) {
        FUZZ_CHECK(es == CBOR_FAST_OK);
      } else {
        FUZZ_CHECK(es == cs && e.offset == r.error().offset && e.depth == r.error().depth);
        FUZZ_CHECK(e.item_offset == r.error().item_offset);
      }
      break;
    }
    FUZZ_CHECK(int(ci.type) == int(it.type) && ci.flags == it.flags && ci.depth == it.depth);
    FUZZ_CHECK(ci.offset == it.offset && ci.head_size == it.head_size && ci.value == it.arg);
    if (it.type == cbor_fast::item_type::floating) {
      FUZZ_CHECK(ci.float_width == it.width);
      FUZZ_CHECK(double_bits(ci.float_value) == double_bits(it.float_value()));
    }
    if ((it.type == cbor_fast::item_type::byte_string ||
         it.type == cbor_fast::item_type::text_string) &&
        !it.is_indefinite())
      FUZZ_CHECK(ci.data == it.bytes().data && ci.size == it.arg);
  }
  cbor_reader_free(cr);
}

/// Reads data[0, size) as exactly one item with the C++ reader.
std::vector<event> reader_events(const uint8_t* data, size_t size) {
  cbor_fast::reader r(data, size, unlimited());
  std::vector<event> ev;
  FUZZ_CHECK(read_item_events(r, ev) == status::ok);
  FUZZ_CHECK(r.offset() == size && r.finish() == status::ok);
  return ev;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  const std::vector<uint8_t> copy(data, data + size);
  const uint8_t* in = copy.empty() ? nullptr : copy.data();

  cbor_fast::reader_options opts;
  opts.validate_utf8 = c.utf8;
  opts.max_depth = c.max_depth;
  compare_readers(in, size, opts);

  // ---- first item: reader vs document ----
  cbor_fast::reader r(in, size, opts);
  std::vector<event> expect;
  const status rs = read_item_events(r, expect);

  const uint32_t flags =
      (c.utf8 ? CBOR_FAST_DECODE_VALIDATE_UTF8 : 0u) | (c.a ? CBOR_FAST_DECODE_COPY_STRINGS : 0u);
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  o.max_depth = c.depth_code == 0 ? 0 : c.max_depth;
  cbor_doc* doc = nullptr;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status ds = cbor_decode(in, size, flags, &o, &doc, &err);
  if (int(rs) != int(ds)) {
    std::fprintf(stderr, "reader says %s at %zu, cbor_decode says %s at %zu\n",
                 cbor_fast::status_name(rs), r.error().offset, cbor_status_name(ds), err.offset);
    FUZZ_CHECK(int(rs) == int(ds));
  }
  if (rs != status::ok) {
    FUZZ_CHECK(doc == nullptr);
    if (rs != status::end) {
      FUZZ_CHECK(err.offset == r.error().offset && err.depth == r.error().depth);
      FUZZ_CHECK(err.item_offset == 0);
    }
    return 0;
  }
  const std::vector<event> got = doc_events(cbor_doc_root(doc));
  check_same_events(expect, got, {true, true}, "reader vs cbor_decode");
  FUZZ_CHECK(cbor_doc_encoded_size(doc) == r.offset());

  // ---- decode -> encode -> decode, read back by the reader ----
  const std::vector<uint8_t> kept = encode_doc(doc, CBOR_FAST_ENCODE_NONE);
  check_same_events(expect, reader_events(kept.data(), kept.size()), {false, true},
                    "reader over encode(doc)");
  const std::vector<uint8_t> preferred = encode_doc(doc, CBOR_FAST_ENCODE_PREFERRED);
  check_same_events(expect, reader_events(preferred.data(), preferred.size()), {false, false},
                    "reader over encode(doc, PREFERRED)");
  for (const std::vector<uint8_t>* bytes : {&kept, &preferred}) {
    cbor_doc* again = nullptr;
    FUZZ_CHECK(cbor_decode(bytes->data(), bytes->size(), flags | CBOR_FAST_DECODE_EXACT, &o, &again,
                           nullptr) == CBOR_FAST_OK);
    check_same_events(doc_events(cbor_doc_root(again)), reader_events(bytes->data(), bytes->size()),
                      {true, true}, "reader vs cbor_decode of an encoding");
    const uint32_t eflags = bytes == &kept ? CBOR_FAST_ENCODE_NONE : CBOR_FAST_ENCODE_PREFERRED;
    FUZZ_CHECK(encode_doc(again, eflags) == *bytes);
    cbor_doc_free(again);
  }
  cbor_doc_free(doc);
  return 0;
}
