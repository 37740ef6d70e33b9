// Runs one operation once over one file, for instruction counts:
//
//   valgrind --tool=callgrind --toggle-collect=cbor_fast_bench_measure
//       cbor_fast_walk_once walk twitter.cbor
//
// The doc_* operations read the file as one single-item document 1000 times
// (the suite's doc/* rows): divide the count by 1000 for one document.
//
// Only the call of cbor_fast_bench_measure() is the operation: reading the
// file, recording a tape or decoding a document to encode happen outside it.
// Prints the operation, the file size and the checksum (or a failure).
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cbor_fast.h"
#include "cbor_fast/json.hpp"
#include "common.hpp"
#include "peers.hpp"
#include "realistic.hpp"

using cbor_fast::status;
using namespace cbor_fast_bench;

/// The measured region: callgrind's --toggle-collect names this function.
extern "C" __attribute__((noinline)) uint64_t cbor_fast_bench_measure(
    const std::function<uint64_t()>* op) {
  return (*op)();
}

namespace {

uint64_t fold(const checksum& c) {
  return c.items ^ (c.ints * 3) ^ (c.lengths * 5) ^ (c.firsts * 7) ^ (c.floats * 11) ^
         (c.tags * 13) ^ (c.trues * 17);
}

const char* const k_ops =
    "walk walk_utf8 walk_fed_4k walk_fed_64 walk_fed_needed_64 walk_grown_4k walk_grown_64"
    " walk_stream_4k walk_visit walk_visit_bound walk_capi walk_capi_batch walk_capi_visit "
    "validate validate_utf8"
    " validate_strict encode to_json doc_x1000 doc_reset_x1000 doc_capi_x1000"
    " doc_capi_reset_x1000"
#ifdef CBOR_FAST_BENCH_DOCUMENT
    " decode encode_doc"
#endif
#ifdef CBOR_FAST_BENCH_LIBCBOR
    " libcbor_walk libcbor_validate libcbor_decode libcbor_encode libcbor_encode_doc"
    " libcbor_doc_x1000"
#endif
#ifdef CBOR_FAST_BENCH_NLOHMANN
    " nlohmann_walk nlohmann_validate nlohmann_decode nlohmann_encode_doc"
#endif
    ;

/// The doc_* operations: documents per measured call.
constexpr int k_docs = 1000;

/// Runs `one(&ok)` k_docs times; the hashes folded, 0 if any failed.
template <class One>
uint64_t repeat_docs(const One& one) {
  uint64_t sum = 0;
  for (int i = 0; i < k_docs; ++i) {
    bool ok = false;
    const realistic_hash h = one(&ok);
    if (!ok) return 0;
    sum += h.h | 1;
  }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OPERATION FILE\noperations: %s\n", argv[0], k_ops);
    return 2;
  }
  const std::string op = argv[1];
  const std::vector<uint8_t> bytes = read_file(argv[2]);
  if (bytes.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  const uint8_t* p = bytes.data();
  const size_t n = bytes.size();

  // State prepared before the measured call (kept alive until it returns).
  tape items;
  std::vector<uint8_t> out(n + n / 4 + 64);
  std::function<uint64_t()> body;
  std::function<void()> cleanup = [] {};
  std::string text;

  // The walk rows use the realistic consumer (realistic.hpp), as in the suite.
  if (op == "walk") {
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_next(p, n, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_utf8") {
    body = [=] {
      status st;
      const checksum c = walk(p, n, true, &st);
      return st == status::ok ? fold(c) : 0;
    };
  } else if (op == "walk_grown_4k" || op == "walk_grown_64") {
    const size_t chunk = op == "walk_grown_4k" ? 4096 : 64;
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_grown(p, n, chunk, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_stream_4k") {
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_stream(p, n, 4096, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_fed_4k" || op == "walk_fed_64") {
    const size_t chunk = op == "walk_fed_4k" ? 4096 : 64;
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_fed(p, n, chunk, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_fed_needed_64") {
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_fed_needed(p, n, 64, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_visit") {
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_visit(p, n, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_visit_bound") {
    body = [=] {
      bool ok;
      const uint64_t count = tiny_visit(p, n, &ok);
      return ok ? count : 0;
    };
  } else if (op == "walk_capi_visit") {
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_capi_visit(p, n, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "walk_capi" || op == "walk_capi_batch") {
    const bool batch = op == "walk_capi_batch";
    body = [=] {
      bool ok;
      const realistic_hash h = realistic_capi(p, n, batch, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "doc_x1000") {
    body = [=] { return repeat_docs([=](bool* ok) { return realistic_next(p, n, ok); }); };
  } else if (op == "doc_reset_x1000") {
    // One reader kept across documents (the suite's doc/*/cbor_fast_reset).
    auto r = std::make_shared<cbor_fast::reader>(static_cast<const uint8_t*>(nullptr), 0);
    body = [=] { return repeat_docs([&](bool* ok) { return doc_reset(*r, p, n, ok); }); };
  } else if (op == "doc_capi_x1000") {
    body = [=] { return repeat_docs([=](bool* ok) { return realistic_capi(p, n, false, ok); }); };
  } else if (op == "doc_capi_reset_x1000") {
    cbor_reader* r = nullptr;
    if (cbor_reader_new(nullptr, 0, nullptr, &r) != CBOR_FAST_OK) {
      std::fprintf(stderr, "cbor_reader_new failed\n");
      return 1;
    }
    body = [=] { return repeat_docs([=](bool* ok) { return doc_capi_reset(r, p, n, ok); }); };
    cleanup = [r] { cbor_reader_free(r); };
  } else if (op == "validate_strict") {
    // skip() with the duplicate-key check (the strict path's map bookkeeping).
    body = [=] {
      cbor_fast::reader_options o;
      o.reject_duplicate_keys = true;
      cbor_fast::reader r(p, n, o);
      status st;
      while ((st = r.skip()) == status::ok) {}
      return st == status::end ? uint64_t(1) : 0;
    };
  } else if (op == "validate" || op == "validate_utf8") {
    const bool utf8 = op == "validate_utf8";
    body = [=] { return validate(p, n, utf8) == status::ok ? uint64_t(1) : 0; };
  } else if (op == "encode") {
    items = record(p, n);
    body = [&] {
      cbor_fast::writer w(out.data(), out.size());
      return replay(items, w) == status::ok ? uint64_t(w.size()) : 0;
    };
  } else if (op == "to_json") {
    // json_next into a string reserved beforehand (as json/to_json in
    // cbor_fast_bench_json); the result is the JSON text's length.
    text.reserve(2 * n + 64);
    body = [&text, p, n] {
      cbor_fast::reader r(p, n);
      return cbor_fast::json_next(r, text) == status::ok && r.at_end() ? uint64_t(text.size()) : 0;
    };
#ifdef CBOR_FAST_BENCH_DOCUMENT
  } else if (op == "decode") {
    body = [=] {
      cbor_doc* doc = nullptr;
      const cbor_fast_status s = cbor_decode(p, n, CBOR_FAST_DECODE_NONE, nullptr, &doc, nullptr);
      const uint64_t count = cbor_doc_node_count(doc);
      cbor_doc_free(doc);
      return s == CBOR_FAST_OK ? count : 0;
    };
  } else if (op == "encode_doc") {
    cbor_doc* doc = nullptr;
    cbor_writer* w = nullptr;
    if (cbor_decode(p, n, CBOR_FAST_DECODE_NONE, nullptr, &doc, nullptr) != CBOR_FAST_OK ||
        cbor_writer_new_buffer(out.data(), out.size(), nullptr, &w) != CBOR_FAST_OK) {
      std::fprintf(stderr, "cbor_decode or cbor_writer_new_buffer failed\n");
      return 1;
    }
    body = [=] {
      size_t size = 0;
      return cbor_encode(doc, CBOR_FAST_ENCODE_NONE, w) == CBOR_FAST_OK &&
                     cbor_writer_finish(w, nullptr, &size) == CBOR_FAST_OK
                 ? uint64_t(size)
                 : 0;
    };
    cleanup = [=] {
      cbor_writer_free(w);
      cbor_doc_free(doc);
    };
#endif
#ifdef CBOR_FAST_BENCH_LIBCBOR
  } else if (op == "libcbor_walk") {
    body = [=] {
      bool ok;
      const realistic_hash h = libcbor::realistic_walk(p, n, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "libcbor_doc_x1000") {
    body = [=] { return repeat_docs([=](bool* ok) { return libcbor::realistic_walk(p, n, ok); }); };
  } else if (op == "libcbor_validate") {
    body = [=] { return libcbor::validate(p, n) ? uint64_t(1) : 0; };
  } else if (op == "libcbor_decode") {
    body = [=] { return libcbor::load_and_free(p, n) ? uint64_t(1) : 0; };
  } else if (op == "libcbor_encode") {
    items = record(p, n);
    body = [&] { return uint64_t(libcbor::encode_tape(items, out.data(), out.size())); };
  } else if (op == "libcbor_encode_doc") {
    void* item = libcbor::load(p, n);
    if (item == nullptr) {
      std::fprintf(stderr, "cbor_load failed\n");
      return 1;
    }
    body = [&out, item] { return uint64_t(libcbor::serialize(item, out.data(), out.size())); };
    cleanup = [item] { libcbor::release(item); };
#endif
#ifdef CBOR_FAST_BENCH_NLOHMANN
  } else if (op == "nlohmann_walk") {
    body = [=] {
      bool ok;
      const realistic_hash h = nlohmann_json::realistic_walk(p, n, &ok);
      return ok ? h.h : 0;
    };
  } else if (op == "nlohmann_validate") {
    body = [=] { return nlohmann_json::sax_validate(p, n) ? uint64_t(1) : 0; };
  } else if (op == "nlohmann_decode") {
    body = [=] { return nlohmann_json::decode_and_free(p, n) ? uint64_t(1) : 0; };
  } else if (op == "nlohmann_encode_doc") {
    nlohmann_json::document* doc = nlohmann_json::decode(p, n);
    if (doc == nullptr) {
      std::fprintf(stderr, "from_cbor failed\n");
      return 1;
    }
    out.clear();
    body = [&out, doc] {
      nlohmann_json::encode(doc, out);
      return uint64_t(out.size());
    };
    cleanup = [doc] { nlohmann_json::release(doc); };
#endif
  } else {
    std::fprintf(stderr, "unknown operation '%s'; operations: %s\n", op.c_str(), k_ops);
    return 2;
  }

  const uint64_t result = cbor_fast_bench_measure(&body);
  cleanup();
  std::printf("%s %s bytes=%zu result=%llu\n", op.c_str(), argv[2], n,
              static_cast<unsigned long long>(result));
  return result != 0 ? 0 : 1;
}
