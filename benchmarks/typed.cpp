// Struct mapping, bulk number arrays and RFC 8746 typed arrays (issue 13):
// its own executable (cbor_fast_bench_typed), because it replaces the global
// operator new to count allocations per operation.
//
//   record/*   a cbor-gen-like record: ints, text, bytes, a nested struct, a
//              vector of 8 structs, a small map. decode: from_cbor() into an
//              owning struct and into a borrowing one, a hand-written
//              reader::next() loop into the borrowing one, nlohmann from_cbor()
//              + get<T>(); encode: to_cbor(), a hand-written writer sequence,
//              nlohmann to_json + to_cbor.
//   bulk/*     100k small ints, 100k uint16, 100k uint32, 100k float64 into a caller array:
//              reader::read_array() against a visit() loop collecting the values.
//   typed/*    an RFC 8746 float64 array of 1M elements: read_array() into
//              double[] and write_typed_array() from it, against memcpy.
//
// Counters: allocs/op (operator new calls, plus the library's own allocator
// calls: every reader and writer here is given a counting allocator, or uses
// from_cbor/to_cbor's buffers on the C++ stack). Each benchmark checks its
// result once before timing.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "cbor_fast/mapping.hpp"
#include "cbor_fast/typed_array.hpp"

#if defined(CBOR_FAST_BENCH_NLOHMANN)
#include <nlohmann/json.hpp>
#endif

namespace {
size_t g_allocs = 0;
}

// The replacements pair malloc with free; GCC cannot see that once inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(size_t size) {
  ++g_allocs;
  void* p = std::malloc(size != 0 ? size : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

void* count_malloc(void*, size_t n) {
  ++g_allocs;
  return std::malloc(n);
}
void* count_realloc(void*, void* p, size_t, size_t n) {
  ++g_allocs;
  return std::realloc(p, n);
}
void count_free(void*, void* p, size_t) { std::free(p); }
const cbor_fast::allocator k_counting{&count_malloc, &count_realloc, &count_free, nullptr};

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "bench_typed: check failed: %s\n", what);
  std::exit(1);
}

}  // namespace

// ---- the record -----------------------------------------------------------------

namespace rec {

struct sub {
  uint64_t id = 0;
  std::string name;
  int32_t score = 0;
  bool active = false;
};
CBOR_FAST_FIELDS(sub, id, name, score, active)

struct meta {
  std::string author;
  uint32_t version = 0;
};
CBOR_FAST_FIELDS(meta, author, version)

struct record {
  uint64_t id = 0;
  int64_t delta = 0;
  std::string title;
  std::vector<uint8_t> payload;
  meta info;
  std::vector<sub> items;
  std::map<std::string, int64_t> tags;
  double ratio = 0;
};
CBOR_FAST_FIELDS(record, id, delta, title, payload, info, items, tags, ratio)

// The same record, borrowed: views into the input, a fixed array of the 8
// items, and the small map as a struct of its (known) keys.
struct sub_b {
  uint64_t id = 0;
  std::string_view name;
  int32_t score = 0;
  bool active = false;
};
CBOR_FAST_FIELDS(sub_b, id, name, score, active)

struct meta_b {
  std::string_view author;
  uint32_t version = 0;
};
CBOR_FAST_FIELDS(meta_b, author, version)

struct tags_b {
  std::optional<int64_t> alpha;
  std::optional<int64_t> beta;
  std::optional<int64_t> gamma;
};
CBOR_FAST_FIELDS(tags_b, alpha, beta, gamma)

struct record_b {
  uint64_t id = 0;
  int64_t delta = 0;
  std::string_view title;
  cbor_fast::byte_view payload;
  meta_b info;
  std::array<sub_b, 8> items;
  tags_b tags;
  double ratio = 0;
};
CBOR_FAST_FIELDS(record_b, id, delta, title, payload, info, items, tags, ratio)

record sample() {
  record r;
  r.id = 1234567890123ull;
  r.delta = -42;
  r.title = "The quick brown fox jumps over the lazy dog";
  r.payload.assign(48, 0xab);
  r.info = meta{"someone@example.org", 7};
  for (int i = 0; i < 8; ++i)
    r.items.push_back(
        sub{uint64_t(1000 + i), "item name number " + std::to_string(i), i * 37 - 100, i % 2 == 0});
  r.tags = {{"alpha", 1}, {"beta", -2}, {"gamma", 300000}};
  r.ratio = 0.6180339887;
  return r;
}

uint64_t fold(const record_b& r) {
  uint64_t h = r.id ^ uint64_t(r.delta) ^ r.title.size() ^ r.payload.size ^ r.info.version;
  for (const auto& s : r.items) h = h * 31 + s.id + s.name.size() + uint64_t(s.score) + s.active;
  h += uint64_t(*r.tags.alpha + *r.tags.beta + *r.tags.gamma);
  return h;
}
uint64_t fold(const record& r) {
  uint64_t h = r.id ^ uint64_t(r.delta) ^ r.title.size() ^ r.payload.size() ^ r.info.version;
  for (const auto& s : r.items) h = h * 31 + s.id + s.name.size() + uint64_t(s.score) + s.active;
  h += uint64_t(r.tags.at("alpha") + r.tags.at("beta") + r.tags.at("gamma"));
  return h;
}

// ---- the hand-written reader::next() loop for record_b --------------------------

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::status;

bool key_is(const item& k, std::string_view name) {
  return k.type == item_type::text_string && !k.is_indefinite() && k.text() == name;
}
bool get_u64(reader& r, uint64_t& out) {
  item it;
  if (r.next(it) != status::ok || it.type != item_type::unsigned_int) return false;
  out = it.value();
  return true;
}
bool get_i64(reader& r, int64_t& out) {
  item it;
  return r.next(it) == status::ok && it.get_int64(&out);
}
bool get_i32(reader& r, int32_t& out) {
  int64_t v;
  if (!get_i64(r, v) || v < INT32_MIN || v > INT32_MAX) return false;
  out = int32_t(v);
  return true;
}
bool get_text(reader& r, std::string_view& out) {
  item it;
  if (r.next(it) != status::ok || it.type != item_type::text_string || it.is_indefinite())
    return false;
  out = it.text();
  return true;
}
bool get_end(reader& r) {
  item it;
  return r.next(it) == status::ok && it.type == item_type::end;
}
bool read_sub(reader& r, sub_b& s) {
  item h;
  if (r.next(h) != status::ok || h.type != item_type::map || h.is_indefinite()) return false;
  unsigned seen = 0;
  for (uint64_t i = 0; i < h.count(); ++i) {
    item k;
    if (r.next(k) != status::ok) return false;
    if (key_is(k, "id")) {
      if (!get_u64(r, s.id)) return false;
      seen |= 1;
    } else if (key_is(k, "name")) {
      if (!get_text(r, s.name)) return false;
      seen |= 2;
    } else if (key_is(k, "score")) {
      if (!get_i32(r, s.score)) return false;
      seen |= 4;
    } else if (key_is(k, "active")) {
      item b;
      if (r.next(b) != status::ok || b.type != item_type::boolean) return false;
      s.active = b.boolean_value();
      seen |= 8;
    } else if (r.skip() != status::ok) {
      return false;
    }
  }
  return get_end(r) && seen == 15;
}
bool read_record(const uint8_t* data, size_t size, record_b& out) {
  // The reader's stack in a buffer on the C++ stack, as from_cbor() keeps it.
  cbor_fast::detail::inline_stack stack(&k_counting);
  cbor_fast::reader_options opt;
  opt.alloc = &stack.hooks;
  reader r(data, size, opt);
  item h;
  if (r.next(h) != status::ok || h.type != item_type::map || h.is_indefinite()) return false;
  unsigned seen = 0;
  for (uint64_t i = 0; i < h.count(); ++i) {
    item k;
    if (r.next(k) != status::ok) return false;
    if (key_is(k, "id")) {
      if (!get_u64(r, out.id)) return false;
      seen |= 1;
    } else if (key_is(k, "delta")) {
      if (!get_i64(r, out.delta)) return false;
      seen |= 2;
    } else if (key_is(k, "title")) {
      if (!get_text(r, out.title)) return false;
      seen |= 4;
    } else if (key_is(k, "payload")) {
      item b;
      if (r.next(b) != status::ok || b.type != item_type::byte_string || b.is_indefinite())
        return false;
      out.payload = b.bytes();
      seen |= 8;
    } else if (key_is(k, "info")) {
      item m;
      if (r.next(m) != status::ok || m.type != item_type::map || m.is_indefinite()) return false;
      for (uint64_t j = 0; j < m.count(); ++j) {
        item mk;
        if (r.next(mk) != status::ok) return false;
        if (key_is(mk, "author")) {
          if (!get_text(r, out.info.author)) return false;
        } else if (key_is(mk, "version")) {
          uint64_t v;
          if (!get_u64(r, v) || v > UINT32_MAX) return false;
          out.info.version = uint32_t(v);
        } else if (r.skip() != status::ok) {
          return false;
        }
      }
      if (!get_end(r)) return false;
      seen |= 16;
    } else if (key_is(k, "items")) {
      item a;
      if (r.next(a) != status::ok || a.type != item_type::array || a.count() != 8) return false;
      for (auto& s : out.items)
        if (!read_sub(r, s)) return false;
      if (!get_end(r)) return false;
      seen |= 32;
    } else if (key_is(k, "tags")) {
      item m;
      if (r.next(m) != status::ok || m.type != item_type::map || m.is_indefinite()) return false;
      for (uint64_t j = 0; j < m.count(); ++j) {
        item mk;
        if (r.next(mk) != status::ok) return false;
        int64_t v;
        if (key_is(mk, "alpha")) {
          if (!get_i64(r, v)) return false;
          out.tags.alpha = v;
        } else if (key_is(mk, "beta")) {
          if (!get_i64(r, v)) return false;
          out.tags.beta = v;
        } else if (key_is(mk, "gamma")) {
          if (!get_i64(r, v)) return false;
          out.tags.gamma = v;
        } else if (r.skip() != status::ok) {
          return false;
        }
      }
      if (!get_end(r)) return false;
      seen |= 64;
    } else if (key_is(k, "ratio")) {
      item f;
      if (r.next(f) != status::ok || f.type != item_type::floating) return false;
      out.ratio = f.float_value();
      seen |= 128;
    } else if (r.skip() != status::ok) {
      return false;
    }
  }
  return get_end(r) && seen == 255 && r.at_end();
}

// ---- hand-written encoding with the writer ----------------------------------------

status write_record(cbor_fast::writer& w, const record& r) {
  w.begin_map(8);
  w.write_text("id"), w.write_uint(r.id);
  w.write_text("delta"), w.write_int(r.delta);
  w.write_text("title"), w.write_text(r.title);
  w.write_text("payload"), w.write_bytes(r.payload.data(), r.payload.size());
  w.write_text("info"), w.begin_map(2);
  w.write_text("author"), w.write_text(r.info.author);
  w.write_text("version"), w.write_uint(r.info.version);
  w.end();
  w.write_text("items"), w.begin_array(r.items.size());
  for (const sub& s : r.items) {
    w.begin_map(4);
    w.write_text("id"), w.write_uint(s.id);
    w.write_text("name"), w.write_text(s.name);
    w.write_text("score"), w.write_int(s.score);
    w.write_text("active"), w.write_bool(s.active);
    w.end();
  }
  w.end();
  w.write_text("tags"), w.begin_map(r.tags.size());
  for (const auto& kv : r.tags) w.write_text(kv.first), w.write_int(kv.second);
  w.end();
  w.write_text("ratio"), w.write_float(r.ratio);
  w.end();
  return w.finish();
}

}  // namespace rec

#if defined(CBOR_FAST_BENCH_NLOHMANN)
namespace rec {
struct sub_n {
  uint64_t id = 0;
  std::string name;
  int32_t score = 0;
  bool active = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(sub_n, id, name, score, active)
struct meta_n {
  std::string author;
  uint32_t version = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(meta_n, author, version)
struct record_n {
  uint64_t id = 0;
  int64_t delta = 0;
  std::string title;
  nlohmann::json::binary_t payload;
  meta_n info;
  std::vector<sub_n> items;
  std::map<std::string, int64_t> tags;
  double ratio = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(record_n, id, delta, title, payload, info, items, tags, ratio)
uint64_t fold(const record_n& r) {
  uint64_t h = r.id ^ uint64_t(r.delta) ^ r.title.size() ^ r.payload.size() ^ r.info.version;
  for (const auto& s : r.items) h = h * 31 + s.id + s.name.size() + uint64_t(s.score) + s.active;
  h += uint64_t(r.tags.at("alpha") + r.tags.at("beta") + r.tags.at("gamma"));
  return h;
}
}  // namespace rec
#endif

namespace {

using cbor_fast::status;

const std::vector<uint8_t>& record_bytes() {
  static const std::vector<uint8_t> bytes = cbor_fast::to_cbor(rec::sample());
  return bytes;
}

void per_op(benchmark::State& state, size_t allocs) {
  state.counters["allocs/op"] = benchmark::Counter(double(allocs) / double(state.iterations()));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(record_bytes().size()));
}

void BM_record_decode_mapping(benchmark::State& state) {
  const auto& in = record_bytes();
  const uint64_t want = rec::fold(rec::sample());
  {
    rec::record r;
    if (cbor_fast::from_cbor(in.data(), in.size(), r) != status::ok || rec::fold(r) != want)
      die("record/decode mapping");
  }
  const size_t before = g_allocs;
  for (auto _ : state) {
    rec::record r;
    status s = cbor_fast::from_cbor(in.data(), in.size(), r);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(r.id);
  }
  per_op(state, g_allocs - before);
}

void BM_record_decode_mapping_borrowed(benchmark::State& state) {
  const auto& in = record_bytes();
  const uint64_t want = rec::fold(rec::sample());
  {
    rec::record_b r;
    if (cbor_fast::from_cbor(in.data(), in.size(), r) != status::ok || rec::fold(r) != want)
      die("record/decode mapping borrowed");
  }
  const size_t before = g_allocs;
  for (auto _ : state) {
    rec::record_b r;
    status s = cbor_fast::from_cbor(in.data(), in.size(), r);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(r.id);
  }
  per_op(state, g_allocs - before);
}

void BM_record_decode_next_loop(benchmark::State& state) {
  const auto& in = record_bytes();
  const uint64_t want = rec::fold(rec::sample());
  {
    rec::record_b r;
    if (!rec::read_record(in.data(), in.size(), r) || rec::fold(r) != want)
      die("record/decode next() loop");
  }
  const size_t before = g_allocs;
  for (auto _ : state) {
    rec::record_b r;
    bool ok = rec::read_record(in.data(), in.size(), r);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(r.id);
  }
  per_op(state, g_allocs - before);
}

void BM_record_encode_mapping(benchmark::State& state) {
  const rec::record r = rec::sample();
  if (cbor_fast::to_cbor(r) != record_bytes()) die("record/encode mapping");
  const size_t before = g_allocs;
  for (auto _ : state) {
    std::vector<uint8_t> out = cbor_fast::to_cbor(r);
    benchmark::DoNotOptimize(out.data());
  }
  per_op(state, g_allocs - before);
}

void BM_record_encode_mapping_buffer(benchmark::State& state) {
  const rec::record r = rec::sample();
  std::vector<uint8_t> buf(4096);
  {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    if (cbor_fast::to_cbor(r, w) != status::ok || w.finish() != status::ok ||
        std::vector<uint8_t>(buf.data(), buf.data() + w.size()) != record_bytes())
      die("record/encode mapping into a buffer");
  }
  const size_t before = g_allocs;
  for (auto _ : state) {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    status s = cbor_fast::to_cbor(r, w);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(buf.data());
  }
  per_op(state, g_allocs - before);
}

void BM_record_encode_writer(benchmark::State& state) {
  const rec::record r = rec::sample();
  std::vector<uint8_t> buf(4096);
  {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    if (rec::write_record(w, r) != status::ok ||
        std::vector<uint8_t>(buf.data(), buf.data() + w.size()) != record_bytes())
      die("record/encode hand-written writer");
  }
  const size_t before = g_allocs;
  for (auto _ : state) {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    status s = rec::write_record(w, r);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(buf.data());
  }
  per_op(state, g_allocs - before);
}

#if defined(CBOR_FAST_BENCH_NLOHMANN)
void BM_record_decode_nlohmann(benchmark::State& state) {
  const auto& in = record_bytes();
  const uint64_t want = rec::fold(rec::sample());
  if (rec::fold(nlohmann::json::from_cbor(in).get<rec::record_n>()) != want)
    die("record/decode nlohmann");
  const size_t before = g_allocs;
  for (auto _ : state) {
    rec::record_n r = nlohmann::json::from_cbor(in).get<rec::record_n>();
    benchmark::DoNotOptimize(r.id);
  }
  per_op(state, g_allocs - before);
}

void BM_record_encode_nlohmann(benchmark::State& state) {
  const rec::record_n r = nlohmann::json::from_cbor(record_bytes()).get<rec::record_n>();
  // nlohmann writes the members in its own (sorted) key order: same size, other bytes.
  if (nlohmann::json::to_cbor(nlohmann::json(r)).size() != record_bytes().size())
    die("record/encode nlohmann");
  const size_t before = g_allocs;
  for (auto _ : state) {
    std::vector<uint8_t> out = nlohmann::json::to_cbor(nlohmann::json(r));
    benchmark::DoNotOptimize(out.data());
  }
  per_op(state, g_allocs - before);
}
#endif

// ---- bulk ---------------------------------------------------------------------------

constexpr size_t k_bulk = 100000;

std::vector<uint8_t> encode_uints(uint64_t (*value)(size_t)) {
  cbor_fast::writer w;
  w.begin_array(k_bulk);
  for (size_t i = 0; i < k_bulk; ++i) w.write_uint(value(i));
  w.end();
  if (w.finish() != status::ok) die("bulk input");
  return w.to_vector();
}
const std::vector<uint8_t>& small_ints() {
  static const auto v = encode_uints([](size_t i) { return uint64_t(i % 24); });
  return v;
}
const std::vector<uint8_t>& u32s() {
  static const auto v = encode_uints([](size_t i) { return uint64_t(65536 + i * 40009u); });
  return v;
}
const std::vector<uint8_t>& u16s() {
  static const auto v = encode_uints([](size_t i) { return uint64_t(256 + i * 7919u % 65280u); });
  return v;
}
const std::vector<uint8_t>& f64s() {
  static const std::vector<uint8_t> v = [] {
    cbor_fast::writer w;
    w.begin_array(k_bulk);
    for (size_t i = 0; i < k_bulk; ++i) w.write_float64(double(i) * 0.001 + 0.1);
    w.end();
    if (w.finish() != status::ok) die("bulk input");
    return w.to_vector();
  }();
  return v;
}

template <class T>
void bulk_read_array(benchmark::State& state, const std::vector<uint8_t>& in) {
  std::vector<T> out(k_bulk);
  cbor_fast::reader_options opt;
  opt.alloc = &k_counting;
  {
    cbor_fast::reader r(in.data(), in.size(), opt);
    size_t n = 0;
    if (r.read_array(out.data(), out.size(), &n) != status::ok || n != k_bulk)
      die("bulk read_array");
    // The same values as next() gives, element by element.
    cbor_fast::reader e(in.data(), in.size(), opt);
    cbor_fast::item it;
    if (e.next(it) != status::ok) die("bulk reference");
    for (size_t i = 0; i < k_bulk; ++i) {
      if (e.next(it) != status::ok) die("bulk reference");
      const T want =
          it.type == cbor_fast::item_type::floating ? T(it.float_value()) : T(it.value());
      if (out[i] != want) die("bulk read_array values");
    }
  }
  for (auto _ : state) {
    cbor_fast::reader r(in.data(), in.size(), opt);
    size_t n = 0;
    status s = r.read_array(out.data(), out.size(), &n);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.size()));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(k_bulk));
}

template <class T>
void bulk_visit(benchmark::State& state, const std::vector<uint8_t>& in) {
  std::vector<T> out(k_bulk);
  cbor_fast::reader_options opt;
  opt.alloc = &k_counting;
  auto run = [&]() noexcept {
    cbor_fast::reader r(in.data(), in.size(), opt);
    size_t n = 0;
    T* dst = out.data();
    const status s = r.visit([&](const cbor_fast::item& it) noexcept {
      if constexpr (std::is_same<T, double>::value) {
        if (it.type == cbor_fast::item_type::floating) dst[n++] = it.float_value();
      } else {
        if (it.type == cbor_fast::item_type::unsigned_int) dst[n++] = it.value();
      }
    });
    return s == status::ok ? n : 0;
  };
  if (run() != k_bulk) die("bulk visit");
  for (auto _ : state) {
    size_t n = run();
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in.size()));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(k_bulk));
}

void BM_bulk_small_read_array(benchmark::State& s) { bulk_read_array<uint64_t>(s, small_ints()); }
void BM_bulk_small_visit(benchmark::State& s) { bulk_visit<uint64_t>(s, small_ints()); }
void BM_bulk_u32_read_array(benchmark::State& s) { bulk_read_array<uint64_t>(s, u32s()); }
void BM_bulk_u32_visit(benchmark::State& s) { bulk_visit<uint64_t>(s, u32s()); }
void BM_bulk_u16_read_array(benchmark::State& s) { bulk_read_array<uint64_t>(s, u16s()); }
void BM_bulk_u16_visit(benchmark::State& s) { bulk_visit<uint64_t>(s, u16s()); }
void BM_bulk_f64_read_array(benchmark::State& s) { bulk_read_array<double>(s, f64s()); }
void BM_bulk_f64_visit(benchmark::State& s) { bulk_visit<double>(s, f64s()); }

// ---- RFC 8746 typed arrays -------------------------------------------------------------

constexpr size_t k_typed = 1000000;

const std::vector<double>& typed_values() {
  static const std::vector<double> v = [] {
    std::vector<double> x(k_typed);
    for (size_t i = 0; i < k_typed; ++i) x[i] = double(i) * 1e-3 - 7.5;
    return x;
  }();
  return v;
}
const std::vector<uint8_t>& typed_bytes() {
  static const std::vector<uint8_t> b = [] {
    cbor_fast::writer w;
    if (cbor_fast::write_typed_array(w, typed_values().data(), k_typed) != status::ok ||
        w.finish() != status::ok)
      die("typed input");
    return w.to_vector();
  }();
  return b;
}

void BM_typed_decode_read_array(benchmark::State& state) {
  const auto& in = typed_bytes();
  std::vector<double> out(k_typed);
  cbor_fast::reader_options opt;
  opt.alloc = &k_counting;
  {
    cbor_fast::reader r(in.data(), in.size(), opt);
    size_t n = 0;
    if (r.read_array(out.data(), out.size(), &n) != status::ok || out != typed_values())
      die("typed decode");
  }
  for (auto _ : state) {
    cbor_fast::reader r(in.data(), in.size(), opt);
    size_t n = 0;
    status s = r.read_array(out.data(), out.size(), &n);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(k_typed * 8));
}

void BM_typed_encode_write(benchmark::State& state) {
  const auto& v = typed_values();
  std::vector<uint8_t> buf(typed_bytes().size());
  {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    if (cbor_fast::write_typed_array(w, v.data(), v.size()) != status::ok || buf != typed_bytes())
      die("typed encode");
  }
  for (auto _ : state) {
    cbor_fast::writer w(buf.data(), buf.size(), &k_counting);
    status s = cbor_fast::write_typed_array(w, v.data(), v.size());
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(k_typed * 8));
}

void BM_typed_memcpy(benchmark::State& state) {
  const auto& v = typed_values();
  std::vector<double> out(k_typed);
  for (auto _ : state) {
    std::memcpy(out.data(), v.data(), k_typed * 8);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(k_typed * 8));
}

}  // namespace

BENCHMARK(BM_record_decode_mapping);
BENCHMARK(BM_record_decode_mapping_borrowed);
BENCHMARK(BM_record_decode_next_loop);
#if defined(CBOR_FAST_BENCH_NLOHMANN)
BENCHMARK(BM_record_decode_nlohmann);
#endif
BENCHMARK(BM_record_encode_mapping);
BENCHMARK(BM_record_encode_mapping_buffer);
BENCHMARK(BM_record_encode_writer);
#if defined(CBOR_FAST_BENCH_NLOHMANN)
BENCHMARK(BM_record_encode_nlohmann);
#endif
BENCHMARK(BM_bulk_small_read_array);
BENCHMARK(BM_bulk_small_visit);
BENCHMARK(BM_bulk_u32_read_array);
BENCHMARK(BM_bulk_u32_visit);
BENCHMARK(BM_bulk_u16_read_array);
BENCHMARK(BM_bulk_u16_visit);
BENCHMARK(BM_bulk_f64_read_array);
BENCHMARK(BM_bulk_f64_visit);
BENCHMARK(BM_typed_decode_read_array);
BENCHMARK(BM_typed_encode_write);
BENCHMARK(BM_typed_memcpy);

// `cbor_fast_bench_typed --ops NAME N`: N operations of one decoder and
// nothing else, for valgrind --tool=callgrind (instructions per operation =
// the difference of two runs with different N, divided by the difference).
namespace {
int run_ops(const std::string& name, long n) {
  const auto& in = record_bytes();
  uint64_t sink = 0;
  std::vector<uint64_t> out(k_bulk);
  const std::vector<uint8_t>* bulk = name.rfind("small_", 0) == 0 ? &small_ints()
                                     : name.rfind("u16_", 0) == 0 ? &u16s()
                                                                  : &u32s();
  // The operation by number, chosen once: comparing names in the loop would
  // add a few hundred instructions to every operation counted.
  static const char* const k_ops[] = {"small_read_array", "u32_read_array",   "small_visit",
                                      "u32_visit",        "encode_mapping",   "encode_writer",
                                      "mapping",          "mapping_borrowed", "next_loop",
                                      "nlohmann",         "u16_read_array",   "u16_visit"};
  int op = -1;
  for (int k = 0; k < int(sizeof k_ops / sizeof k_ops[0]); ++k)
    if (name == k_ops[k]) op = k;
#if !defined(CBOR_FAST_BENCH_NLOHMANN)
  if (op == 9) op = -1;
#endif
  if (op >= 10) op = op == 10 ? 0 : 2;  // the u16 input, the same loops
  if (op < 0) {
    std::fprintf(stderr, "unknown op %s\n", name.c_str());
    return 2;
  }
  for (long i = 0; i < n; ++i) {
    switch (op) {
      case 0:
      case 1: {
        cbor_fast::reader r(bulk->data(), bulk->size());
        size_t got = 0;
        sink += r.read_array(out.data(), out.size(), &got) == status::ok ? got : 0;
        break;
      }
      case 2:
      case 3: {
        cbor_fast::reader r(bulk->data(), bulk->size());
        size_t got = 0;
        uint64_t* dst = out.data();
        r.visit([&](const cbor_fast::item& it) noexcept {
          if (it.type == cbor_fast::item_type::unsigned_int) dst[got++] = it.value();
        });
        sink += got;
        break;
      }
      case 4:
      case 5: {
        static const rec::record src = rec::sample();
        static uint8_t buf[4096];
        cbor_fast::writer w(buf, sizeof buf);
        const status st = op == 4 ? cbor_fast::to_cbor(src, w) : rec::write_record(w, src);
        sink += st == status::ok ? w.size() : 0;
        break;
      }
      case 6: {
        rec::record r;
        sink += cbor_fast::from_cbor(in.data(), in.size(), r) == status::ok ? r.id : 0;
        break;
      }
      case 7: {
        rec::record_b r;
        sink += cbor_fast::from_cbor(in.data(), in.size(), r) == status::ok ? r.id : 0;
        break;
      }
      case 8: {
        rec::record_b r;
        sink += rec::read_record(in.data(), in.size(), r) ? r.id : 0;
        break;
      }
      default: {
#if defined(CBOR_FAST_BENCH_NLOHMANN)
        sink += nlohmann::json::from_cbor(in).get<rec::record_n>().id;
#endif
        break;
      }
    }
  }
  std::printf("%llu\n", static_cast<unsigned long long>(sink));
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--ops") return run_ops(argv[2], std::atol(argv[3]));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
