// JSON <-> CBOR benchmarks (issue 16 part 3): for each corpus JSON original,
//   json/simdjson_parse/<file>  simdjson's DOM parse alone (reused parser,
//                               padded input): the bound for from_json
//   json/from_json/<file>       json_to_cbor into a caller buffer
//   json/to_json/<file>         json_next of that CBOR into a reserved string
// All three count the bytes of the JSON text (SetBytesProcessed), so their
// rates compare directly. Each row checks its result once before timing.
//
//   cmake --preset bench && cmake --build build/bench --target cbor_fast_bench_json
//   build/bench/benchmarks/cbor_fast_bench_json --benchmark_repetitions=5
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cbor_fast/json.hpp"

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "cbor_fast_bench_json: %s\n", what.c_str());
  std::exit(1);
}

struct doc {
  std::string name;
  std::string json;
  std::vector<uint8_t> cbor;
};

std::vector<doc> load() {
  std::vector<doc> docs;
  for (const char* name : {"twitter", "citm_catalog", "canada"}) {
    std::ifstream f(std::string(CBOR_FAST_CORPUS_DIR) + "/" + name + ".json", std::ios::binary);
    if (!f) die(std::string("cannot read ") + name + ".json from " CBOR_FAST_CORPUS_DIR);
    std::stringstream ss;
    ss << f.rdbuf();
    doc d{name, ss.str(), {}};
    cbor_fast::writer w;
    if (cbor_fast::json_to_cbor(d.json, w) != cbor_fast::status::ok)
      die(d.name + ": from_json failed");
    d.cbor = w.to_vector();
    docs.push_back(std::move(d));
  }
  return docs;
}

void bench_simdjson(benchmark::State& state, const doc* d) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(d->json);
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) die(d->name + ": simdjson failed");
  for (auto _ : state) {
    auto r = parser.parse(padded);
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(d->json.size()));
}

void bench_from_json(benchmark::State& state, const doc* d) {
  std::vector<uint8_t> buf(d->json.size() * 2 + 64);
  {
    cbor_fast::writer w(buf.data(), buf.size());
    if (cbor_fast::json_to_cbor(d->json, w) != cbor_fast::status::ok ||
        w.size() != d->cbor.size() || std::memcmp(buf.data(), d->cbor.data(), w.size()) != 0)
      die(d->name + ": from_json into a buffer differs");
  }
  for (auto _ : state) {
    cbor_fast::writer w(buf.data(), buf.size());
    const cbor_fast::status s = cbor_fast::json_to_cbor(d->json, w);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(buf.data());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(d->json.size()));
}

void bench_to_json(benchmark::State& state, const doc* d) {
  std::string out;
  out.reserve(d->json.size() * 2);
  {
    cbor_fast::reader r(d->cbor.data(), d->cbor.size());
    if (cbor_fast::json_next(r, out) != cbor_fast::status::ok) die(d->name + ": to_json failed");
    cbor_fast::writer w;
    if (cbor_fast::json_to_cbor(out, w) != cbor_fast::status::ok || w.size() != d->cbor.size() ||
        std::memcmp(w.data(), d->cbor.data(), w.size()) != 0)
      die(d->name + ": to_json output does not convert back to the same CBOR");
  }
  for (auto _ : state) {
    out.clear();
    cbor_fast::reader r(d->cbor.data(), d->cbor.size());
    const cbor_fast::status s = cbor_fast::json_next(r, out);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(out.data());
  }
  // The JSON text's bytes, as in the other rows (the output is about as long).
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(d->json.size()));
  state.counters["out_bytes"] = double(out.size());
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<doc> docs = load();
  for (const doc& d : docs) {
    benchmark::RegisterBenchmark(("json/simdjson_parse/" + d.name).c_str(), bench_simdjson, &d);
    benchmark::RegisterBenchmark(("json/from_json/" + d.name).c_str(), bench_from_json, &d);
    benchmark::RegisterBenchmark(("json/to_json/" + d.name).c_str(), bench_to_json, &d);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
