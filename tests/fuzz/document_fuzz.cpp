// document_fuzz: cbor_decode, then every node through the C API (each getter
// on each node, indexed access against child/next iteration, map lookups
// against a linear scan), then cbor_encode into growable, caller-buffer and
// sink writers. decode(encode(doc)) must succeed and re-encode to the same
// bytes, with and without CBOR_FAST_ENCODE_PREFERRED and through a mutable
// copy; with only shortest heads in the input, encoding gives the input back.
// A second decode runs with an allocator that fails part way.
//
// Input: configuration byte (fuzz_util.hpp; a = COPY_STRINGS, b = EXACT),
// then the CBOR input.
#include <cstring>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"

namespace {

using namespace cbor_fast_fuzz;

/// Map lookups are checked against a linear scan for this many keys per map.
constexpr size_t k_lookup_keys = 32;

struct doc_ptr {
  cbor_doc* p = nullptr;
  ~doc_ptr() { cbor_doc_free(p); }
};

cbor_fast_status decode(const uint8_t* data, size_t size, uint32_t flags, uint32_t max_depth,
                        const cbor_fast_allocator* alloc, doc_ptr& out, cbor_fast_error* err) {
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  o.max_depth = max_depth;
  o.alloc = alloc;
  cbor_doc_free(out.p);
  out.p = nullptr;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status s = cbor_decode(data, size, flags, &o, &out.p, &e);
  FUZZ_CHECK(e.code == s && e.message != nullptr);
  FUZZ_CHECK((s == CBOR_FAST_OK) == (out.p != nullptr));
  if (err != nullptr) *err = e;
  return s;
}

bool same_text_key(const cbor_node* k, const char* p, size_t n) {
  const char* q = nullptr;
  size_t m = 0;
  return cbor_node_get_text(k, &q, &m) == CBOR_FAST_OK && m == n &&
         (n == 0 || std::memcmp(p, q, n) == 0);
}

bool same_int_key(const cbor_node* k, int64_t v) {
  int64_t w = 0;
  return cbor_node_get_int64(k, &w) == CBOR_FAST_OK && w == v;
}

/// Every getter on one node: the right ones succeed with consistent values,
/// the others say TYPE_MISMATCH and leave the output alone.
void check_scalar_getters(const cbor_node* n, cbor_fast_type t) {
  constexpr uint64_t k_untouched = 0x5a5a5a5a5a5a5a5aull;
  uint64_t u = k_untouched;
  int64_t i = int64_t(k_untouched);
  uint64_t raw = k_untouched;
  int negative = 7;
  const cbor_fast_status su = cbor_node_get_uint64(n, &u);
  const cbor_fast_status si = cbor_node_get_int64(n, &i);
  const cbor_fast_status sr = cbor_node_get_int_raw(n, &raw, &negative);
  if (t == CBOR_FAST_TYPE_UINT || t == CBOR_FAST_TYPE_NEGATIVE) {
    FUZZ_CHECK(sr == CBOR_FAST_OK && negative == (t == CBOR_FAST_TYPE_NEGATIVE));
    if (t == CBOR_FAST_TYPE_UINT) {
      FUZZ_CHECK(su == CBOR_FAST_OK && u == raw);
    } else {
      FUZZ_CHECK(su == CBOR_FAST_ERR_TYPE_MISMATCH && u == k_untouched);
    }
    if (raw <= uint64_t(INT64_MAX)) {
      FUZZ_CHECK(si == CBOR_FAST_OK);
      FUZZ_CHECK(i == (negative ? -1 - int64_t(raw) : int64_t(raw)));
    } else {
      FUZZ_CHECK(si == CBOR_FAST_ERR_OUT_OF_RANGE && i == int64_t(k_untouched));
    }
  } else {
    FUZZ_CHECK(su == CBOR_FAST_ERR_TYPE_MISMATCH && u == k_untouched);
    FUZZ_CHECK(si == CBOR_FAST_ERR_TYPE_MISMATCH && i == int64_t(k_untouched));
    FUZZ_CHECK(sr == CBOR_FAST_ERR_TYPE_MISMATCH && raw == k_untouched);
  }

  // Bignums: plain integers, or tag 2/3 over a byte string.
  uint64_t braw = k_untouched;
  const uint8_t* mag = reinterpret_cast<const uint8_t*>(&braw);
  size_t mag_size = 99;
  int bneg = 7;
  const cbor_fast_status sb = cbor_node_get_bignum(n, &braw, &mag, &mag_size, &bneg);
  uint64_t tag = 0;
  const cbor_node* content = cbor_node_tag_content(n);
  const bool is_bignum_tag = t == CBOR_FAST_TYPE_TAG &&
                             cbor_node_get_tag(n, &tag) == CBOR_FAST_OK && (tag == 2 || tag == 3) &&
                             cbor_node_type(content) == CBOR_FAST_TYPE_BYTES;
  if (t == CBOR_FAST_TYPE_UINT || t == CBOR_FAST_TYPE_NEGATIVE) {
    FUZZ_CHECK(sb == CBOR_FAST_OK && braw == raw && bneg == negative);
    FUZZ_CHECK(mag == nullptr && mag_size == 0);
  } else if (is_bignum_tag) {
    const uint8_t* p = nullptr;
    size_t len = 0;
    FUZZ_CHECK(cbor_node_get_bytes(content, &p, &len) == CBOR_FAST_OK);
    FUZZ_CHECK(sb == CBOR_FAST_OK && braw == 0 && bneg == (tag == 3));
    FUZZ_CHECK(mag_size == len && (len == 0 || std::memcmp(mag, p, len) == 0));
  } else {
    FUZZ_CHECK(sb == CBOR_FAST_ERR_TYPE_MISMATCH && braw == k_untouched);
  }

  double d = 1.5;
  const cbor_fast_status sd = cbor_node_get_double(n, &d);
  const uint32_t width = cbor_node_float_width(n);
  if (t == CBOR_FAST_TYPE_FLOAT) {
    FUZZ_CHECK(sd == CBOR_FAST_OK && (width == 2 || width == 4 || width == 8));
  } else {
    FUZZ_CHECK(sd == CBOR_FAST_ERR_TYPE_MISMATCH && d == 1.5 && width == 0);
  }

  int b = 7;
  uint8_t simple = 99;
  const cbor_fast_status sbool = cbor_node_get_bool(n, &b);
  const cbor_fast_status ss = cbor_node_get_simple(n, &simple);
  if (t == CBOR_FAST_TYPE_BOOL) {
    FUZZ_CHECK(sbool == CBOR_FAST_OK && ss == CBOR_FAST_OK);
    FUZZ_CHECK((simple == 20 && b == 0) || (simple == 21 && b == 1));
  } else {
    FUZZ_CHECK(sbool == CBOR_FAST_ERR_TYPE_MISMATCH && b == 7);
    if (t == CBOR_FAST_TYPE_NULL) {
      FUZZ_CHECK(ss == CBOR_FAST_OK && simple == 22);
    } else if (t == CBOR_FAST_TYPE_UNDEFINED) {
      FUZZ_CHECK(ss == CBOR_FAST_OK && simple == 23);
    } else if (t == CBOR_FAST_TYPE_SIMPLE) {
      FUZZ_CHECK(ss == CBOR_FAST_OK && (simple < 20 || simple >= 32));
    } else {
      FUZZ_CHECK(ss == CBOR_FAST_ERR_TYPE_MISMATCH && simple == 99);
    }
  }

  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(&d);
  const char* text = reinterpret_cast<const char*>(&d);
  size_t len = 12345;
  const cbor_fast_status sby = cbor_node_get_bytes(n, &bytes, &len);
  if (t != CBOR_FAST_TYPE_BYTES) FUZZ_CHECK(sby == CBOR_FAST_ERR_TYPE_MISMATCH && len == 12345);
  len = 12345;
  const cbor_fast_status st = cbor_node_get_text(n, &text, &len);
  if (t != CBOR_FAST_TYPE_TEXT) FUZZ_CHECK(st == CBOR_FAST_ERR_TYPE_MISMATCH && len == 12345);

  uint64_t tag_number = k_untouched;
  const cbor_fast_status stag = cbor_node_get_tag(n, &tag_number);
  if (t == CBOR_FAST_TYPE_TAG) {
    FUZZ_CHECK(stag == CBOR_FAST_OK && content != nullptr);
  } else {
    FUZZ_CHECK(stag == CBOR_FAST_ERR_TYPE_MISMATCH && tag_number == k_untouched);
    FUZZ_CHECK(content == nullptr);
  }

  // NULL out-pointers are refused, never written through.
  FUZZ_CHECK(cbor_node_get_uint64(n, nullptr) == CBOR_FAST_ERR_INVALID_ARGUMENT);
  FUZZ_CHECK(cbor_node_get_double(n, nullptr) == CBOR_FAST_ERR_INVALID_ARGUMENT);
}

/// Containers: indexed access, iteration and lookups agree.
void check_container(const cbor_node* n, cbor_fast_type t) {
  const size_t size = cbor_node_size(n);
  if (t != CBOR_FAST_TYPE_ARRAY && t != CBOR_FAST_TYPE_MAP) {
    FUZZ_CHECK(size == 0);
    FUZZ_CHECK(cbor_node_array_get(n, 0) == nullptr && cbor_node_map_key(n, 0) == nullptr);
    FUZZ_CHECK(cbor_node_map_value(n, 0) == nullptr);
    FUZZ_CHECK(cbor_node_map_find(n, "", 0) == nullptr && cbor_node_map_find_int(n, 0) == nullptr);
    if (t != CBOR_FAST_TYPE_TAG) FUZZ_CHECK(cbor_node_child(n) == nullptr);
    return;
  }
  const cbor_node* c = cbor_node_child(n);
  if (t == CBOR_FAST_TYPE_ARRAY) {
    FUZZ_CHECK(cbor_node_map_key(n, 0) == nullptr && cbor_node_map_find_int(n, 0) == nullptr);
    for (size_t i = 0; i < size; ++i, c = cbor_node_next(c)) {
      FUZZ_CHECK(c != nullptr && cbor_node_array_get(n, i) == c);
    }
    FUZZ_CHECK(c == nullptr && cbor_node_array_get(n, size) == nullptr);
    return;
  }
  FUZZ_CHECK(cbor_node_array_get(n, 0) == nullptr);
  std::vector<const cbor_node*> keys;
  std::vector<const cbor_node*> values;
  for (size_t i = 0; i < size; ++i) {
    FUZZ_CHECK(c != nullptr && cbor_node_map_key(n, i) == c);
    keys.push_back(c);
    c = cbor_node_next(c);
    FUZZ_CHECK(c != nullptr && cbor_node_map_value(n, i) == c);
    values.push_back(c);
    c = cbor_node_next(c);
  }
  FUZZ_CHECK(c == nullptr);
  FUZZ_CHECK(cbor_node_map_key(n, size) == nullptr && cbor_node_map_value(n, size) == nullptr);
  for (size_t i = 0; i < size && i < k_lookup_keys; ++i) {
    const char* p = nullptr;
    size_t len = 0;
    int64_t v = 0;
    if (cbor_node_get_text(keys[i], &p, &len) == CBOR_FAST_OK) {
      size_t first = 0;
      while (!same_text_key(keys[first], p, len)) ++first;
      FUZZ_CHECK(cbor_node_map_find(n, p, len) == values[first]);
    } else if (cbor_node_get_int64(keys[i], &v) == CBOR_FAST_OK) {
      size_t first = 0;
      while (!same_int_key(keys[first], v)) ++first;
      FUZZ_CHECK(cbor_node_map_find_int(n, v) == values[first]);
    }
  }
}

/// Walks every node; returns how many there are.
size_t check_nodes(const cbor_doc* doc, const uint8_t* data, size_t size, uint32_t flags) {
  const size_t encoded = cbor_doc_encoded_size(doc);
  std::vector<const cbor_node*> todo{cbor_doc_root(doc)};
  size_t count = 0;
  while (!todo.empty()) {
    const cbor_node* n = todo.back();
    todo.pop_back();
    FUZZ_CHECK(n != nullptr);
    ++count;
    const cbor_fast_type t = cbor_node_type(n);
    FUZZ_CHECK(t >= CBOR_FAST_TYPE_UINT && t <= CBOR_FAST_TYPE_FLOAT);
    FUZZ_CHECK(cbor_node_offset(n) < encoded);
    const int indefinite = cbor_node_is_indefinite(n);
    FUZZ_CHECK(indefinite == 0 || indefinite == 1);
    if (indefinite) {
      FUZZ_CHECK(t == CBOR_FAST_TYPE_BYTES || t == CBOR_FAST_TYPE_TEXT ||
                 t == CBOR_FAST_TYPE_ARRAY || t == CBOR_FAST_TYPE_MAP);
      FUZZ_CHECK(data[cbor_node_offset(n)] == (uint8_t(t - 1) << 5 | 31));
    } else {
      FUZZ_CHECK((data[cbor_node_offset(n)] & 31) != 31);
    }
    check_scalar_getters(n, t);
    check_container(n, t);

    // Strings: views into the input unless copied; valid UTF-8 when asked.
    const uint8_t* p = nullptr;
    size_t len = 0;
    if (cbor_node_get_bytes(n, &p, &len) == CBOR_FAST_OK ||
        cbor_node_get_text(n, reinterpret_cast<const char**>(&p), &len) == CBOR_FAST_OK) {
      FUZZ_CHECK(p != nullptr || len == 0);
      const bool in_input = p >= data && p < data + size;
      if ((flags & CBOR_FAST_DECODE_COPY_STRINGS) != 0) {
        FUZZ_CHECK(len == 0 || !in_input);
      } else if (!indefinite && len != 0) {
        FUZZ_CHECK(in_input && size_t(p - data) + len <= encoded);
      }
      if (t == CBOR_FAST_TYPE_TEXT && (flags & CBOR_FAST_DECODE_VALIDATE_UTF8) != 0)
        FUZZ_CHECK(first_invalid_utf8(p, len) == len);
    }

    // Children in reverse so the preorder is kept.
    std::vector<const cbor_node*> kids;
    for (const cbor_node* c = cbor_node_child(n); c != nullptr;
         c = t == CBOR_FAST_TYPE_TAG ? nullptr : cbor_node_next(c))
      kids.push_back(c);
    for (size_t i = kids.size(); i-- > 0;) todo.push_back(kids[i]);
  }
  return count;
}

/// True when every head of the well-formed data[0, size) is as short as its
/// argument allows (floats excepted: encoding keeps their width).
bool all_heads_shortest(const uint8_t* data, size_t size) {
  cbor_fast::reader r(data, size, unlimited());
  cbor_fast::item it;
  cbor_fast::status s;
  while ((s = r.next(it)) == cbor_fast::status::ok) {
    if (it.type == cbor_fast::item_type::end || it.type == cbor_fast::item_type::floating ||
        it.is_indefinite())
      continue;
    const uint8_t ai = data[it.offset] & 31;
    const uint64_t v = it.arg;
    const bool shortest =
        ai < 24 || (ai == 24 && (v >= 24 || it.type == cbor_fast::item_type::simple)) ||
        (ai == 25 && v > 0xff) || (ai == 26 && v > 0xffff) || (ai == 27 && v > 0xffffffffull);
    if (!shortest) return false;
  }
  FUZZ_CHECK(s == cbor_fast::status::end);
  return true;
}

/// Caller buffers: one byte short overflows and reports the size needed; the
/// exact size works. A sink with tiny chunks gets the same bytes.
void check_writer_modes(const cbor_doc* doc, uint32_t flags, const std::vector<uint8_t>& expect,
                        size_t chunk) {
  std::vector<uint8_t> buf(expect.size() + 1, 0xee);
  cbor_writer* w = nullptr;
  FUZZ_CHECK(cbor_writer_new_buffer(buf.data(), expect.size() - 1, nullptr, &w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_encode(doc, flags, w) == CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  const uint8_t* p = buf.data();
  size_t n = 0;
  FUZZ_CHECK(cbor_writer_finish(w, &p, &n) == CBOR_FAST_ERR_BUFFER_TOO_SMALL);
  FUZZ_CHECK(n == expect.size() && p == nullptr);
  FUZZ_CHECK(buf[expect.size() - 1] == 0xee);  // never past the capacity
  cbor_writer_free(w);

  FUZZ_CHECK(cbor_writer_new_buffer(buf.data(), expect.size(), nullptr, &w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_encode(doc, flags, w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_writer_finish(w, &p, &n) == CBOR_FAST_OK);
  FUZZ_CHECK(n == expect.size() && p == buf.data());
  FUZZ_CHECK(std::memcmp(buf.data(), expect.data(), n) == 0 && buf[n] == 0xee);
  cbor_writer_free(w);

  struct sink_state {
    std::vector<uint8_t> bytes;
    size_t calls = 0;
  } state;
  auto sink = [](void* ctx, const uint8_t* d, size_t len) -> int {
    auto* st = static_cast<sink_state*>(ctx);
    FUZZ_CHECK(len != 0);
    st->bytes.insert(st->bytes.end(), d, d + len);
    ++st->calls;
    return 0;
  };
  FUZZ_CHECK(cbor_writer_new_sink(sink, &state, chunk, nullptr, &w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_encode(doc, flags, w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_writer_finish(w, &p, &n) == CBOR_FAST_OK);
  FUZZ_CHECK(p == nullptr && n == expect.size() && state.bytes == expect);
  cbor_writer_free(w);
}

/// decode(bytes) succeeds, and encode(decoded, flags) gives bytes back.
void check_stable(const std::vector<uint8_t>& bytes, uint32_t decode_flags, uint32_t max_depth,
                  uint32_t encode_flags, std::vector<event>* events) {
  doc_ptr again;
  const cbor_fast_status s =
      decode(bytes.data(), bytes.size(), decode_flags | CBOR_FAST_DECODE_EXACT, max_depth, nullptr,
             again, nullptr);
  if (s != CBOR_FAST_OK) {
    std::fprintf(stderr, "re-decode of %s failed: %s\n", hex(bytes.data(), bytes.size()).c_str(),
                 cbor_status_name(s));
    FUZZ_CHECK(s == CBOR_FAST_OK);
  }
  FUZZ_CHECK(cbor_doc_encoded_size(again.p) == bytes.size());
  const std::vector<uint8_t> re = encode_doc(again.p, encode_flags);
  if (re != bytes) {
    std::fprintf(stderr, "unstable encoding:\n  %s\n  %s\n",
                 hex(bytes.data(), bytes.size()).c_str(), hex(re.data(), re.size()).c_str());
    FUZZ_CHECK(re == bytes);
  }
  if (events != nullptr) *events = doc_events(cbor_doc_root(again.p));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  uint32_t flags = CBOR_FAST_DECODE_NONE;
  if (c.utf8) flags |= CBOR_FAST_DECODE_VALIDATE_UTF8;
  if (c.a) flags |= CBOR_FAST_DECODE_COPY_STRINGS;
  if (c.b) flags |= CBOR_FAST_DECODE_EXACT;
  const uint32_t max_depth = c.depth_code == 0 ? 0 : c.max_depth;  // 0 asks for the default

  // Decode from a heap copy so reads past the input are caught.
  const std::vector<uint8_t> copy(data, data + size);
  const uint8_t* in = copy.empty() ? nullptr : copy.data();
  doc_ptr doc;
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status s = decode(in, size, flags, max_depth, nullptr, doc, &err);
  FUZZ_CHECK(err.offset <= size && err.item_offset <= err.offset);
  if (s == CBOR_FAST_END) FUZZ_CHECK(size == 0);
  if (size == 0) FUZZ_CHECK(s == CBOR_FAST_END);

  // EXACT and trailing bytes agree with the item's encoded size.
  doc_ptr other;
  cbor_fast_error other_err = CBOR_FAST_ERROR_INIT;
  const cbor_fast_status so =
      decode(in, size, flags ^ CBOR_FAST_DECODE_EXACT, max_depth, nullptr, other, &other_err);
  const cbor_fast_status s_plain = c.b ? so : s;
  const cbor_fast_status s_exact = c.b ? s : so;
  const cbor_fast_error& e_exact = c.b ? err : other_err;
  const doc_ptr& plain = c.b ? other : doc;
  if (s_plain == CBOR_FAST_OK) {
    const size_t used = cbor_doc_encoded_size(plain.p);
    FUZZ_CHECK(used >= 1 && used <= size);
    if (used == size) {
      FUZZ_CHECK(s_exact == CBOR_FAST_OK);
    } else {
      FUZZ_CHECK(s_exact == CBOR_FAST_ERR_TRAILING_BYTES && e_exact.offset == used);
    }
  } else {
    FUZZ_CHECK(s_exact == s_plain);
  }

  if (s != CBOR_FAST_OK) {
    FUZZ_CHECK(cbor_status_is_error(s) || s == CBOR_FAST_END);
    return 0;
  }

  // ---- navigation ----
  const size_t nodes = check_nodes(doc.p, in, size, flags);
  FUZZ_CHECK(nodes == cbor_doc_node_count(doc.p));
  const std::vector<event> events = doc_events(cbor_doc_root(doc.p));

  // ---- encode, decode, encode ----
  const uint32_t reflags = flags & CBOR_FAST_DECODE_VALIDATE_UTF8;
  const std::vector<uint8_t> kept = encode_doc(doc.p, CBOR_FAST_ENCODE_NONE);
  std::vector<event> kept_events;
  check_stable(kept, reflags, max_depth, CBOR_FAST_ENCODE_NONE, &kept_events);
  check_same_events(events, kept_events, {false, true}, "decode(encode(doc))");
  if (all_heads_shortest(in, cbor_doc_encoded_size(doc.p))) {
    FUZZ_CHECK(kept.size() == cbor_doc_encoded_size(doc.p));
    FUZZ_CHECK(std::memcmp(kept.data(), in, kept.size()) == 0);
  }

  const std::vector<uint8_t> preferred = encode_doc(doc.p, CBOR_FAST_ENCODE_PREFERRED);
  std::vector<event> preferred_events;
  check_stable(preferred, reflags, max_depth, CBOR_FAST_ENCODE_PREFERRED, &preferred_events);
  check_stable(preferred, reflags, max_depth, CBOR_FAST_ENCODE_NONE, nullptr);
  check_same_events(events, preferred_events, {false, false}, "preferred");
  for (const event& e : preferred_events) FUZZ_CHECK(!e.indefinite);
  // No size check: preferred form is not always shorter. An indefinite array
  // of 256+ items costs 2 bytes of framing (9f ... ff) but 3 as a definite head.

  const size_t chunk = 1 + (size > 2 ? data[size - 1] % 16 : 0);
  check_writer_modes(doc.p, CBOR_FAST_ENCODE_NONE, kept, chunk);

  // ---- a mutable copy: floats keep their width, strings become definite ----
  cbor_mdoc* m = nullptr;
  FUZZ_CHECK(cbor_doc_to_mdoc(doc.p, nullptr, &m) == CBOR_FAST_OK);
  cbor_writer* w = nullptr;
  FUZZ_CHECK(cbor_writer_new(nullptr, &w) == CBOR_FAST_OK);
  FUZZ_CHECK(cbor_mdoc_encode(m, w) == CBOR_FAST_OK);
  const std::vector<uint8_t> from_mdoc = finish_writer(w);
  cbor_writer_free(w);
  cbor_mdoc_free(m);
  std::vector<event> mdoc_events;
  check_stable(from_mdoc, reflags, max_depth, CBOR_FAST_ENCODE_NONE, &mdoc_events);
  check_same_events(events, mdoc_events, {false, false}, "mutable copy");
  {
    // Mutable documents write bignums in preferred form (RFC 8949 3.4.3).
    const std::vector<event> want = prefer_bignums(events);
    const std::vector<event> got = prefer_bignums(mdoc_events);
    FUZZ_CHECK(want.size() == got.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const bool string = want[i].type == cbor_fast::item_type::byte_string ||
                          want[i].type == cbor_fast::item_type::text_string;
      FUZZ_CHECK(got[i].width == want[i].width);
      FUZZ_CHECK(got[i].indefinite == (string ? false : want[i].indefinite));
    }
  }
  {
    doc_ptr md;
    FUZZ_CHECK(decode(from_mdoc.data(), from_mdoc.size(), reflags, max_depth, nullptr, md,
                      nullptr) == CBOR_FAST_OK);
    FUZZ_CHECK(encode_doc(md.p, CBOR_FAST_ENCODE_PREFERRED) == preferred);
  }

  // ---- the same with memory running out part way: OUT_OF_MEMORY, no leak ----
  failing_allocator fa;
  fa.left = long((size * 31 + data[size / 2]) % 24);
  doc_ptr limited;
  const cbor_fast_status sl = decode(in, size, flags, max_depth, &fa.hooks, limited, nullptr);
  FUZZ_CHECK(sl == CBOR_FAST_OK || sl == CBOR_FAST_ERR_OUT_OF_MEMORY);
  if (sl == CBOR_FAST_OK) {
    check_same_events(events, doc_events(cbor_doc_root(limited.p)), {true, true}, "limited");
    cbor_writer* lw = nullptr;
    const cbor_fast_status sw = cbor_writer_new(&fa.hooks, &lw);
    FUZZ_CHECK(sw == CBOR_FAST_OK || sw == CBOR_FAST_ERR_OUT_OF_MEMORY);
    if (sw == CBOR_FAST_OK) {
      const cbor_fast_status se = cbor_encode(limited.p, CBOR_FAST_ENCODE_NONE, lw);
      FUZZ_CHECK(se == CBOR_FAST_OK || se == CBOR_FAST_ERR_OUT_OF_MEMORY);
      const uint8_t* p = nullptr;
      size_t n = 0;
      const cbor_fast_status sf = cbor_writer_finish(lw, &p, &n);
      // The encoder's own stack (deep nesting) may be what ran out: the
      // writer is then fine, only left with containers open.
      FUZZ_CHECK(sf == se ||
                 (se == CBOR_FAST_ERR_OUT_OF_MEMORY && sf == CBOR_FAST_ERR_WRITER_UNCLOSED));
      if (sf == CBOR_FAST_OK) FUZZ_CHECK(n == kept.size() && std::memcmp(p, kept.data(), n) == 0);
    }
    cbor_writer_free(lw);
    cbor_mdoc* lm = nullptr;
    const cbor_fast_status sm = cbor_doc_to_mdoc(limited.p, &fa.hooks, &lm);
    FUZZ_CHECK(sm == CBOR_FAST_OK || sm == CBOR_FAST_ERR_OUT_OF_MEMORY);
    FUZZ_CHECK((sm == CBOR_FAST_OK) == (lm != nullptr));
    cbor_mdoc_free(lm);
  }
  return 0;
}
