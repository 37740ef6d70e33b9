// sequence_fuzz: a CBOR sequence (RFC 8742) through cbor_seq_next and
// cbor_seq_next_doc. Both passes must find the item boundaries and the final
// status a cbor_reader_skip() loop finds; each document decoded from the
// sequence must equal cbor_decode() of its bytes alone, and report where it was.
//
// Input: configuration byte (fuzz_util.hpp; a: which item the mixed pass
// decodes first, b: COPY_STRINGS for the documents), then the sequence.
#include <vector>

#include "capi_util.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace cbor_fast_fuzz;

struct boundaries {
  std::vector<size_t> offsets;
  std::vector<size_t> lengths;
  cbor_fast_status final = CBOR_FAST_OK;
  cbor_fast_error error = CBOR_FAST_ERROR_INIT;
};

/// The reference: the C reader skipping item by item.
boundaries reader_pass(const uint8_t* data, size_t size, bool utf8, uint32_t max_depth) {
  boundaries b;
  cbor_reader* r = nullptr;
  FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &r) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, max_depth) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8, utf8 ? 1 : 0) == CBOR_FAST_OK);
  for (;;) {
    const size_t start = cbor_reader_offset(r);
    const cbor_fast_status s = cbor_reader_skip(r);
    if (s != CBOR_FAST_OK) {
      b.final = s;
      FUZZ_CHECK(cbor_reader_error(r, &b.error) == (s == CBOR_FAST_END ? CBOR_FAST_OK : s));
      break;
    }
    b.offsets.push_back(start);
    b.lengths.push_back(cbor_reader_offset(r) - start);
  }
  if (b.final == CBOR_FAST_END) FUZZ_CHECK(cbor_reader_finish(r) == CBOR_FAST_OK);
  cbor_reader_free(r);
  return b;
}

/// The sequence's error agrees with the reader's: same code, same offset,
/// item_offset = start of the item that failed.
void check_error(cbor_seq* seq, cbor_fast_status s, const boundaries& ref) {
  FUZZ_CHECK(s == ref.final);
  if (s == CBOR_FAST_END) {
    FUZZ_CHECK(cbor_seq_error(seq, nullptr) == CBOR_FAST_OK);
    return;
  }
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  FUZZ_CHECK(cbor_seq_error(seq, &e) == s && e.code == s && e.message != nullptr);
  const size_t start = ref.offsets.empty() ? 0 : ref.offsets.back() + ref.lengths.back();
  FUZZ_CHECK(e.item_offset == start);
  FUZZ_CHECK(e.offset == ref.error.offset);
  // Sticky, whichever call comes next.
  FUZZ_CHECK(cbor_seq_next(seq, 0, nullptr, nullptr) == s);
  cbor_doc* d = reinterpret_cast<cbor_doc*>(&e);
  FUZZ_CHECK(cbor_seq_next_doc(seq, 0, &d) == s && d == nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  const std::vector<uint8_t> copy(data, data + size);
  const uint8_t* in = copy.empty() ? nullptr : copy.data();
  const uint32_t flags =
      (c.utf8 ? CBOR_FAST_DECODE_VALIDATE_UTF8 : 0u) | (c.b ? CBOR_FAST_DECODE_COPY_STRINGS : 0u);
  cbor_fast_decode_options opts = CBOR_FAST_DECODE_OPTIONS_INIT;
  opts.max_depth = c.depth_code == 0 ? 0 : c.max_depth;

  const boundaries ref = reader_pass(in, size, c.utf8, c.max_depth);

  // Pass 1: cbor_seq_next only.
  cbor_seq* seq = nullptr;
  FUZZ_CHECK(cbor_seq_new(in, size, &opts, &seq) == CBOR_FAST_OK);
  size_t count = 0;
  for (;;) {
    size_t off = 1234567, len = 7654321;
    const cbor_fast_status s = cbor_seq_next(seq, flags, &off, &len);
    if (s != CBOR_FAST_OK) {
      FUZZ_CHECK(count == ref.offsets.size());
      check_error(seq, s, ref);
      break;
    }
    FUZZ_CHECK(count < ref.offsets.size());
    FUZZ_CHECK(off == ref.offsets[count] && len == ref.lengths[count]);
    ++count;
  }
  cbor_seq_free(seq);

  // Pass 2: documents and plain checks alternate.
  FUZZ_CHECK(cbor_seq_new(in, size, &opts, &seq) == CBOR_FAST_OK);
  count = 0;
  for (;;) {
    const bool as_doc = (count % 2 == 0) != c.a;
    cbor_fast_status s;
    if (as_doc) {
      cbor_doc* d = nullptr;
      s = cbor_seq_next_doc(seq, flags, &d);
      FUZZ_CHECK((s == CBOR_FAST_OK) == (d != nullptr));
      if (s == CBOR_FAST_OK) {
        FUZZ_CHECK(count < ref.offsets.size());
        const size_t off = ref.offsets[count];
        const size_t len = ref.lengths[count];
        FUZZ_CHECK(cbor_node_offset(cbor_doc_root(d)) == off);
        FUZZ_CHECK(cbor_doc_encoded_size(d) == off + len);
        // The same bytes decoded on their own: same nodes, same encoding.
        cbor_doc* alone = nullptr;
        cbor_fast_decode_options o = opts;
        FUZZ_CHECK(cbor_decode(in + off, len, flags | CBOR_FAST_DECODE_EXACT, &o, &alone,
                               nullptr) == CBOR_FAST_OK);
        std::vector<event> a = doc_events(cbor_doc_root(d));
        for (event& e : a) e.offset -= off;
        check_same_events(a, doc_events(cbor_doc_root(alone)), {true, true},
                          "sequence document vs cbor_decode");
        FUZZ_CHECK(cbor_doc_node_count(d) == cbor_doc_node_count(alone));
        FUZZ_CHECK(encode_doc(d, CBOR_FAST_ENCODE_NONE) ==
                   encode_doc(alone, CBOR_FAST_ENCODE_NONE));
        cbor_doc_free(alone);
      }
      cbor_doc_free(d);
    } else {
      size_t off = 0, len = 0;
      s = cbor_seq_next(seq, flags, &off, &len);
      if (s == CBOR_FAST_OK) {
        FUZZ_CHECK(count < ref.offsets.size());
        FUZZ_CHECK(off == ref.offsets[count] && len == ref.lengths[count]);
      }
    }
    if (s != CBOR_FAST_OK) {
      FUZZ_CHECK(count == ref.offsets.size());
      check_error(seq, s, ref);
      break;
    }
    ++count;
  }
  cbor_seq_free(seq);
  return 0;
}
