// Scenario: canonical encoding of a decoded document (src/document/canonical.cpp).
//  encode_canonical  a document decoded untimed, written into a caller buffer:
//                    plain = encode() as decoded (the peer, same run), core =
//                    encode_canonical (RFC 8949 4.2.1), length_first =
//                    encode_length_first (RFC 7049 / cbor2 canonical=True).
//  Inputs: the corpus files, and map_100k: one map of 100,000 integer keys in
//  descending order (every pair moves), the sorting worst case.
// The check decodes each canonical output with decode_deterministic (core),
// and requires the plain output to equal the input.
#include <memory>

#include "cbor_fast/document.hpp"
#include "suite.hpp"

namespace cbor_fast_bench {

namespace {

struct canon_state {
  std::unique_ptr<cbor_fast::document> doc;
  std::vector<uint8_t> out;
};

input make_map_100k() {
  input in;
  in.name = "map_100k";
  in.group = "kind";
  cbor_fast::writer w;
  constexpr uint64_t n = 100000;
  w.begin_map(n);
  for (uint64_t i = n; i-- > 0;) {
    w.write_uint(i * 3);
    w.write_uint(i);
  }
  w.end();
  if (w.finish() != cbor_fast::status::ok) die("map_100k: writer failed");
  in.bytes = w.to_vector();
  in.sum.items = 1 + 2 * n;
  return in;
}

void register_one(const input& in) {
  const uint8_t* p = in.bytes.data();
  const size_t n = in.bytes.size();
  const auto setup = [p, n] {
    canon_state s;
    s.doc = std::make_unique<cbor_fast::document>();
    if (cbor_fast::decode(p, n, *s.doc) != cbor_fast::status::ok) die("encode_canonical: decode");
    s.out.resize(n + n / 2 + 64);
    return s;
  };
  struct mode {
    const char* name;
    uint32_t flags;
  };
  for (const mode m :
       {mode{"plain", cbor_fast::encode_none}, mode{"core", cbor_fast::encode_canonical},
        mode{"length_first", cbor_fast::encode_length_first}}) {
    const uint32_t flags = m.flags;
    add(
        "encode_canonical", m.name, in, setup,
        [&in, flags](canon_state& s) {
          cbor_fast::writer w(s.out.data(), s.out.size());
          if (cbor_fast::encode(*s.doc, w, flags) != cbor_fast::status::ok)
            die("encode_canonical/" + in.name + ": encode failed");
          if (flags == cbor_fast::encode_none) {
            expect_bytes("encode_canonical/plain", in, s.out.data(), w.size());
            return;
          }
          cbor_fast::document check;
          cbor_fast::decode_options o;
          o.flags = cbor_fast::decode_exact |
                    (flags == cbor_fast::encode_canonical ? cbor_fast::decode_deterministic : 0u);
          if (cbor_fast::decode(s.out.data(), w.size(), check, o) != cbor_fast::status::ok ||
              check.node_count() != s.doc->node_count())
            die("encode_canonical/" + in.name + ": output is not canonical");
        },
        [flags](canon_state& s) {
          cbor_fast::writer w(s.out.data(), s.out.size());
          cbor_fast::status st = cbor_fast::encode(*s.doc, w, flags);
          benchmark::DoNotOptimize(st);
          benchmark::DoNotOptimize(s.out.data());
          benchmark::ClobberMemory();
        });
  }
}

}  // namespace

void register_canonical(const std::vector<input>& inputs) {
  static const input map_100k = make_map_100k();
  for (const input& in : inputs)
    if (in.group == "corpus") register_one(in);
  register_one(map_100k);
}

}  // namespace cbor_fast_bench
