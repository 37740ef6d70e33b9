// The peers measured in the same binary: libcbor (peers_libcbor.cpp) and
// nlohmann::json (peers_nlohmann.cpp). Each is compiled only when CMake found
// it (CBOR_FAST_BENCH_LIBCBOR / CBOR_FAST_BENCH_NLOHMANN); their headers stay
// in their own translation unit.
#ifndef CBOR_FAST_BENCH_PEERS_HPP
#define CBOR_FAST_BENCH_PEERS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common.hpp"
#include "realistic.hpp"

namespace cbor_fast_bench {

#ifdef CBOR_FAST_BENCH_LIBCBOR
namespace libcbor {
/// cbor_stream_decode() over the whole buffer with callbacks folding every
/// value into the checksum. *ok is false if the decoder stopped early.
checksum walk(const uint8_t* data, size_t size, bool* ok) noexcept;
/// cbor_stream_decode() with libcbor's empty callbacks: its only check of a
/// buffer that builds nothing (it checks heads, not nesting).
bool validate(const uint8_t* data, size_t size) noexcept;
/// cbor_stream_decode() with callbacks folding the realistic consumer's hash.
realistic_hash realistic_walk(const uint8_t* data, size_t size, bool* ok) noexcept;
/// cbor_load() of the first item and cbor_decref(): the document round trip.
bool load_and_free(const uint8_t* data, size_t size) noexcept;
/// cbor_load(); nullptr on failure. Free with release().
void* load(const uint8_t* data, size_t size) noexcept;
void release(void* item) noexcept;
checksum tree_checksum(const void* item);
/// cbor_load() of every top-level item in turn; the number of items, or SIZE_MAX on error.
size_t load_sequence(const uint8_t* data, size_t size, checksum* sum) noexcept;
/// The low-level encoders (cbor_encode_uint, cbor_encode_string_start, ...)
/// over a tape into out[0, capacity); bytes written, 0 when it does not fit.
size_t encode_tape(const tape& t, uint8_t* out, size_t capacity) noexcept;
/// cbor_serialize() of a loaded item into out[0, capacity); 0 when it does not fit.
size_t serialize(const void* item, uint8_t* out, size_t capacity) noexcept;
/// cbor_serialize_alloc() and free(): the allocating variant.
size_t serialize_alloc(const void* item) noexcept;
}  // namespace libcbor
#endif

#ifdef CBOR_FAST_BENCH_NLOHMANN
namespace nlohmann_json {
/// json::sax_parse(..., input_format_t::cbor) with a handler folding every
/// event into the checksum (one top-level item). *ok is false on a parse error.
checksum sax_walk(const uint8_t* data, size_t size, bool* ok);
/// sax_parse with a handler that accepts everything: nlohmann's well-formedness check.
bool sax_validate(const uint8_t* data, size_t size);
/// sax_parse with a handler folding the realistic consumer's hash.
realistic_hash realistic_walk(const uint8_t* data, size_t size, bool* ok);
/// json::from_cbor() and destruction.
bool decode_and_free(const uint8_t* data, size_t size);
/// A decoded json value, opaque here.
struct document;
document* decode(const uint8_t* data, size_t size);
void release(document* doc) noexcept;
checksum tree_checksum(const document* doc);
/// json::to_cbor() appending to `out` (cleared first, capacity kept).
void encode(const document* doc, std::vector<uint8_t>& out);
}  // namespace nlohmann_json
#endif

}  // namespace cbor_fast_bench

#endif  // CBOR_FAST_BENCH_PEERS_HPP
