// C API: status strings, version, and the compile-time proof that the C and
// C++ views of shared enums and structs agree (the shims cast between them).
#include <cstddef>
#include <type_traits>

#include "cbor_fast.h"
#include "cbor_fast/allocator.hpp"
#include "cbor_fast/document.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "handles.hpp"

namespace cbor_fast {
namespace detail {
namespace {

// ---- status codes: the C enumerators are the C++ values ---------------------
// One assert per row of cbor_fast/status.def: the C enumerator it names
// exists with the row's value. The test capi.status_table checks the other
// direction (cbor_fast.h declares no code the table lacks, and every alias).
#define CBOR_FAST_STATUS(name, code, c_name, message)                             \
  static_assert(int(CBOR_FAST_##c_name) == (code) && int(status::name) == (code), \
                "CBOR_FAST_" #c_name " must equal status::" #name);
#include "cbor_fast/status.def"
#undef CBOR_FAST_STATUS

// ---- item types, flags and float widths -------------------------------------
#define CBOR_FAST_SAME_TYPE(c, cxx) \
  static_assert(int(c) == int(item_type::cxx), #c " must equal item_type::" #cxx)
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_NONE, none);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_UINT, unsigned_int);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_NEGATIVE, negative_int);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_BYTES, byte_string);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_TEXT, text_string);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_ARRAY, array);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_MAP, map);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_TAG, tag);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_SIMPLE, simple);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_BOOL, boolean);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_NULL, null);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_UNDEFINED, undefined);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_FLOAT, floating);
CBOR_FAST_SAME_TYPE(CBOR_FAST_TYPE_END, end);
#undef CBOR_FAST_SAME_TYPE

static_assert(CBOR_FAST_ITEM_INDEFINITE == item::flag_indefinite, "flag bits must agree");
static_assert(CBOR_FAST_ITEM_BREAK == item::flag_break, "flag bits must agree");
static_assert(int(CBOR_FAST_FLOAT_SHORTEST) == int(float_width::shortest), "float widths");
static_assert(int(CBOR_FAST_FLOAT_HALF) == int(float_width::half), "float widths");
static_assert(int(CBOR_FAST_FLOAT_SINGLE) == int(float_width::single), "float widths");
static_assert(int(CBOR_FAST_FLOAT_DOUBLE) == int(float_width::double_), "float widths");

// ---- the default limits of cbor_fast.h are the C++ ones ----------------------
static_assert(CBOR_FAST_DEFAULT_MEMORY_PER_INPUT_BYTE == default_memory_per_input_byte,
              "default memory budget");
static_assert(CBOR_FAST_DEFAULT_MEMORY_SLACK == default_memory_slack, "default memory slack");
static_assert(CBOR_FAST_DEFAULT_MAX_CONTAINER_ITEMS == default_max_container_items,
              "default container limit");
static_assert(CBOR_FAST_DEFAULT_MAX_ITEMS == default_max_items, "default item limit");

// ---- the allocator hooks: one layout seen from both languages ----------------
static_assert(std::is_standard_layout<cbor_fast_allocator>::value &&
                  std::is_standard_layout<allocator>::value,
              "allocators must be standard layout");
static_assert(sizeof(cbor_fast_allocator) == sizeof(allocator), "allocator size");
static_assert(alignof(cbor_fast_allocator) == alignof(allocator), "allocator alignment");
static_assert(offsetof(cbor_fast_allocator, malloc) == offsetof(allocator, malloc), "malloc");
static_assert(offsetof(cbor_fast_allocator, realloc) == offsetof(allocator, realloc), "realloc");
static_assert(offsetof(cbor_fast_allocator, free) == offsetof(allocator, free), "free");
static_assert(offsetof(cbor_fast_allocator, context) == offsetof(allocator, context), "context");
static_assert(
    std::is_same<decltype(cbor_fast_allocator::malloc), decltype(allocator::malloc)>::value &&
        std::is_same<decltype(cbor_fast_allocator::realloc), decltype(allocator::realloc)>::value &&
        std::is_same<decltype(cbor_fast_allocator::free), decltype(allocator::free)>::value,
    "hook signatures must agree");

// The 0.1 layout of cbor_fast_error, what struct_size == 0 stands for. When a
// field is appended this stays the offset just past `message`.
constexpr size_t k_error_size_0_1 = offsetof(cbor_fast_error, message) + sizeof(const char*);
static_assert(k_error_size_0_1 <= sizeof(cbor_fast_error), "0.1 layout is a prefix");

/// True when the caller's struct of `size` bytes (struct_size) holds the field
/// that ends at byte `end`.
constexpr bool holds(size_t size, size_t end) noexcept { return end <= size; }

}  // namespace

void fill_error(cbor_fast_error* out, const error_info& info) noexcept {
  if (out == nullptr) return;
  const size_t size = out->struct_size == 0 ? k_error_size_0_1 : out->struct_size;
  // Field by field: a caller built against an older, shorter layout must not
  // see bytes past its struct written.
#define CBOR_FAST_SET(field, value) \
  if (holds(size, offsetof(cbor_fast_error, field) + sizeof(out->field))) out->field = (value)
  CBOR_FAST_SET(code, to_c(info.code));
  CBOR_FAST_SET(offset, info.offset);
  CBOR_FAST_SET(item_offset, info.item_offset);
  CBOR_FAST_SET(depth, info.depth);
  CBOR_FAST_SET(message, status_message(info.code));
#undef CBOR_FAST_SET
}

void fill_error(cbor_fast_error* out, status code) noexcept {
  error_info info;
  info.code = code;
  fill_error(out, info);
}

}  // namespace detail
}  // namespace cbor_fast

namespace {
/// The C++ status for a C code, or false for numbers that are not a code
/// (the C++ enum is 16 bits wide: 65636 must not read as 100).
bool known(cbor_fast_status s, cbor_fast::status* out) noexcept {
  const int v = static_cast<int>(s);
  if (v < 0 || v > 0xffff) return false;
  *out = static_cast<cbor_fast::status>(v);
  return true;
}
}  // namespace

// Pure lookups: nothing here can throw, so no try/catch is needed.

const char* cbor_status_string(cbor_fast_status status) {
  cbor_fast::status s;
  return known(status, &s) ? cbor_fast::status_message(s) : "unknown status";
}

const char* cbor_status_name(cbor_fast_status status) {
  cbor_fast::status s;
  return known(status, &s) ? cbor_fast::status_name(s) : "unknown";
}

int cbor_status_is_error(cbor_fast_status status) {
  // By block: 0-9 are not errors (OK, END, NEED_MORE), everything else is.
  const int v = static_cast<int>(status);
  return v >= 0 && v <= 9 ? 0 : 1;
}

int cbor_status_is_malformed(cbor_fast_status status) {
  const int v = static_cast<int>(status);
  return v >= 100 && v <= 199 ? 1 : 0;
}

uint32_t cbor_fast_version(void) { return CBOR_FAST_VERSION; }

const char* cbor_fast_version_string(void) { return CBOR_FAST_VERSION_STRING; }
