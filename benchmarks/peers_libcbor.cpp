// Peer: libcbor (Debian libcbor-dev). Streaming decode, cbor_load, the low-level
// encoders and cbor_serialize, each folding into the same checksum as libcbor_fast.
#include <cbor.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "peers.hpp"
#include "realistic.hpp"

namespace cbor_fast_bench {
namespace libcbor {

namespace {

checksum& sum(void* context) { return *static_cast<checksum*>(context); }

// libcbor's callback bundle: one callback per head kind and width. Negative
// integers arrive as n with the value -1 - n, like libcbor_fast's.
cbor_callbacks make_fold_callbacks() {
  cbor_callbacks cb = cbor_empty_callbacks;
  cb.uint8 = [](void* c, uint8_t v) { sum(c).on_uint(v); };
  cb.uint16 = [](void* c, uint16_t v) { sum(c).on_uint(v); };
  cb.uint32 = [](void* c, uint32_t v) { sum(c).on_uint(v); };
  cb.uint64 = [](void* c, uint64_t v) { sum(c).on_uint(v); };
  cb.negint8 = [](void* c, uint8_t v) { sum(c).on_negative(v); };
  cb.negint16 = [](void* c, uint16_t v) { sum(c).on_negative(v); };
  cb.negint32 = [](void* c, uint32_t v) { sum(c).on_negative(v); };
  cb.negint64 = [](void* c, uint64_t v) { sum(c).on_negative(v); };
  // The header's comments have these two pairs the wrong way round: byte_string
  // and string take definite strings (and chunks), *_start the indefinite heads.
  cb.byte_string = [](void* c, cbor_data p, size_t n) { sum(c).on_string(p, n); };
  cb.byte_string_start = [](void* c) { sum(c).on_container(0); };
  cb.string = [](void* c, cbor_data p, size_t n) { sum(c).on_string(p, n); };
  cb.string_start = [](void* c) { sum(c).on_container(0); };
  cb.array_start = [](void* c, size_t n) { sum(c).on_container(n); };
  cb.indef_array_start = [](void* c) { sum(c).on_container(0); };
  cb.map_start = [](void* c, size_t n) { sum(c).on_container(n); };
  cb.indef_map_start = [](void* c) { sum(c).on_container(0); };
  cb.tag = [](void* c, uint64_t t) { sum(c).on_tag(t); };
  cb.float2 = [](void* c, float f) { sum(c).on_float(double(f)); };
  cb.float4 = [](void* c, float f) { sum(c).on_float(double(f)); };
  cb.float8 = [](void* c, double d) { sum(c).on_float(d); };
  cb.undefined = [](void* c) { sum(c).on_simple(); };
  cb.null = [](void* c) { sum(c).on_simple(); };
  cb.boolean = [](void* c, bool b) { sum(c).on_bool(b); };
  cb.indef_break = [](void*) {};
  return cb;
}

const cbor_callbacks fold_callbacks = make_fold_callbacks();

bool stream(const uint8_t* data, size_t size, const cbor_callbacks* cb, void* context) {
  size_t at = 0;
  while (at < size) {
    const cbor_decoder_result r = cbor_stream_decode(data + at, size - at, cb, context);
    if (r.status != CBOR_DECODER_FINISHED || r.read == 0) return false;
    at += r.read;
  }
  return true;
}

void fold_item(const cbor_item_t* it, checksum& c) {
  switch (cbor_typeof(it)) {
    case CBOR_TYPE_UINT: c.on_uint(cbor_get_int(it)); break;
    case CBOR_TYPE_NEGINT: c.on_negative(cbor_get_int(it)); break;
    case CBOR_TYPE_BYTESTRING:
      if (cbor_bytestring_is_definite(it)) {
        c.on_string(cbor_bytestring_handle(it), cbor_bytestring_length(it));
      } else {
        c.on_container(0);
        cbor_item_t** chunks = cbor_bytestring_chunks_handle(it);
        for (size_t i = 0; i < cbor_bytestring_chunk_count(it); ++i) fold_item(chunks[i], c);
      }
      break;
    case CBOR_TYPE_STRING:
      if (cbor_string_is_definite(it)) {
        c.on_string(cbor_string_handle(it), cbor_string_length(it));
      } else {
        c.on_container(0);
        cbor_item_t** chunks = cbor_string_chunks_handle(it);
        for (size_t i = 0; i < cbor_string_chunk_count(it); ++i) fold_item(chunks[i], c);
      }
      break;
    case CBOR_TYPE_ARRAY: {
      c.on_container(cbor_array_is_definite(it) ? cbor_array_size(it) : 0);
      cbor_item_t** items = cbor_array_handle(it);
      for (size_t i = 0; i < cbor_array_size(it); ++i) fold_item(items[i], c);
      break;
    }
    case CBOR_TYPE_MAP: {
      c.on_container(cbor_map_is_definite(it) ? cbor_map_size(it) : 0);
      const cbor_pair* pairs = cbor_map_handle(it);
      for (size_t i = 0; i < cbor_map_size(it); ++i) {
        fold_item(pairs[i].key, c);
        fold_item(pairs[i].value, c);
      }
      break;
    }
    case CBOR_TYPE_TAG: {
      c.on_tag(cbor_tag_value(it));
      cbor_item_t* content = cbor_tag_item(it);  // a new reference
      fold_item(content, c);
      cbor_decref(&content);
      break;
    }
    case CBOR_TYPE_FLOAT_CTRL:
      if (cbor_float_ctrl_is_ctrl(it)) {
        const uint8_t v = cbor_ctrl_value(it);
        if (v == CBOR_CTRL_TRUE || v == CBOR_CTRL_FALSE) {
          c.on_bool(v == CBOR_CTRL_TRUE);
        } else {
          c.on_simple();
        }
      } else {
        c.on_float(cbor_float_get_float(it));
      }
      break;
  }
}

}  // namespace

namespace {
realistic_hash& hash(void* context) { return *static_cast<realistic_hash*>(context); }

// The realistic consumer's folds (realistic.hpp), one per libcbor callback:
// the same numbers as the C++ consumer gets from an item.
cbor_callbacks make_realistic_callbacks() {
  cbor_callbacks cb = cbor_empty_callbacks;
  cb.uint8 = [](void* c, uint8_t v) { hash(c).mix(1, v); };
  cb.uint16 = [](void* c, uint16_t v) { hash(c).mix(1, v); };
  cb.uint32 = [](void* c, uint32_t v) { hash(c).mix(1, v); };
  cb.uint64 = [](void* c, uint64_t v) { hash(c).mix(1, v); };
  cb.negint8 = [](void* c, uint8_t v) { hash(c).mix(2, v); };
  cb.negint16 = [](void* c, uint16_t v) { hash(c).mix(2, v); };
  cb.negint32 = [](void* c, uint32_t v) { hash(c).mix(2, v); };
  cb.negint64 = [](void* c, uint64_t v) { hash(c).mix(2, v); };
  cb.byte_string = [](void* c, cbor_data p, size_t n) { hash(c).string(3, p, n); };
  cb.byte_string_start = [](void* c) { hash(c).string(3, nullptr, 0); };
  cb.string = [](void* c, cbor_data p, size_t n) { hash(c).string(4, p, n); };
  cb.string_start = [](void* c) { hash(c).string(4, nullptr, 0); };
  cb.array_start = [](void* c, size_t n) { hash(c).mix(5, n); };
  cb.indef_array_start = [](void* c) { hash(c).mix(5, 0); };
  cb.map_start = [](void* c, size_t n) { hash(c).mix(6, n); };
  cb.indef_map_start = [](void* c) { hash(c).mix(6, 0); };
  cb.tag = [](void* c, uint64_t t) { hash(c).mix(7, t); };
  cb.float2 = [](void* c, float f) { hash(c).floating(double(f)); };
  cb.float4 = [](void* c, float f) { hash(c).floating(double(f)); };
  cb.float8 = [](void* c, double d) { hash(c).floating(d); };
  cb.undefined = [](void* c) { hash(c).mix(11, 0); };
  cb.null = [](void* c) { hash(c).mix(10, 0); };
  cb.boolean = [](void* c, bool b) { hash(c).mix(9, b ? 1 : 0); };
  cb.indef_break = [](void*) {};
  return cb;
}

const cbor_callbacks realistic_callbacks = make_realistic_callbacks();
}  // namespace

realistic_hash realistic_walk(const uint8_t* data, size_t size, bool* ok) noexcept {
  realistic_hash h;
  *ok = stream(data, size, &realistic_callbacks, &h);
  return h;
}

checksum walk(const uint8_t* data, size_t size, bool* ok) noexcept {
  checksum c;
  *ok = stream(data, size, &fold_callbacks, &c);
  return c;
}

bool validate(const uint8_t* data, size_t size) noexcept {
  return stream(data, size, &cbor_empty_callbacks, nullptr);
}

void* load(const uint8_t* data, size_t size) noexcept {
  cbor_load_result r;
  cbor_item_t* it = cbor_load(data, size, &r);
  if (it != nullptr && r.error.code != CBOR_ERR_NONE) {
    cbor_decref(&it);
    return nullptr;
  }
  return it;
}

void release(void* item) noexcept {
  cbor_item_t* it = static_cast<cbor_item_t*>(item);
  if (it != nullptr) cbor_decref(&it);
}

bool load_and_free(const uint8_t* data, size_t size) noexcept {
  cbor_load_result r;
  cbor_item_t* it = cbor_load(data, size, &r);
  if (it == nullptr) return false;
  cbor_decref(&it);
  return r.error.code == CBOR_ERR_NONE;
}

checksum tree_checksum(const void* item) {
  checksum c;
  fold_item(static_cast<const cbor_item_t*>(item), c);
  return c;
}

size_t load_sequence(const uint8_t* data, size_t size, checksum* total) noexcept {
  size_t at = 0;
  size_t count = 0;
  while (at < size) {
    cbor_load_result r;
    cbor_item_t* it = cbor_load(data + at, size - at, &r);
    if (it == nullptr) return SIZE_MAX;
    if (total != nullptr) *total += tree_checksum(it);
    cbor_decref(&it);
    if (r.error.code != CBOR_ERR_NONE || r.read == 0) return SIZE_MAX;
    at += r.read;
    ++count;
  }
  return count;
}

size_t encode_tape(const tape& t, uint8_t* out, size_t capacity) noexcept {
  using cbor_fast::item;
  using cbor_fast::item_type;
  size_t at = 0;
  for (const item& it : t) {
    unsigned char* p = out + at;
    const size_t room = capacity - at;
    size_t n = 0;
    switch (it.type) {
      case item_type::unsigned_int: n = cbor_encode_uint(it.value(), p, room); break;
      case item_type::negative_int: n = cbor_encode_negint(it.value(), p, room); break;
      case item_type::byte_string:
      case item_type::text_string: {
        const bool bytes = it.type == item_type::byte_string;
        if (it.is_indefinite()) {
          n = bytes ? cbor_encode_indef_bytestring_start(p, room)
                    : cbor_encode_indef_string_start(p, room);
          break;
        }
        const size_t size = size_t(it.count());
        n = bytes ? cbor_encode_bytestring_start(size, p, room)
                  : cbor_encode_string_start(size, p, room);
        if (n == 0 || room - n < size) return 0;
        std::memcpy(p + n, it.u.data, size);
        n += size;
        break;
      }
      case item_type::array:
        n = it.is_indefinite() ? cbor_encode_indef_array_start(p, room)
                               : cbor_encode_array_start(size_t(it.count()), p, room);
        break;
      case item_type::map:
        n = it.is_indefinite() ? cbor_encode_indef_map_start(p, room)
                               : cbor_encode_map_start(size_t(it.count()), p, room);
        break;
      case item_type::tag: n = cbor_encode_tag(it.tag_number(), p, room); break;
      case item_type::boolean: n = cbor_encode_bool(it.boolean_value(), p, room); break;
      case item_type::null: n = cbor_encode_null(p, room); break;
      case item_type::undefined: n = cbor_encode_undef(p, room); break;
      case item_type::simple: n = cbor_encode_ctrl(it.simple_value(), p, room); break;
      case item_type::floating:
        switch (it.width) {
          case 2: n = cbor_encode_half(float(it.float_value()), p, room); break;
          case 4: n = cbor_encode_single(float(it.float_value()), p, room); break;
          default: n = cbor_encode_double(it.float_value(), p, room); break;
        }
        break;
      case item_type::end:
        if ((it.flags & item::flag_break) == 0) continue;  // a definite container needs no byte
        n = cbor_encode_break(p, room);
        break;
      case item_type::none: continue;
    }
    if (n == 0) return 0;
    at += n;
  }
  return at;
}

size_t serialize(const void* item, uint8_t* out, size_t capacity) noexcept {
  return cbor_serialize(static_cast<const cbor_item_t*>(item), out, capacity);
}

size_t serialize_alloc(const void* item) noexcept {
  unsigned char* buffer = nullptr;
  size_t capacity = 0;
  const size_t n = cbor_serialize_alloc(static_cast<const cbor_item_t*>(item), &buffer, &capacity);
  std::free(buffer);
  return n;
}

}  // namespace libcbor
}  // namespace cbor_fast_bench
