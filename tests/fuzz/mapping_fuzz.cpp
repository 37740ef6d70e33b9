// mapping_fuzz: decodes the input into a nested mapped struct (every member
// kind mapping.hpp supports, all three layouts) and checks:
//  - a failure is an error status with an offset inside the input, the same
//    through the (data, size) and the reader overloads;
//  - a success re-encodes to bytes that decode again (with no limits) and
//    re-encode to the same bytes;
//  - reader::read_array() on the input agrees with a next() loop model
//    (status, offset of the failing element, values);
//  - the typed inline steps agree with next(): the same decode with
//    reject_duplicate_keys (which keeps every item on next()'s out-of-line
//    path) gives the same status, offset, member path and re-encoding,
//    unless either reports duplicate_key (the reader's own check);
//  - the first item, when an integer, decodes into double and float exactly
//    when the integer converted once (as __int128) is exact, to that value,
//    and is out_of_range otherwise.
//
// Input: the configuration byte (fuzz_util.hpp: utf8, depth; a: reject
// unknown keys; b: allow trailing bytes), then the CBOR input.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cbor_fast/mapping.hpp"
#include "fuzz_util.hpp"

namespace fuzzmap {

struct leaf {
  std::string_view name;
  int32_t n = 0;
  std::optional<double> w;
  cbor_fast::byte_view raw;
};
CBOR_FAST_FIELDS(leaf, name, n, w, raw)

struct pair {
  uint8_t a = 0;
  int64_t b = 0;
};
CBOR_FAST_FIELDS_ARRAY(pair, a, b)

struct keyed {
  uint16_t k1 = 0;
  std::optional<std::string> k2;
};
CBOR_FAST_FIELDS_KEYS(keyed, (1, k1), (-1, k2))

struct root {
  uint64_t id = 0;
  std::string title;
  std::vector<leaf> leaves;
  std::vector<int64_t> ns;
  std::vector<double> xs;
  std::map<std::string, uint32_t> counts;
  std::optional<pair> p;
  std::array<keyed, 2> ks;
  std::variant<int64_t, std::string, std::vector<uint64_t>> v;
  bool flag = false;
  float f = 0;
  std::vector<uint8_t> blob;
  std::map<int16_t, leaf> by_id;
  std::vector<std::vector<int8_t>> grid;
};
CBOR_FAST_FIELDS(root, id, title, leaves, ns, xs, counts, p, ks, v, flag, f, blob, by_id, grid)

}  // namespace fuzzmap

namespace {

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::status;

template <class T>
void check_decode(const uint8_t* data, size_t size, const cbor_fast::mapping_options& opt) {
  T out;
  cbor_fast::mapping_error err;
  const status s = cbor_fast::from_cbor(data, size, out, err, opt);
  if (s != status::ok) {
    FUZZ_CHECK(s == status::end || cbor_fast::is_error(s));
    FUZZ_CHECK(err.code == s);
    FUZZ_CHECK(err.offset <= size);
    if (s != status::trailing_bytes) {
      // The reader overload fails the same way.
      reader r(data, size, opt.reader);
      T again;
      cbor_fast::error_info info;
      FUZZ_CHECK(cbor_fast::from_cbor(r, again, &info, opt) == s);
      FUZZ_CHECK(info.offset == err.offset);
    }
    return;
  }
  const std::vector<uint8_t> enc = cbor_fast::to_cbor(out);
  FUZZ_CHECK(!enc.empty());
  cbor_fast::mapping_options back_opt;
  back_opt.reader = cbor_fast_fuzz::unlimited();
  T back;
  FUZZ_CHECK(cbor_fast::from_cbor(enc.data(), enc.size(), back, back_opt) == status::ok);
  FUZZ_CHECK(cbor_fast::to_cbor(back) == enc);
}

/// from_cbor() through the typed steps against the general path.
template <class T>
void check_paths(const uint8_t* data, size_t size, const cbor_fast::mapping_options& opt) {
  cbor_fast::mapping_options general = opt;
  general.reader.reject_duplicate_keys = true;
  T a, b;
  cbor_fast::mapping_error ea, eb;
  const status sa = cbor_fast::from_cbor(data, size, a, ea, opt);
  const status sb = cbor_fast::from_cbor(data, size, b, eb, general);
  if (sa == status::duplicate_key || sb == status::duplicate_key) return;
  FUZZ_CHECK(sa == sb);
  if (sa != status::ok) {
    FUZZ_CHECK(ea.offset == eb.offset);
    FUZZ_CHECK(ea.path == eb.path);
    return;
  }
  FUZZ_CHECK(cbor_fast::to_cbor(a) == cbor_fast::to_cbor(b));
}

/// read_array(std::vector<int64_t>) against a next() loop, for an input that starts with an array.
void check_bulk(const uint8_t* data, size_t size, const cbor_fast::reader_options& ro) {
  if (size == 0 || (data[0] >> 5) != 4) return;
  reader a(data, size, ro);
  std::vector<int64_t> got;
  const status sa = a.read_array(got);

  reader b(data, size, ro);
  std::vector<int64_t> want;
  status sb = status::ok;
  size_t at = 0;
  item h;
  sb = b.next(h);
  if (sb != status::ok) {
    at = b.error().offset;
  } else {
    for (;;) {
      item e;
      sb = b.next(e);
      if (sb != status::ok) {
        at = b.error().offset;
        break;
      }
      if (e.type == item_type::end) break;
      int64_t v;
      if (e.type == item_type::unsigned_int || e.type == item_type::negative_int) {
        if (!e.get_int64(&v)) {
          sb = status::out_of_range;
          at = e.offset;
          break;
        }
        want.push_back(v);
      } else {
        sb = status::type_mismatch;
        at = e.offset;
        break;
      }
    }
  }
  FUZZ_CHECK(sa == sb);
  if (sa == status::ok) {
    FUZZ_CHECK(got == want);
    FUZZ_CHECK(a.offset() == b.offset());
    FUZZ_CHECK(a.items() == b.items());
    // Both readers go on the same way.
    item x, y;
    const status nx = a.next(x);
    const status ny = b.next(y);
    FUZZ_CHECK(nx == ny);
    if (nx == status::ok) FUZZ_CHECK(x.offset == y.offset && x.type == y.type);
  } else {
    FUZZ_CHECK(a.error().offset == at);
  }
}

__extension__ typedef __int128 int128;

/// An integer item into double and float against a reference: the integer
/// as a 128-bit integer converted once (correctly rounded), taken only when
/// exact.
void check_int_to_float(const uint8_t* data, size_t size) {
  reader r(data, size);
  item it;
  if (r.next(it) != status::ok) return;
  if (it.type != item_type::unsigned_int && it.type != item_type::negative_int) return;
  const int128 v = it.type == item_type::unsigned_int ? int128(it.arg) : -1 - int128(it.arg);
  const double d_ref = double(v);
  const float f_ref = float(v);
  double d = 0;
  float f = 0;
  const status sd = cbor_fast::from_cbor(data, it.head_size, d);
  const status sf = cbor_fast::from_cbor(data, it.head_size, f);
  FUZZ_CHECK(sd == (int128(d_ref) == v ? status::ok : status::out_of_range));
  if (sd == status::ok) FUZZ_CHECK(d == d_ref);
  FUZZ_CHECK(sf == (int128(f_ref) == v ? status::ok : status::out_of_range));
  if (sf == status::ok) FUZZ_CHECK(f == f_ref);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const cbor_fast_fuzz::config cfg = cbor_fast_fuzz::take_config(data, size);
  cbor_fast::mapping_options opt;
  opt.reader.validate_utf8 = cfg.utf8;
  opt.reader.max_depth = cfg.max_depth;
  opt.reject_unknown_keys = cfg.a;
  opt.allow_trailing_bytes = cfg.b;
  check_decode<fuzzmap::root>(data, size, opt);
  check_decode<fuzzmap::leaf>(data, size, opt);
  check_decode<fuzzmap::pair>(data, size, opt);
  check_paths<fuzzmap::root>(data, size, opt);
  check_paths<fuzzmap::keyed>(data, size, opt);
  check_bulk(data, size, opt.reader);
  check_int_to_float(data, size);
  return 0;
}
