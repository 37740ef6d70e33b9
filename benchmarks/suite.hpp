// Registration helpers shared by the scenario files (scan, decode, encode, sequence).
//
// Every benchmark is named "<operation>/<implementation>/<input>" (run.py
// builds one table per operation from that). Each one runs its check once,
// before its first timing, and aborts the whole run with a message if any
// implementation saw other items than libcbor_fast's reference walk.
#ifndef CBOR_FAST_BENCH_SUITE_HPP
#define CBOR_FAST_BENCH_SUITE_HPP

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace cbor_fast_bench {

void register_scan(const std::vector<input>& inputs);
void register_decode(const std::vector<input>& inputs);
void register_encode(const std::vector<input>& inputs);
void register_sequence(const std::vector<input>& inputs);
void register_canonical(const std::vector<input>& inputs);

/// Aborts unless `got` equals the input's reference checksum.
inline void expect_sum(const std::string& what, const input& in, const checksum& got, bool ok) {
  if (!ok) die(what + "/" + in.name + ": the implementation failed to read the input");
  if (got != in.sum)
    die(what + "/" + in.name + ": checksum differs from libcbor_fast's walk\n  expected " +
        describe(in.sum) + "\n  got      " + describe(got));
}

/// Aborts unless an encoder reproduced the input byte for byte.
inline void expect_bytes(const std::string& what, const input& in, const uint8_t* data,
                         size_t size) {
  if (size != in.bytes.size() || (size != 0 && std::memcmp(data, in.bytes.data(), size) != 0))
    die(what + "/" + in.name + ": output (" + std::to_string(size) +
        " bytes) differs from the input (" + std::to_string(in.bytes.size()) + " bytes)");
}

/// Registers "<op>/<impl>/<input>". `setup()` runs on every entry (untimed) and
/// returns the state the body needs; `check(state)` runs once before the first
/// timing; `body(state)` is one timed operation. Rates count the input's bytes
/// and data items, so ns per item = 1e9 / items_per_second.
template <typename Setup, typename Check, typename Body>
void add(const std::string& op, const std::string& impl, const input& in, Setup setup, Check check,
         Body body) {
  auto checked = std::make_shared<bool>(false);
  const input* pin = &in;
  benchmark::RegisterBenchmark(
      (op + "/" + impl + "/" + in.name).c_str(), [=](benchmark::State& state) {
        auto st = setup();
        if (!*checked) {
          check(st);
          *checked = true;
        }
        for (auto _ : state) body(st);
        state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(pin->bytes.size()));
        state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(pin->sum.items));
      });
}

/// No per-entry state.
struct none {};
inline none no_setup() { return {}; }

/// Registers a walk over the whole input: `walker(data, size, &ok)` returns
/// the checksum of what it read; it is checked once against the input's, then
/// timed.
template <typename Walker>
void add_walk(const std::string& op, const std::string& impl, const input& in, Walker walker) {
  const uint8_t* p = in.bytes.data();
  const size_t n = in.bytes.size();
  add(
      op, impl, in, no_setup,
      [&in, p, n, walker, what = op + "/" + impl](none) {
        bool ok;
        const checksum c = walker(p, n, &ok);
        expect_sum(what, in, c, ok);
      },
      [p, n, walker](none) {
        bool ok;
        checksum c = walker(p, n, &ok);
        benchmark::DoNotOptimize(c);
        benchmark::DoNotOptimize(ok);
      });
}

/// walk() and walk_visit() as walkers for add_walk().
inline checksum walk_plain(const uint8_t* data, size_t size, bool* ok) noexcept {
  cbor_fast::status st;
  const checksum c = walk(data, size, false, &st);
  *ok = st == cbor_fast::status::ok;
  return c;
}
inline checksum walk_visitor(const uint8_t* data, size_t size, bool* ok) noexcept {
  cbor_fast::status st;
  const checksum c = walk_visit(data, size, false, &st);
  *ok = st == cbor_fast::status::ok;
  return c;
}

}  // namespace cbor_fast_bench

#endif  // CBOR_FAST_BENCH_SUITE_HPP
