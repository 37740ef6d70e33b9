// stream_fuzz: cbor_fast::stream over a source that hands out the input in
// pieces of 1 to 17 bytes (sizes from the input itself), with a block size of
// 1 to 64 bytes, must give what a streaming reader given the whole input gives
// (told of its end when it asks for more):
// every item (all fields, string content), the final status, its offset and
// item offset, for next(), skip(), visit() and next_document() loops (a
// document told by its encoding; the reference decodes from its reader with
// copied strings, as the stream does). Its buffer never holds
// more than max_buffer bytes. With a max_buffer smaller than the input (switch
// a: 16 to 79 bytes) it may stop early with memory_budget_exceeded, and then
// only there: after a prefix of the reference's items, at the offset of the
// next one, which did not fit. A source that fails at byte k gives a prefix,
// then source_failed at the item that needed that byte.
//
// Input: configuration byte (fuzz_util.hpp; a: the small buffer; b:
// duplicate-key checks), then the CBOR input.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cbor_fast/document.hpp"
#include "cbor_fast/stream.hpp"
#include "cbor_fast/writer.hpp"
#include "fuzz_util.hpp"

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::reader_options;
using cbor_fast::status;
using cbor_fast::stream;

struct outcome {
  std::vector<std::string> items;
  std::vector<size_t> starts;  ///< where each item (or skipped item) began
  std::vector<size_t> ends;    ///< and where the next step began
  status last = status::ok;
  size_t offset = 0;
  size_t item_offset = 0;
  /// next_document()'s documents, kept to the end of the loop (they own
  /// their strings: the stream's buffer has moved on since) and then told by
  /// their encodings in `items`.
  std::vector<cbor_fast::document> docs;
};

/// The documents' encodings (the same encoder on both sides) as their items.
void describe_documents(outcome& out) {
  FUZZ_CHECK(out.docs.empty() || out.docs.size() == out.items.size());
  for (size_t i = 0; i < out.docs.size(); ++i) {
    cbor_fast::writer w;
    FUZZ_CHECK(cbor_fast::encode(out.docs[i], w) == status::ok);
    out.items[i].assign(reinterpret_cast<const char*>(w.data()), w.size());
  }
}

/// The input in pieces; counts the reads.
struct source {
  const uint8_t* data;
  size_t size;
  size_t fail_at = SIZE_MAX;  ///< a read asked for this byte fails
  size_t at = 0;
  size_t piece = 0;
  static bool read(void* ctx, uint8_t* buf, size_t cap, size_t* got) {
    auto* s = static_cast<source*>(ctx);
    FUZZ_CHECK(cap != 0);
    if (s->at >= s->fail_at) return false;
    size_t n = s->size - s->at;
    if (n != 0) n = std::min(n, size_t(s->data[s->piece++ % s->size] % 17) + 1);
    n = std::min({n, cap, s->fail_at - s->at});  // nothing from byte fail_at on
    std::memcpy(buf, s->data + s->at, n);
    s->at += n;
    *got = n;
    return true;
  }
};

/// The next top-level item as a document: the stream's own, and the
/// reference's decode() from its reader (need_more, nothing consumed, until
/// the whole item is there).
status take_document(stream& st, cbor_fast::document& d) { return st.next_document(d); }
status take_document(reader& r, cbor_fast::document& d) {
  return cbor_fast::decode(r, d, cbor_fast::decode_copy_strings);
}

/// A document step: the document is kept (describe_documents() tells it
/// once the loop has ended).
template <class R>
status document_step(R& r, outcome& out) {
  cbor_fast::document d;
  const status s = take_document(r, d);
  if (s != status::ok) {
    FUZZ_CHECK(d.empty());
    return s;
  }
  out.docs.push_back(std::move(d));
  out.items.emplace_back();
  return s;
}

/// The reference: a streaming reader given the whole input, told that it
/// has ended only when it asks for more (as a stream learns it from its
/// source: a definite array or map counting more entries than bytes are left
/// is read, not refused at its head as by a one-shot read).
template <class Step>
outcome reference(const uint8_t* data, size_t size, reader_options o, Step step) {
  o.streaming = true;
  reader r(static_cast<const uint8_t*>(nullptr), 0, o);
  FUZZ_CHECK(r.feed(data, size, 0) == status::ok);
  outcome out;
  for (;;) {
    const size_t start = r.offset();
    const status s = step(r, out);
    if (s == status::ok) {
      out.starts.push_back(start);
      out.ends.push_back(r.offset());
      continue;
    }
    if (s == status::need_more) {
      r.end_input();
      continue;
    }
    out.last = s;
    if (cbor_fast::is_error(s)) {
      out.offset = r.error().offset;
      out.item_offset = r.error().item_offset;
    }
    describe_documents(out);
    return out;
  }
}

template <class Step>
outcome streamed(const uint8_t* data, size_t size, const reader_options& o, size_t block,
                 size_t max_buffer, Step step, size_t fail_at = SIZE_MAX) {
  source src{data, size, fail_at};
  cbor_fast::stream_options so;
  so.reader = o;
  so.block_size = block;
  so.max_buffer = max_buffer;
  stream st(&source::read, &src, so);
  outcome out;
  for (;;) {
    const size_t start = st.offset();
    const status s = step(st, out);
    FUZZ_CHECK(st.buffered() <= max_buffer);
    if (s == status::ok) {
      out.starts.push_back(start);
      out.ends.push_back(st.offset());
      continue;
    }
    FUZZ_CHECK(s != status::need_more);
    out.last = s;
    if (cbor_fast::is_error(s)) {
      FUZZ_CHECK(st.error().code == s);
      out.offset = st.error().offset;
      out.item_offset = st.error().item_offset;
    }
    describe_documents(out);
    return out;
  }
}

/// A source that fails once the stream asks it for byte k (k from the
/// input): the items of the same stream with a working source (`whole`) up
/// to there, then source_failed where the item that needed byte k starts;
/// or all of `whole`, if it ended before asking for byte k.
template <class Step>
void check_failing_source(const uint8_t* data, size_t size, const reader_options& o, size_t block,
                          size_t max_buffer, Step step, const outcome& whole) {
  if (size == 0) return;
  const size_t k = size_t(data[0]) % size;
  const outcome cut = streamed(data, size, o, block, max_buffer, step, k);
  FUZZ_CHECK(cut.items.size() <= whole.items.size());
  FUZZ_CHECK(std::equal(cut.items.begin(), cut.items.end(), whole.items.begin()));
  const size_t n = cut.items.size();
  if (cut.last == status::source_failed) {
    FUZZ_CHECK(cut.offset <= k);
    if (n < whole.starts.size()) FUZZ_CHECK(cut.offset == whole.starts[n] && whole.ends[n] > k);
  } else {
    FUZZ_CHECK(cut.items == whole.items && cut.last == whole.last && cut.offset == whole.offset);
  }
}

template <class Step>
void check(const uint8_t* data, size_t size, const reader_options& o, size_t block,
           size_t max_buffer, Step step) {
  const outcome ref = reference(data, size, o, step);
  const outcome got = streamed(data, size, o, block, max_buffer, step);
  if (got.last == status::memory_budget_exceeded && max_buffer < size) {
    // A prefix, then the item that did not fit: the stream fails where that
    // item (for next(), its head and string) starts, and it is longer than
    // the buffer. (A buffer as large as the input asks the source once more
    // when full, so it says truncated where the input ends.)
    const size_t n = got.items.size();
    FUZZ_CHECK(n <= ref.items.size());
    FUZZ_CHECK(std::equal(got.items.begin(), got.items.end(), ref.items.begin()));
    if (n < ref.starts.size()) {
      FUZZ_CHECK(got.offset == ref.starts[n]);
      // (Duplicate-key checks keep an open key's bytes too: keep_from().)
      if (!o.reject_duplicate_keys) FUZZ_CHECK(ref.ends[n] - ref.starts[n] > max_buffer);
    }
    check_failing_source(data, size, o, block, max_buffer, step, got);
    return;
  }
  if (got.items != ref.items || got.last != ref.last || got.offset != ref.offset ||
      got.item_offset != ref.item_offset)
    std::fprintf(stderr, "stream: %zu items, %s at %zu/%zu; reference: %zu items, %s at %zu/%zu\n",
                 got.items.size(), cbor_fast::status_name(got.last), got.offset, got.item_offset,
                 ref.items.size(), cbor_fast::status_name(ref.last), ref.offset, ref.item_offset);
  FUZZ_CHECK(got.items == ref.items);
  FUZZ_CHECK(got.last == ref.last && got.offset == ref.offset &&
             got.item_offset == ref.item_offset);

  check_failing_source(data, size, o, block, max_buffer, step, got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const cbor_fast_fuzz::config c = cbor_fast_fuzz::take_config(data, size);
  reader_options o;
  o.validate_utf8 = c.utf8;
  o.max_depth = c.max_depth;
  o.reject_duplicate_keys = c.b;
  const size_t block = size == 0 ? 1 : size_t(data[size / 2] % 64) + 1;
  const size_t max_buffer =
      c.a ? 16 + (size == 0 ? 0 : size_t(data[size - 1] % 64)) : std::max(size, size_t(1)) + 64;

  auto next_step = [](auto& r, outcome& out) { return cbor_fast_fuzz::next_step(r, out.items); };
  auto skip_step = [](auto& r, outcome& out) { return cbor_fast_fuzz::skip_step(r, out.items); };
  auto visit_step = [](auto& r, outcome& out) { return cbor_fast_fuzz::visit_step(r, out.items); };
  check(data, size, o, block, max_buffer, next_step);
  check(data, size, o, block, max_buffer, skip_step);
  check(data, size, o, block, max_buffer, visit_step);
  check(data, size, o, block, max_buffer,
        [](auto& r, outcome& out) { return document_step(r, out); });
  return 0;
}
