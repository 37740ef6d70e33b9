// chunked_fuzz: the streaming reader fed the input in pieces must agree with
// the same reader given all of it at once: every item (all fields, string
// content), the final status, its offset and item offset, for next() and for
// skip(). And that must be a one-shot read's result, except where a definite
// array or map counts more entries than bytes are left (a one-shot read
// refuses that at the head with truncated; a stream cannot know yet).
//
// Input: configuration byte (fuzz_util.hpp; a: a window that keeps only the
// bytes from keep_from() on, in a fresh allocation per feed, instead of one
// growing buffer; b: duplicate-key checks), then the CBOR input. The piece
// sizes (1 to 17 bytes) come from the input bytes themselves.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_util.hpp"

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::reader_options;
using cbor_fast::status;

struct outcome {
  std::vector<std::string> items;
  status last = status::ok;
  size_t offset = 0;
  size_t item_offset = 0;
};

void close(outcome& o, const reader& r, status s) {
  o.last = s;
  if (cbor_fast::is_error(s)) {
    o.offset = r.error().offset;
    o.item_offset = r.error().item_offset;
  }
}

bool same(const outcome& a, const outcome& b) {
  return a.items == b.items && a.last == b.last && a.offset == b.offset &&
         a.item_offset == b.item_offset;
}

template <class Step>
outcome one_shot(const uint8_t* data, size_t size, const reader_options& o, Step step) {
  outcome out;
  reader r(data, size, o);
  status s;
  while ((s = step(r, out)) == status::ok) {}
  close(out, r, s);
  return out;
}

template <class Step>
outcome fed(const uint8_t* data, size_t size, reader_options o, bool window, bool whole,
            Step step) {
  o.streaming = true;
  outcome out;
  reader r(static_cast<const uint8_t*>(nullptr), 0, o);
  std::vector<uint8_t> buf;
  size_t avail = 0;
  size_t piece = 0;
  for (;;) {
    const status s = step(r, out);
    if (s == status::ok) continue;
    if (s != status::need_more) {
      close(out, r, s);
      return out;
    }
    FUZZ_CHECK(r.needed() >= 1);
    FUZZ_CHECK(r.error().code == status::ok);
    if (avail == size) {
      r.end_input();
      continue;
    }
    const size_t n =
        whole ? size - avail : std::min(size - avail, size_t(data[piece++ % size] % 17) + 1);
    avail += n;
    const size_t keep = window ? r.keep_from() : 0;
    FUZZ_CHECK(keep <= r.offset());
    std::vector<uint8_t> fresh(data + keep, data + avail);
    buf.swap(fresh);  // the old buffer is freed
    FUZZ_CHECK(r.feed(buf.data(), buf.size(), keep) == status::ok);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const cbor_fast_fuzz::config c = cbor_fast_fuzz::take_config(data, size);
  reader_options o;
  o.validate_utf8 = c.utf8;
  o.max_depth = c.max_depth;
  o.reject_duplicate_keys = c.b;
  auto next_step = [](reader& r, outcome& out) { return cbor_fast_fuzz::next_step(r, out.items); };
  auto skip_step = [](reader& r, outcome& out) { return cbor_fast_fuzz::skip_step(r, out.items); };
  auto check = [&](auto step) {
    const outcome ref = fed(data, size, o, false, true, step);
    FUZZ_CHECK(same(ref, fed(data, size, o, c.a, false, step)));
    const outcome plain = one_shot(data, size, o, step);
    if (!same(plain, ref)) {
      FUZZ_CHECK(plain.last == status::truncated && plain.offset < size);
      const unsigned major = data[plain.offset] >> 5;
      FUZZ_CHECK(major == 4 || major == 5);
      FUZZ_CHECK(plain.items.size() <= ref.items.size());
    }
  };
  check(next_step);
  check(skip_step);
  return 0;
}
