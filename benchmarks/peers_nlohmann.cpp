// Peer: nlohmann::json (Debian nlohmann-json3-dev): its CBOR SAX interface,
// from_cbor() into a json value and to_cbor(), folding into the same checksum.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "peers.hpp"
#include "realistic.hpp"

namespace cbor_fast_bench {
namespace nlohmann_json {

using json = nlohmann::json;

struct document {
  json value;
};

namespace {

// Container sizes arrive as size_t(-1) for indefinite lengths; libcbor_fast
// folds 0 there.
uint64_t definite(size_t n) { return n == size_t(-1) ? 0 : uint64_t(n); }

struct fold_sax {
  checksum sum;
  bool null() { return sum.on_simple(), true; }
  bool boolean(bool b) { return sum.on_bool(b), true; }
  bool number_integer(json::number_integer_t v) { return sum.on_int64(v), true; }
  bool number_unsigned(json::number_unsigned_t v) { return sum.on_uint(v), true; }
  bool number_float(json::number_float_t v, const std::string&) { return sum.on_float(v), true; }
  bool string(std::string& s) { return sum.on_string(s.data(), s.size()), true; }
  bool binary(json::binary_t& b) { return sum.on_string(b.data(), b.size()), true; }
  bool start_object(std::size_t n) { return sum.on_container(definite(n)), true; }
  bool key(std::string& s) { return sum.on_string(s.data(), s.size()), true; }
  bool end_object() { return true; }
  bool start_array(std::size_t n) { return sum.on_container(definite(n)), true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }
};

// The realistic consumer's folds (realistic.hpp). Integers of major type 1
// arrive as int64_t v = -1 - n, so n = ~v; keys are text strings.
struct realistic_sax {
  realistic_hash h;
  bool null() { return h.mix(10, 0), true; }
  bool boolean(bool b) { return h.mix(9, b ? 1 : 0), true; }
  bool number_integer(json::number_integer_t v) {
    return v < 0 ? h.mix(2, ~uint64_t(v)) : h.mix(1, uint64_t(v)), true;
  }
  bool number_unsigned(json::number_unsigned_t v) { return h.mix(1, v), true; }
  bool number_float(json::number_float_t v, const std::string&) { return h.floating(v), true; }
  bool string(std::string& s) { return h.string(4, s.data(), s.size()), true; }
  bool binary(json::binary_t& b) { return h.string(3, b.data(), b.size()), true; }
  bool start_object(std::size_t n) { return h.mix(6, definite(n)), true; }
  bool key(std::string& s) { return h.string(4, s.data(), s.size()), true; }
  bool end_object() { return true; }
  bool start_array(std::size_t n) { return h.mix(5, definite(n)), true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }
};

struct accept_sax {
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(std::string&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }
};

void fold_value(const json& j, checksum& c) {
  switch (j.type()) {
    case json::value_t::null: c.on_simple(); break;
    case json::value_t::boolean: c.on_bool(j.get<bool>()); break;
    case json::value_t::number_integer: c.on_int64(j.get<json::number_integer_t>()); break;
    case json::value_t::number_unsigned: c.on_uint(j.get<json::number_unsigned_t>()); break;
    case json::value_t::number_float: c.on_float(j.get<json::number_float_t>()); break;
    case json::value_t::string: {
      const std::string& s = j.get_ref<const std::string&>();
      c.on_string(s.data(), s.size());
      break;
    }
    case json::value_t::binary: {
      const json::binary_t& b = j.get_binary();
      c.on_string(b.data(), b.size());
      break;
    }
    case json::value_t::array:
      c.on_container(j.size());
      for (const json& e : j) fold_value(e, c);
      break;
    case json::value_t::object:
      c.on_container(j.size());
      for (const auto& kv : j.items()) {
        c.on_string(kv.key().data(), kv.key().size());
        fold_value(kv.value(), c);
      }
      break;
    case json::value_t::discarded: break;
  }
}

}  // namespace

checksum sax_walk(const uint8_t* data, size_t size, bool* ok) {
  fold_sax sax;
  *ok = json::sax_parse(data, data + size, &sax, json::input_format_t::cbor);
  return sax.sum;
}

realistic_hash realistic_walk(const uint8_t* data, size_t size, bool* ok) {
  realistic_sax sax;
  *ok = json::sax_parse(data, data + size, &sax, json::input_format_t::cbor);
  return sax.h;
}

bool sax_validate(const uint8_t* data, size_t size) {
  accept_sax sax;
  return json::sax_parse(data, data + size, &sax, json::input_format_t::cbor);
}

bool decode_and_free(const uint8_t* data, size_t size) {
  const json j = json::from_cbor(data, data + size, true, false);
  return !j.is_discarded();
}

document* decode(const uint8_t* data, size_t size) {
  json j = json::from_cbor(data, data + size, true, false);
  if (j.is_discarded()) return nullptr;
  return new document{std::move(j)};
}

void release(document* doc) noexcept { delete doc; }

checksum tree_checksum(const document* doc) {
  checksum c;
  fold_value(doc->value, c);
  return c;
}

void encode(const document* doc, std::vector<uint8_t>& out) {
  out.clear();
  json::to_cbor(doc->value, out);
}

}  // namespace nlohmann_json
}  // namespace cbor_fast_bench
