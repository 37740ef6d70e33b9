// capi_limits_fuzz: the limits and strict flags of the C API. cbor_decode with
// limits (max_depth, max_string_length, max_container_items, max_items,
// max_memory) and flags (VALIDATE_UTF8, REJECT_DUPLICATE_KEYS, DETERMINISTIC,
// COPY_STRINGS, EXACT) must give the status and offset of a cbor_reader walk
// over the first item with the same settings (cbor_reader_set, or
// cbor_reader_configure with the same options). The memory
// budget is the exception, since only the decoder allocates: when it is hit,
// decoding again without it must give the reader's result, and a counting
// allocator (options.alloc) checks that the decoder never held more than
// max_memory bytes, freed every byte, and passed back the sizes it got.
// A decoded document is walked (every node, every scalar) against the C++
// reader's item stream, encoded, decoded again and compared. cbor_seq over the
// whole input, with the same options and flags, must agree item by item and on
// the first error with a fresh reader per item. cbor_reader_next_batch, with a
// capacity taken from the input, must hand out the items of cbor_reader_next
// field for field and end with the same status, error and position.
//
// Input: flags byte F (bit 0 VALIDATE_UTF8, 1 REJECT_DUPLICATE_KEYS,
// 2 DETERMINISTIC, 3 COPY_STRINGS, 4 EXACT, 5 cbor_seq_next_doc on even items
// and cbor_seq_next on odd ones, else the reverse, 6 readers configured by
// cbor_reader_configure, else by cbor_reader_set), limit mask M (bit 0
// max_depth, 1 max_string_length, 2 max_container_items, 3 max_items,
// 4 max_memory, 5 struct_size 0: the 0.1 layout, where only max_depth and
// alloc are read), one byte per limit named in M in that order (max_memory =
// 1 + 4 * v * v; the others v, 0 meaning the default), then the CBOR input.
// CBOR_FAST_FUZZ_TRACE=1 prints every allocation and free.
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace cbor_fast_fuzz;

/// CBOR_FAST_FUZZ_TRACE set: every allocation and free on stderr.
bool tracing() {
  static const bool on = std::getenv("CBOR_FAST_FUZZ_TRACE") != nullptr;
  return on;
}

/// malloc/realloc/free that count the bytes held and keep the peak, and
/// check that every size passed back is the size handed out.
struct counting_allocator {
  size_t live = 0;
  size_t peak = 0;
  std::unordered_map<void*, size_t> sizes;
  cbor_fast_allocator hooks{&counting_allocator::do_malloc, &counting_allocator::do_realloc,
                            &counting_allocator::do_free, this};

  counting_allocator() = default;
  counting_allocator(const counting_allocator&) = delete;
  counting_allocator& operator=(const counting_allocator&) = delete;

  size_t first = SIZE_MAX;  ///< size of the first allocation (cbor_decode: the handle)

  void reset_peak() { peak = live; }
  void add(void* p, size_t n) {
    if (tracing()) std::fprintf(stderr, "alloc %zu (live %zu)\n", n, live + n);
    if (first == SIZE_MAX) first = n;
    FUZZ_CHECK(sizes.emplace(p, n).second);
    live += n;
    if (live > peak) peak = live;
  }
  void remove(void* p, size_t n) {
    if (tracing()) std::fprintf(stderr, "free %zu (live %zu)\n", n, live - n);
    const auto it = sizes.find(p);
    FUZZ_CHECK(it != sizes.end() && it->second == n);
    sizes.erase(it);
    live -= n;
  }
  static void* do_malloc(void* ctx, size_t size) {
    void* p = std::malloc(size == 0 ? 1 : size);
    if (p != nullptr) static_cast<counting_allocator*>(ctx)->add(p, size);
    return p;
  }
  static void* do_realloc(void* ctx, void* p, size_t old_size, size_t size) {
    auto* self = static_cast<counting_allocator*>(ctx);
    if (tracing()) std::fprintf(stderr, "realloc %zu -> %zu\n", old_size, size);
    if (p == nullptr) return do_malloc(ctx, size);
    // Always moves (a stale pointer kept by the library shows up under
    // ASan), but counts as the library's budget does: the block changes
    // from old_size to size (whether a realloc moves is the hook's business).
    void* q = std::malloc(size == 0 ? 1 : size);
    if (q == nullptr) return nullptr;
    std::memcpy(q, p, old_size < size ? old_size : size);
    self->remove(p, old_size);
    self->add(q, size);
    std::free(p);
    return q;
  }
  static void do_free(void* ctx, void* p, size_t size) {
    if (p == nullptr) return;
    static_cast<counting_allocator*>(ctx)->remove(p, size);
    std::free(p);
  }
};

/// What the input asks for.
struct setup {
  uint32_t flags = 0;      ///< CBOR_FAST_DECODE_*
  bool doc_first = false;  ///< sequence: cbor_seq_next_doc on even items
  bool old_layout = false;
  bool via_configure = false;  ///< readers set up by cbor_reader_configure()
  uint32_t max_depth = 0;
  uint64_t max_string_length = 0;
  uint64_t max_container_items = 0;
  uint64_t max_items = 0;
  uint64_t max_memory = 0;
};

cbor_fast_decode_options decode_options(const setup& s, const cbor_fast_allocator* alloc,
                                        bool budget) {
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  o.max_depth = s.max_depth;
  o.alloc = alloc;
  o.max_string_length = s.max_string_length;
  o.max_container_items = s.max_container_items;
  o.max_items = s.max_items;
  o.max_memory = budget ? s.max_memory : 0;
  if (s.old_layout) o.struct_size = 0;
  return o;
}

/// The reader settings equal to the decode options, through one of the two
/// surfaces (0 is the default on both): cbor_reader_configure() with the
/// decode options themselves, or one cbor_reader_set() per option.
void configure(cbor_reader* r, const setup& s) {
  if (s.via_configure) {
    const cbor_fast_decode_options o = decode_options(s, nullptr, false);
    const uint32_t checks =
        s.flags & (CBOR_FAST_DECODE_VALIDATE_UTF8 | CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS |
                   CBOR_FAST_DECODE_DETERMINISTIC);
    FUZZ_CHECK(cbor_reader_configure(r, checks, &o) == CBOR_FAST_OK);
    return;
  }
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_MAX_DEPTH, s.max_depth) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_VALIDATE_UTF8,
                             (s.flags & CBOR_FAST_DECODE_VALIDATE_UTF8) != 0) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_REJECT_DUPLICATE_KEYS,
                             (s.flags & CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS) != 0) ==
             CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_DETERMINISTIC,
                             (s.flags & CBOR_FAST_DECODE_DETERMINISTIC) != 0) == CBOR_FAST_OK);
  // The 0.1 layout has no other limit: the reader keeps its defaults.
  const bool all = !s.old_layout;
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_MAX_STRING_LENGTH, all ? s.max_string_length : 0) ==
             CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_MAX_CONTAINER_ITEMS,
                             all ? s.max_container_items : 0) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_reader_set(r, CBOR_FAST_OPT_MAX_ITEMS, all ? s.max_items : 0) == CBOR_FAST_OK);
}

cbor_fast::reader_options cxx_options(const setup& s) {
  cbor_fast::reader_options o;  // 0 in a limit is its default here too
  o.max_depth = s.max_depth;
  o.validate_utf8 = (s.flags & CBOR_FAST_DECODE_VALIDATE_UTF8) != 0;
  o.reject_duplicate_keys = (s.flags & CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS) != 0;
  o.deterministic = (s.flags & CBOR_FAST_DECODE_DETERMINISTIC) != 0;
  if (!s.old_layout) {
    o.max_string_length = s.max_string_length;
    o.max_container_items = s.max_container_items;
    o.max_items = s.max_items;
  }
  return o;
}

/// A result: status, error offset, and for ok the bytes the item took.
struct outcome {
  cbor_fast_status status = CBOR_FAST_OK;
  size_t offset = 0;  ///< error offset, or the end of the item
};

bool operator==(const outcome& a, const outcome& b) {
  return a.status == b.status && a.offset == b.offset;
}

/// One top-level item through a C reader, next() by next(): ok with the
/// offset after it, end, or the error with its offset.
outcome reader_item(const uint8_t* data, size_t size, const setup& s) {
  cbor_reader* r = nullptr;
  FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &r) == CBOR_FAST_OK);
  configure(r, s);
  outcome out;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  for (;;) {
    const cbor_fast_status st = cbor_reader_next(r, &it);
    if (st != CBOR_FAST_OK) {
      out.status = st;
      if (st != CBOR_FAST_END) {
        cbor_fast_error e = CBOR_FAST_ERROR_INIT;
        FUZZ_CHECK(cbor_reader_error(r, &e) == st);
        out.offset = e.offset;
      }
      break;
    }
    if (cbor_reader_depth(r) == 0) {
      out.offset = cbor_reader_offset(r);
      break;
    }
  }
  cbor_reader_free(r);
  return out;
}

void report(const char* what, const outcome& got, const outcome& want, const uint8_t* data,
            size_t size) {
  std::fprintf(stderr, "%s: status %d offset %zu, reader: status %d offset %zu\ninput %s\n", what,
               int(got.status), got.offset, int(want.status), want.offset, hex(data, size).c_str());
  FUZZ_FAIL(what);
}

/// The decoded document against the C++ reader's items, then encoded,
/// decoded again and compared.
void check_document(const cbor_doc* doc, const uint8_t* data, size_t size, const setup& s) {
  const std::vector<event> events = doc_events(cbor_doc_root(doc));
  size_t nodes = 0;
  for (const event& e : events) nodes += e.type != cbor_fast::item_type::end;
  FUZZ_CHECK(nodes == cbor_doc_node_count(doc));

  cbor_fast::reader r(data, size, cxx_options(s));
  std::vector<event> expected;
  FUZZ_CHECK(read_item_events(r, expected) == cbor_fast::status::ok);
  FUZZ_CHECK(r.offset() == cbor_doc_encoded_size(doc));
  check_same_events(expected, events, {true, true}, "document vs reader");

  const std::vector<uint8_t> same = encode_doc(doc, CBOR_FAST_ENCODE_NONE);
  cbor_doc* again = nullptr;
  FUZZ_CHECK(cbor_decode(same.data(), same.size(), CBOR_FAST_DECODE_EXACT, nullptr, &again,
                         nullptr) == CBOR_FAST_OK);
  check_same_events(events, doc_events(cbor_doc_root(again)), {false, true},
                    "decode(encode(document))");
  cbor_doc_free(again);
  if ((s.flags & CBOR_FAST_DECODE_DETERMINISTIC) != 0) {
    // A deterministic input is its own encoding.
    FUZZ_CHECK(same.size() == cbor_doc_encoded_size(doc) &&
               std::memcmp(same.data(), data, same.size()) == 0);
  }

  // Preferred serialization passes every deterministic rule but key order.
  const std::vector<uint8_t> preferred = encode_doc(doc, CBOR_FAST_ENCODE_PREFERRED);
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status st =
      cbor_decode(preferred.data(), preferred.size(),
                  CBOR_FAST_DECODE_EXACT | CBOR_FAST_DECODE_DETERMINISTIC, nullptr, &again, &e);
  FUZZ_CHECK(st == CBOR_FAST_OK || st == CBOR_FAST_ERR_UNSORTED_KEYS ||
             st == CBOR_FAST_ERR_DUPLICATE_KEY);
  if (st == CBOR_FAST_OK)
    check_same_events(events, doc_events(cbor_doc_root(again)), {false, false},
                      "decode(encode(document, PREFERRED))");
  cbor_doc_free(again);
}

void check_decode(const uint8_t* data, size_t size, const setup& s) {
  // The reference: one item, then nothing (EXACT).
  outcome want = reader_item(data, size, s);
  if (want.status == CBOR_FAST_OK && (s.flags & CBOR_FAST_DECODE_EXACT) != 0 && want.offset < size)
    want = {CBOR_FAST_ERR_TRAILING_BYTES, want.offset};

  counting_allocator counter;
  const bool budget = s.max_memory != 0 && !s.old_layout;
  cbor_fast_decode_options o = decode_options(s, &counter.hooks, true);
  cbor_doc* doc = nullptr;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status st = cbor_decode(data, size, s.flags, &o, &doc, &e);
  FUZZ_CHECK(e.code == st && (st == CBOR_FAST_OK) == (doc != nullptr));
  // The cbor_doc handle, allocated first through the same hooks, is outside
  // the budget (cbor_fast.h lists what max_memory covers: node array,
  // strings, nesting and key tables). It is a small fixed size.
  FUZZ_CHECK(counter.first == SIZE_MAX || counter.first <= 256);
  const size_t handle = counter.first == SIZE_MAX ? 0 : counter.first;
  if (budget && counter.peak > s.max_memory + handle) {
    std::fprintf(stderr, "peak %zu bytes (handle %zu), max_memory %llu, status %d\n", counter.peak,
                 handle, static_cast<unsigned long long>(s.max_memory), int(st));
    FUZZ_FAIL("the decoder held more than max_memory");
  }
  outcome got{st, st == CBOR_FAST_OK ? cbor_doc_encoded_size(doc) : e.offset};
  if (st == CBOR_FAST_END) got.offset = 0;
  if (st == CBOR_FAST_ERR_MEMORY_BUDGET) {
    FUZZ_CHECK(budget && e.offset <= size);
    FUZZ_CHECK(counter.live == 0);
    // Without the budget: the reader's result.
    o = decode_options(s, &counter.hooks, false);
    counter.reset_peak();
    const cbor_fast_status st2 = cbor_decode(data, size, s.flags, &o, &doc, &e);
    FUZZ_CHECK(e.code == st2 && (st2 == CBOR_FAST_OK) == (doc != nullptr));
    got = {st2, st2 == CBOR_FAST_OK ? cbor_doc_encoded_size(doc) : e.offset};
    if (st2 == CBOR_FAST_END) got.offset = 0;
    if (!(got == want)) report("cbor_decode without its budget differs", got, want, data, size);
  } else if (!(got == want)) {
    report("cbor_decode differs", got, want, data, size);
  }
  if (doc != nullptr) {
    check_document(doc, data, size, s);
    cbor_doc_free(doc);
  }
  FUZZ_CHECK(counter.live == 0 && counter.sizes.empty());
}

/// The reference for a sequence: a fresh reader per item.
struct seq_reference {
  std::vector<size_t> offsets;
  std::vector<size_t> lengths;
  outcome final;  ///< end, or the error at its absolute offset
};

/// Whether item n of the sequence is taken with cbor_seq_next_doc.
bool as_document(size_t n, const setup& s) { return (n % 2 == 0) == s.doc_first; }

/// Every limit applies per item, max_items too, whether the item becomes a
/// document or is only checked.
seq_reference reference_sequence(const uint8_t* data, size_t size, const setup& s) {
  seq_reference ref;
  size_t at = 0;
  for (;;) {
    const outcome o = reader_item(data + at, size - at, s);
    if (o.status != CBOR_FAST_OK) {
      ref.final = {o.status, o.status == CBOR_FAST_END ? 0 : at + o.offset};
      return ref;
    }
    ref.offsets.push_back(at);
    ref.lengths.push_back(o.offset);
    at += o.offset;
  }
}

/// One reader over the whole sequence, an item per cbor_reader_skip, stops
/// where a fresh reader per item does: every limit, max_items too (since
/// 0.5), bounds each top-level item, so nothing carries over between items.
void check_one_reader(const uint8_t* data, size_t size, const setup& s, const seq_reference& ref) {
  cbor_reader* r = nullptr;
  FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &r) == CBOR_FAST_OK);
  configure(r, s);
  size_t n = 0;
  for (;;) {
    const cbor_fast_status st = cbor_reader_skip(r);
    if (st != CBOR_FAST_OK) {
      outcome got{st, 0};
      if (st != CBOR_FAST_END) {
        cbor_fast_error e = CBOR_FAST_ERROR_INIT;
        FUZZ_CHECK(cbor_reader_error(r, &e) == st);
        got.offset = e.offset;
      }
      if (!(got == ref.final)) report("one reader over the sequence", got, ref.final, data, size);
      FUZZ_CHECK(n == ref.offsets.size());
      break;
    }
    FUZZ_CHECK(n < ref.offsets.size());
    FUZZ_CHECK(cbor_reader_offset(r) == ref.offsets[n] + ref.lengths[n]);
    ++n;
  }
  cbor_reader_free(r);
}

void check_sequence(const uint8_t* data, size_t size, const setup& s) {
  const seq_reference ref = reference_sequence(data, size, s);
  check_one_reader(data, size, s, ref);
  counting_allocator counter;
  const cbor_fast_decode_options o = decode_options(s, &counter.hooks, true);
  const uint32_t flags = s.flags & ~uint32_t(CBOR_FAST_DECODE_EXACT);
  cbor_seq* seq = nullptr;
  FUZZ_CHECK(cbor_seq_new(data, size, &o, &seq) == CBOR_FAST_OK);
  size_t n = 0;
  for (;;) {
    const bool as_doc = as_document(n, s);
    cbor_fast_status st;
    size_t off = 0, len = 0;
    if (as_doc) {
      cbor_doc* d = nullptr;
      counter.reset_peak();
      counter.first = SIZE_MAX;
      const size_t held = counter.live;
      st = cbor_seq_next_doc(seq, flags, &d);
      // As in check_decode: the handle is outside the budget.
      FUZZ_CHECK(counter.first == SIZE_MAX || counter.first <= 256);
      const size_t handle = counter.first == SIZE_MAX ? 0 : counter.first;
      FUZZ_CHECK((st == CBOR_FAST_OK) == (d != nullptr));
      if (st == CBOR_FAST_ERR_MEMORY_BUDGET) {
        FUZZ_CHECK(s.max_memory != 0 && !s.old_layout);
        break;  // the reader has no budget to compare with
      }
      if (st == CBOR_FAST_OK) {
        off = cbor_node_offset(cbor_doc_root(d));
        len = cbor_doc_encoded_size(d) - off;
      }
      cbor_doc_free(d);
      // What is still held after the document is gone belongs to the
      // iterator (its reader's nesting stack, grown on demand): outside the
      // per-document budget.
      const size_t iterator_growth = counter.live - held;
      if (s.max_memory != 0 && !s.old_layout &&
          counter.peak - held > s.max_memory + handle + iterator_growth) {
        std::fprintf(stderr,
                     "sequence document: peak %zu bytes (handle %zu, iterator %zu), "
                     "max_memory %llu\n",
                     counter.peak - held, handle, iterator_growth,
                     static_cast<unsigned long long>(s.max_memory));
        FUZZ_FAIL("a sequence document held more than max_memory");
      }
    } else {
      st = cbor_seq_next(seq, flags, &off, &len);
    }
    if (st != CBOR_FAST_OK) {
      cbor_fast_error e = CBOR_FAST_ERROR_INIT;
      FUZZ_CHECK(cbor_seq_error(seq, &e) == (st == CBOR_FAST_END ? CBOR_FAST_OK : st));
      const outcome got{st, st == CBOR_FAST_END ? 0 : e.offset};
      if (!(got == ref.final)) report("cbor_seq differs", got, ref.final, data, size);
      FUZZ_CHECK(n == ref.offsets.size());
      if (st != CBOR_FAST_END) {
        const size_t start = n == 0 ? 0 : ref.offsets[n - 1] + ref.lengths[n - 1];
        FUZZ_CHECK(e.item_offset == start);
      }
      break;
    }
    FUZZ_CHECK(n < ref.offsets.size());
    FUZZ_CHECK(off == ref.offsets[n] && len == ref.lengths[n]);
    ++n;
  }
  cbor_seq_free(seq);
  FUZZ_CHECK(counter.live == 0);
}

}  // namespace

/// The whole input through cbor_reader_next, then through cbor_reader_next_batch
/// in batches of `capacity`: the same items (every field), the same final
/// status (repeated by a further call), error and offset.
void check_batch(const uint8_t* data, size_t size, const setup& s, size_t capacity) {
  struct run {
    std::vector<cbor_fast_item> items;
    cbor_fast_status status = CBOR_FAST_OK;
    cbor_fast_error error = CBOR_FAST_ERROR_INIT;
    size_t offset = 0;
  };
  auto finish = [](run& out, cbor_reader* r, cbor_fast_status st) {
    out.status = st;
    if (st != CBOR_FAST_END) FUZZ_CHECK(cbor_reader_error(r, &out.error) == st);
    out.offset = cbor_reader_offset(r);
  };
  run single;
  {
    cbor_reader* r = nullptr;
    FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &r) == CBOR_FAST_OK);
    configure(r, s);
    cbor_fast_item it = CBOR_FAST_ITEM_INIT;
    cbor_fast_status st;
    while ((st = cbor_reader_next(r, &it)) == CBOR_FAST_OK) single.items.push_back(it);
    finish(single, r, st);
    cbor_reader_free(r);
  }
  run batched;
  {
    cbor_reader* r = nullptr;
    FUZZ_CHECK(cbor_reader_new(data, size, nullptr, &r) == CBOR_FAST_OK);
    configure(r, s);
    std::vector<cbor_fast_item> buffer(capacity);
    buffer[0] = cbor_fast_item CBOR_FAST_ITEM_INIT;
    cbor_fast_status st;
    size_t n = 0;
    while ((st = cbor_reader_next_batch(r, buffer.data(), capacity, &n)) == CBOR_FAST_OK) {
      FUZZ_CHECK(n >= 1 && n <= capacity);
      batched.items.insert(batched.items.end(), buffer.begin(), buffer.begin() + long(n));
    }
    FUZZ_CHECK(n == 0);
    finish(batched, r, st);
    FUZZ_CHECK(cbor_reader_next_batch(r, buffer.data(), capacity, &n) == st && n == 0);
    cbor_reader_free(r);
  }
  FUZZ_CHECK(batched.items.size() == single.items.size());
  for (size_t i = 0; i < single.items.size(); ++i)
    FUZZ_CHECK(std::memcmp(&batched.items[i], &single.items[i], sizeof(cbor_fast_item)) == 0);
  FUZZ_CHECK(batched.status == single.status && batched.offset == single.offset &&
             batched.error.offset == single.error.offset &&
             batched.error.item_offset == single.error.item_offset &&
             batched.error.depth == single.error.depth);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  auto take = [&]() -> uint8_t {
    if (size == 0) return 0;
    --size;
    return *data++;
  };
  setup s;
  const uint8_t f = take();
  const uint8_t mask = take();
  s.flags = ((f & 1) ? CBOR_FAST_DECODE_VALIDATE_UTF8 : 0u) |
            ((f & 2) ? CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS : 0u) |
            ((f & 4) ? CBOR_FAST_DECODE_DETERMINISTIC : 0u) |
            ((f & 8) ? CBOR_FAST_DECODE_COPY_STRINGS : 0u) |
            ((f & 16) ? CBOR_FAST_DECODE_EXACT : 0u);
  s.doc_first = (f & 32) != 0;
  s.via_configure = (f & 64) != 0;
  if (mask & 1) s.max_depth = take();
  if (mask & 2) s.max_string_length = take();
  if (mask & 4) s.max_container_items = take();
  if (mask & 8) s.max_items = take();
  if (mask & 16) {
    const uint64_t v = take();
    s.max_memory = 1 + 4 * v * v;
  }
  s.old_layout = (mask & 32) != 0;
  // An exact-size heap copy: ASan sees any read past the end.
  const std::vector<uint8_t> copy(data, data + size);
  const uint8_t* in = copy.empty() ? nullptr : copy.data();

  check_decode(in, size, s);
  check_sequence(in, size, s);
  check_batch(in, size, s, size % 5 + 1);
  return 0;
}
