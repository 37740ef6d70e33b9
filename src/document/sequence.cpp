// CBOR sequences (RFC 8742): one top-level item at a time, checked with the
// reader's skip() or decoded into a document.
#include "cbor_fast/document.hpp"
#include "document/decode.hpp"

namespace cbor_fast {
inline namespace v1 {

namespace {
constexpr uint32_t k_decode_flags = decode_exact | decode_copy_strings | decode_validate_utf8 |
                                    decode_reject_duplicate_keys | decode_deterministic |
                                    decode_skip_self_described;

/// The sequence's reader: the limits of every item, max_nodes as its
/// max_items (which a reader counts per top-level item). No strict flags
/// yet: prepare() sets them per call.
reader_options sequence_reader_options(const decode_options& options,
                                       const allocator* alloc) noexcept {
  return detail::reader_options_for(detail::resolve_limits(options, 0), 0, alloc);
}
}  // namespace

sequence::sequence(const void* data, size_t size, const decode_options& options,
                   const allocator* alloc) noexcept
    : budget_(alloc),
      reader_(data, size, sequence_reader_options(options, &budget_.hooks)),
      max_nodes_(detail::resolve_limits(options, 0).max_nodes),
      max_memory_(options.max_memory),
      flags_(options.flags) {
  if ((data == nullptr && size != 0) || (flags_ & ~k_decode_flags) != 0)
    error_ = error_info{status::invalid_argument, 0, 0, 0};
}

status sequence::fail(status s, const error_info* where, size_t item_start) noexcept {
  if (where != nullptr && where->code == s)
    error_ = *where;
  else
    error_ = error_info{s, reader_.offset(), item_start, reader_.depth()};
  error_.item_offset = item_start;  // known here, whatever the reader reports
  return s;
}

status sequence::prepare(uint32_t flags) noexcept {
  if (error_.code != status::ok) return error_.code;
  flags |= flags_;
  if ((flags & ~k_decode_flags) != 0) return status::invalid_argument;
  reader_options ro = reader_.options();
  ro.validate_utf8 = (flags & decode_validate_utf8) != 0;
  ro.reject_duplicate_keys = (flags & decode_reject_duplicate_keys) != 0;
  ro.deterministic = (flags & decode_deterministic) != 0;
  const reader_options& now = reader_.options();
  // Unchanged (a call again after need_more): the reader keeps its scout, so
  // an item fed in many parts is still scanned once.
  if (ro.validate_utf8 == now.validate_utf8 &&
      ro.reject_duplicate_keys == now.reject_duplicate_keys &&
      ro.deterministic == now.deterministic)
    return status::ok;
  // Between items the reader is at depth 0, so any max_depth is accepted.
  return reader_.set_options(ro);
}

status sequence::feed(const void* data, size_t size, size_t first_offset) noexcept {
  if (error_.code != status::ok) return error_.code;
  if (!reader_.options().streaming) {
    reader_options ro = reader_.options();
    ro.streaming = true;
    if (status s = reader_.set_options(ro); s != status::ok) return s;
  }
  return reader_.feed(data, size, first_offset);
}

status sequence::wait_for_item(size_t start) noexcept {
  // The item's bytes are scanned once, however many feeds it takes (the
  // reader's scout); the strict checks run when it is read.
  const status s = reader_.item_ready();
  if (s == status::ok || s == status::need_more || s == status::end) return s;
  return fail(s, &reader_.error(), start);
}

status sequence::next(size_t& offset, size_t& length, uint32_t flags) noexcept {
  if (status s = prepare(flags); s != status::ok) return s;
  budget_.arm(SIZE_MAX);  // no document: no budget
  const size_t start = reader_.offset();
  if (reader_.options().streaming)
    if (const status w = wait_for_item(start); w != status::ok) return w;
  const status s = reader_.skip();
  if (s == status::end) return s;
  if (s != status::ok) return fail(s, &reader_.error(), start);
  offset = start;
  length = reader_.offset() - start;
  return status::ok;
}

status sequence::next_document(document& out, uint32_t call_flags) noexcept {
  if (status s = prepare(call_flags); s != status::ok) {
    out.clear();
    return s;
  }
  const uint32_t flags = call_flags | flags_;
  const size_t start = reader_.offset();
  if (reader_.options().streaming) {
    if (const status w = wait_for_item(start); w != status::ok) {
      out.clear();
      return w;
    }
  }
  error_info where;
  // Growth of the reader's stack and key tables during this item counts too.
  // The default budget scales with the input left: what this item can span.
  decode_options limits;
  limits.max_memory = max_memory_;
  budget_.arm(detail::resolve_limits(limits, reader_.input().size - start).max_memory);
  const status s = detail::decode_from_reader(reader_, out, flags & ~uint32_t(decode_exact), &where,
                                              max_nodes_, &budget_);
  budget_.arm(SIZE_MAX);
  if (s == status::ok && (flags & decode_skip_self_described) != 0) detail::skip_marker(out);
  if (s == status::ok || s == status::end) return s;
  return fail(s, &where, start);
}

}  // namespace v1
}  // namespace cbor_fast
