// C API: cbor_stream_* shims over cbor_fast::stream.
#include "cbor_fast/stream.hpp"

#include <string>

#include "cbor_fast.h"
#include "document_handles.hpp"
#include "handles.hpp"

using cbor_fast::detail::delete_handle;
using cbor_fast::detail::error_ok;
using cbor_fast::detail::fill_error;
using cbor_fast::detail::guard;
using cbor_fast::detail::new_handle;
using cbor_fast::detail::to_c;

struct cbor_stream {
  cbor_fast::allocator alloc;
  cbor_fast_source_fn source;
  void* context;
  int fd;
  cbor_fast::stream stream;
  std::string joined;  ///< cbor_stream_join's copy

  cbor_stream(const cbor_fast::allocator& a, cbor_fast_source_fn fn, void* ctx, int file,
              size_t max_buffer) noexcept
      : alloc(a),
        source(fn),
        context(ctx),
        fd(file),
        stream(&call_source, this, options(&alloc, max_buffer)) {}

 private:
  static cbor_fast::stream_options options(const cbor_fast::allocator* a,
                                           size_t max_buffer) noexcept {
    cbor_fast::stream_options o;
    o.reader.alloc = a;
    o.max_buffer = max_buffer;  // 0: the default
    return o;
  }
  static bool call_source(void* self, uint8_t* buffer, size_t capacity, size_t* got) {
    cbor_stream* s = static_cast<cbor_stream*>(self);
    if (s->source == nullptr) return cbor_fast::fd_source(&s->fd, buffer, capacity, got);
    *got = 0;
    return s->source(s->context, buffer, capacity, got) == 0;
  }
};

namespace {
cbor_fast_status make(cbor_fast_source_fn fn, void* ctx, int fd, size_t max_buffer,
                      const cbor_fast_allocator* alloc, cbor_stream** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  cbor_fast::allocator a;
  if (!cbor_fast::detail::to_allocator(alloc, &a)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_stream* s = new_handle<cbor_stream>(a, fn, ctx, fd, max_buffer);
    if (s == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    *out = s;
    return CBOR_FAST_OK;
  });
}
}  // namespace

cbor_fast_status cbor_stream_new(cbor_fast_source_fn source, void* context, size_t max_buffer,
                                 const cbor_fast_allocator* alloc, cbor_stream** out) {
  if (source == nullptr) {
    if (out != nullptr) *out = nullptr;
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  return make(source, context, -1, max_buffer, alloc, out);
}

cbor_fast_status cbor_stream_new_fd(int fd, size_t max_buffer, const cbor_fast_allocator* alloc,
                                    cbor_stream** out) {
  if (fd < 0) {
    if (out != nullptr) *out = nullptr;
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  return make(nullptr, nullptr, fd, max_buffer, alloc, out);
}

void cbor_stream_free(cbor_stream* stream) {
  if (stream != nullptr) delete_handle(stream);
}

cbor_fast_status cbor_stream_set(cbor_stream* stream, cbor_fast_option option, uint64_t value) {
  if (stream == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  const int opt = cbor_fast::detail::enum_value(option);
  if (opt == CBOR_FAST_OPT_STREAMING) return CBOR_FAST_ERR_INVALID_ARGUMENT;  // always on
  return guard([&] {
    cbor_fast::reader_options o = stream->stream.reader().options();
    const cbor_fast_status s = cbor_fast::detail::apply_option(o, opt, value);
    return s != CBOR_FAST_OK ? s : to_c(stream->stream.set_options(o));
  });
}

cbor_fast_status cbor_stream_configure(cbor_stream* stream, uint32_t flags,
                                       const cbor_fast_decode_options* options) {
  if (stream == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_fast::reader_options o;
    uint64_t max_memory = 0;
    const cbor_fast_status s = cbor_fast::detail::configured_options(
        flags, options, stream->stream.reader().options(), &o, &max_memory);
    if (s != CBOR_FAST_OK) return s;
    const cbor_fast_status set = to_c(stream->stream.set_options(o));
    // The documents' budget changes only with the rest (0 or UINT64_MAX: none).
    if (set == CBOR_FAST_OK)
      stream->stream.set_max_document_memory(max_memory < SIZE_MAX ? size_t(max_memory) : SIZE_MAX);
    return set;
  });
}

cbor_fast_status cbor_stream_next(cbor_stream* stream, cbor_fast_item* item) {
  if (stream == nullptr || item == nullptr || !cbor_fast::detail::item_size_ok(item->struct_size))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    cbor_fast::item it;
    const cbor_fast::status s = stream->stream.next(it);
    if (s == cbor_fast::status::ok) cbor_fast::detail::item_to_c(it, item);
    return to_c(s);
  });
}

cbor_fast_status cbor_stream_skip(cbor_stream* stream) {
  if (stream == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] { return to_c(stream->stream.skip()); });
}

cbor_fast_status cbor_stream_join(cbor_stream* stream, const cbor_fast_item* item,
                                  const uint8_t** data, size_t* size) {
  if (stream == nullptr || item == nullptr || data == nullptr || size == nullptr ||
      !cbor_fast::detail::item_size_ok(item->struct_size))
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *data = nullptr;
  *size = 0;
  return guard([&] {
    const cbor_fast::item start = cbor_fast::detail::item_from_c(*item);
    const bool is_string = start.type == cbor_fast::item_type::byte_string ||
                           start.type == cbor_fast::item_type::text_string;
    if (!is_string) return CBOR_FAST_ERR_INVALID_STATE;
    // A definite string is in the buffer until the next call on the stream.
    stream->joined.clear();
    const cbor_fast::status s = stream->stream.read_joined(start, stream->joined);
    if (s != cbor_fast::status::ok) return to_c(s);
    *data = reinterpret_cast<const uint8_t*>(stream->joined.data());
    *size = stream->joined.size();
    return CBOR_FAST_OK;
  });
}

cbor_fast_status cbor_stream_next_doc(cbor_stream* stream, uint32_t flags, cbor_doc** out) {
  if (out == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  if (stream == nullptr) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  return guard([&] {
    if (stream->stream.error().code != cbor_fast::status::ok)
      return to_c(stream->stream.error().code);
    if ((flags & ~uint32_t(CBOR_FAST_DECODE_COPY_STRINGS)) != 0)
      return CBOR_FAST_ERR_INVALID_ARGUMENT;
    cbor_doc* doc = new_handle<cbor_doc>(stream->alloc);
    if (doc == nullptr) return CBOR_FAST_ERR_OUT_OF_MEMORY;
    const cbor_fast::status s = stream->stream.next_document(doc->doc, flags);
    if (s != cbor_fast::status::ok) {
      delete_handle(doc);
      return to_c(s);
    }
    *out = doc;
    return CBOR_FAST_OK;
  });
}

size_t cbor_stream_offset(const cbor_stream* stream) {
  return stream != nullptr ? stream->stream.offset() : 0;
}

cbor_fast_status cbor_stream_error(const cbor_stream* stream, cbor_fast_error* error) {
  if (!error_ok(error)) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  if (stream == nullptr) {
    fill_error(error, cbor_fast::status::invalid_argument);
    return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
  fill_error(error, stream->stream.error());
  return to_c(stream->stream.error().code);
}
