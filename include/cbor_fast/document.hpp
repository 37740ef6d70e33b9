// libcbor_fast: documents. An immutable document is one data item decoded
// from a buffer into a flat preorder node array; a mutable document is a tree
// built (or deep-copied) in code. Both encode to a writer. A sequence walks the
// top-level items of a CBOR sequence (RFC 8742).
//
// Nothing here throws or recurses: decode, encode, deep copy and destruction
// keep explicit stacks, so nesting is bounded by max_depth and memory only.
#ifndef CBOR_FAST_DOCUMENT_HPP
#define CBOR_FAST_DOCUMENT_HPP

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cbor_fast/allocator.hpp"
#include "cbor_fast/error.hpp"
#include "cbor_fast/item.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast {

// Internals (never part of the API): declared here for the friends and members below.
namespace detail {
struct doc_node;
struct doc_builder;
struct doc_builder_root;
struct mdoc_core;
struct mnode_encoder;

/// Chunked bump allocator: strings of a document, nodes and strings of a
/// mutable document. Chunks come from the allocator and are freed together.
struct arena {
  void* chunks = nullptr;  ///< most recent chunk; each starts with a link to the previous
  uint8_t* pos = nullptr;  ///< free space of the current chunk
  uint8_t* end = nullptr;
  size_t next_size = 0;  ///< size of the next chunk (grows geometrically)
};

/// Allocator hooks that count the bytes held through them and refuse any
/// request that would take the count past a limit (decode_options::max_memory).
/// With a parent, the parent keeps the count, so allocations through two
/// allocators (a document's and a sequence reader's) share one budget.
struct memory_budget {
  memory_budget(const allocator* base_alloc, memory_budget* counter = nullptr) noexcept;
  memory_budget(const memory_budget&) = delete;
  memory_budget& operator=(const memory_budget&) = delete;

  /// Starts counting from zero with a new limit (SIZE_MAX: no limit).
  void arm(size_t new_limit) noexcept {
    limit = new_limit;
    used = 0;
    exceeded = false;
  }
  size_t left() const noexcept {
    const memory_budget& c = parent != nullptr ? *parent : *this;
    return c.used < c.limit ? c.limit - c.used : 0;
  }
  /// True once a request was refused for the budget (not by the base allocator).
  bool was_exceeded() const noexcept { return parent != nullptr ? parent->exceeded : exceeded; }
  void refuse() noexcept { (parent != nullptr ? parent->exceeded : exceeded) = true; }

  allocator hooks;        ///< what the decoder allocates through (context: this)
  const allocator* base;  ///< where the memory comes from
  memory_budget* parent;  ///< keeps the count when set
  size_t limit = SIZE_MAX;
  size_t used = 0;  ///< bytes held since arm() (frees of older blocks stop at 0)
  bool exceeded = false;
};
}  // namespace detail

inline namespace v1 {

// ==========================================================================
// Options
// ==========================================================================

/// decode() flags (bitwise or). Same values as CBOR_FAST_DECODE_*.
enum decode_flags : uint32_t {
  decode_none = 0,
  /// Exactly one item: bytes after it give trailing_bytes (offset of the first one).
  decode_exact = 1,
  /// Copy every string into the document, so the input may go away after decoding.
  decode_copy_strings = 2,
  /// Reject text strings that are not valid UTF-8.
  decode_validate_utf8 = 4,
  /// Reject duplicate map keys (reader_options::reject_duplicate_keys).
  decode_reject_duplicate_keys = 8,
  /// Require core deterministic encoding (reader_options::deterministic).
  decode_deterministic = 16,
  /// The root is the item inside any self-described CBOR tags (55799) at the
  /// top (RFC 8949 3.4.6); the document still holds (and encoded_size() and
  /// node_count() count) the tags. decode() and sequence::next_document()
  /// (sequence::next() ignores it). Since 0.4.
  decode_skip_self_described = 256,
};

/// encode() flags. Same values as CBOR_FAST_ENCODE_*.
enum encode_flags : uint32_t {
  encode_none = 0,
  /// Preferred serialization: shortest floats, definite lengths, joined strings,
  /// and (since 0.4) bignums without leading zeros, as integers when they fit
  /// 64 bits (RFC 8949 3.4.3). Without it a decoded document keeps its float
  /// widths, indefinite forms and bignum tags.
  encode_preferred = 1,
  /// RFC 8949 4.2.1 core deterministic encoding: map entries sorted by the
  /// bytewise lexicographic order of their encoded keys, shortest heads,
  /// definite lengths, floats at the shortest width that holds them exactly
  /// (NaN payloads, infinities and -0.0 kept: f97e00 stays f97e00, a NaN with
  /// a payload keeps it), bignums in preferred form (RFC 8949 3.4.3: no
  /// leading zero bytes; one that fits 64 bits becomes a plain integer).
  /// Duplicate keys (equal canonical encodings) give duplicate_key. Keys whose
  /// encodings differ are kept even where the reader's duplicate-key check
  /// (reject_duplicate_keys) counts them as one value: 0.0 and -0.0, NaNs of
  /// different payloads, and containers holding them; so decode with that
  /// check first when the output must pass it. Since 0.4.
  encode_canonical = 2,
  /// RFC 8949 4.2.3 length-first order (RFC 7049 3.9 canonical CBOR): shorter
  /// encoded key first, then bytewise; otherwise as encode_canonical, except
  /// that every NaN is written as f97e00 (RFC 7049 3.9). Byte-identical to
  /// Python cbor2's canonical=True. Since 0.4.
  encode_length_first = 4,
  /// CTAP2 canonical CBOR (FIDO CTAP 2.x, "CTAP2 canonical CBOR encoding form"):
  /// keys sorted by major type, then length, then bytewise; shortest heads,
  /// definite lengths; floats keep the width they have (the spec leaves their
  /// representation unchanged); no tags: a bignum that fits 64 bits becomes an
  /// integer, any other tag gives invalid_argument at its offset. Since 0.4.
  encode_ctap2 = 8,
};

/// Safe defaults for untrusted input (since 0.4), what 0 selects in every
/// limit of decode_options (and of cbor_fast_decode_options in C): the
/// memory budget below, default_max_items nodes, default_max_depth levels
/// and (since 0.5) default_max_container_items entries per array or map, the
/// limits readers have by default too, so a document and a reader report a
/// hostile input with the same status and offset. No normal
/// document reaches them: the benchmark corpus decodes within 9 times its size
/// (twitter 1.6-2.9x, citm_catalog 4.5-8.7x, canada 3.8x, with and without
/// copies and strict checks) and a document of one-byte integers needs 24x.
/// Deep nesting is denser while the decoder is inside it (about 71 bytes per
/// open level of one-byte heads: with max_depth raised past about 30,000,
/// such input meets the default budget), and so are keys that are tagged
/// values or containers under reject_duplicate_keys, whose tables count too
/// (a valid 1.6 MB map of such keys met the default budget in a probe). Each is lifted by setting the field, up to its type's
/// maximum for no limit beyond the input's own bound.
///
/// Memory budget: default_memory_per_input_byte times the input size plus
/// default_memory_slack, counted in the input left at the item's start for a
/// sequence.
inline constexpr uint64_t default_memory_per_input_byte = 32;
inline constexpr size_t default_memory_slack = size_t(1) << 20;
/// That budget for `input_size` bytes (the rule decode_options::max_memory's
/// 0 stands for), saturating at SIZE_MAX - 1: a budget still, where SIZE_MAX
/// would mean none. Since 0.5.
constexpr size_t default_max_memory(size_t input_size) noexcept {
  return input_size > (SIZE_MAX - default_memory_slack) / size_t(default_memory_per_input_byte)
             ? SIZE_MAX - 1
             : input_size * size_t(default_memory_per_input_byte) + default_memory_slack;
}
/// Most nodes of one document: default_max_items, 2^28 (6 GiB of nodes).
inline constexpr uint32_t default_max_nodes = uint32_t(default_max_items);

/// Limits and behaviour of decode(). In every limit 0 means the default
/// above, the same rule as the C API's; the largest value of the field means
/// no limit but the input's (and the hard limit of UINT32_MAX - 1 nodes).
struct decode_options {
  uint32_t flags = decode_none;  ///< decode_flags
  /// Nesting limit (containers, tags, indefinite strings); 0 means 512, like the C API.
  uint32_t max_depth = default_max_depth;
  /// Most nodes (data items plus indefinite-string chunks) a document may hold;
  /// 0 means default_max_nodes, UINT32_MAX the hard limit UINT32_MAX - 1.
  /// Exceeding it gives too_many_items. (Before 0.4, 0 meant the hard limit.)
  uint32_t max_nodes = 0;
  /// Longest string or chunk, and longest joined indefinite string, in bytes
  /// (string_too_long at the head that exceeds it). 0: no limit (the default).
  uint64_t max_string_length = UINT64_MAX;
  /// Most entries in one array (items) or map (pairs) (container_too_large);
  /// 0 means default_max_container_items, 2^24, the default (before 0.5: no
  /// limit); UINT64_MAX: no limit.
  uint64_t max_container_items = default_max_container_items;
  /// Most bytes the decoder may hold at once through its allocator: the node
  /// array, copied and joined strings, and the nesting and duplicate-key
  /// tables while decoding (memory_budget_exceeded at the item being added).
  /// 0 (the default): default_memory_per_input_byte times the input size plus
  /// default_memory_slack. SIZE_MAX: no budget, memory bounded by the input
  /// alone (one 24-byte node per input byte, string copies, and the nesting
  /// and key tables, which for hostile nesting reach 50-95 times the input).
  size_t max_memory = 0;
};

/// The reader limits and checks that decode() applies for `options`, the one
/// translation of the document options into the reader's (decode, sequences
/// and cbor_reader_configure() use it): a reader built with them reports what
/// decode() reports, at the same offsets, for the first item of the same
/// input. 0 in a limit becomes its default, max_nodes becomes max_items; the
/// flags decode_validate_utf8, decode_reject_duplicate_keys and
/// decode_deterministic become the reader's checks. decode_exact,
/// decode_copy_strings, decode_skip_self_described and max_memory concern
/// documents only and change nothing here. Since 0.5.
reader_options reader_options_for(const decode_options& options,
                                  const allocator* alloc = nullptr) noexcept;

class document;
class mutable_document;
class node_children;

// ==========================================================================
// node: a read-only view of one node of a document
// ==========================================================================

/// A node of an immutable document: a pointer-sized handle, valid as long as
/// the document (and, without decode_copy_strings, its input). A null node
/// (default-constructed, or returned by a failed lookup) is allowed
/// everywhere: type() is none, getters return invalid_argument, navigation
/// returns a null node. Getters on another type return type_mismatch and
/// leave the out-parameter untouched.
class node {
 public:
  constexpr node() noexcept = default;
  explicit constexpr node(const detail::doc_node* p) noexcept : p_(p) {}

  explicit operator bool() const noexcept { return p_ != nullptr; }
  bool is_null() const noexcept { return p_ == nullptr; }
  /// Never item_type::end.
  item_type type() const noexcept;
  /// Encoded with indefinite length (strings, arrays, maps).
  bool is_indefinite() const noexcept;
  /// Byte offset of the node's head in the input.
  size_t offset() const noexcept;

  // ---- scalars ----
  /// unsigned_int only.
  status get_uint64(uint64_t& out) const noexcept;
  /// unsigned_int up to INT64_MAX, negative_int down to INT64_MIN; out_of_range otherwise.
  status get_int64(int64_t& out) const noexcept;
  /// unsigned_int (negative = false, raw = value) or negative_int (the integer is -1 - raw).
  status get_int_raw(uint64_t& raw, bool& negative) const noexcept;
  /// As get_int_raw, or tag 2/3 over a byte string: magnitude is the content
  /// (big endian, as stored), raw = 0. magnitude.data is null for 64-bit values.
  status get_bignum(uint64_t& raw, byte_view& magnitude, bool& negative) const noexcept;
  /// floating only: the wire value widened exactly (NaN payloads kept).
  status get_double(double& out) const noexcept;
  /// floating: its wire width; shortest (0) for other nodes.
  float_width width() const noexcept;
  /// floating: the wire bits (16, 32 or 64 significant bits).
  status get_float_bits(uint64_t& out) const noexcept;
  status get_bool(bool& out) const noexcept;
  /// simple, boolean, null, undefined: the simple value number.
  status get_simple(uint8_t& out) const noexcept;
  /// byte_string: the content (joined for indefinite strings).
  status get_bytes(byte_view& out) const noexcept;
  /// text_string: the content (joined for indefinite strings), not NUL-terminated.
  status get_text(std::string_view& out) const noexcept;
  status get_tag(uint64_t& out) const noexcept;
  /// tag: its content; null for other nodes.
  node tag_content() const noexcept;

  // ---- containers ----
  /// array: items; map: pairs; 0 for anything else.
  size_t size() const noexcept;
  /// array item i (null past the end or for other nodes). O(1) when every
  /// item of the array is a single node (no nested containers or tags).
  node at(size_t index) const noexcept;
  node operator[](size_t index) const noexcept { return at(index); }
  /// map: key / value of pair i (null past the end or for other nodes).
  node map_key(size_t index) const noexcept;
  node map_value(size_t index) const noexcept;
  /// map: value of the first pair whose key is the text string `key`; null if none.
  node find(std::string_view key) const noexcept;
  /// map: value of the first pair whose key is the integer `key`; null if none.
  node find_int(int64_t key) const noexcept;
  /// First child of an array, map (its first key) or tag (its content); null if none.
  node first_child() const noexcept;
  /// Next sibling in the same container (maps alternate key, value); null after the last.
  node next_sibling() const noexcept;

  /// Children in order: for (node c : n.children()) ... (maps: key, value, key, ...).
  node_children children() const noexcept;

  /// The underlying node (for the C API shims).
  const detail::doc_node* raw() const noexcept { return p_; }
  friend bool operator==(node a, node b) noexcept { return a.p_ == b.p_; }
  friend bool operator!=(node a, node b) noexcept { return a.p_ != b.p_; }

 private:
  const detail::doc_node* p_ = nullptr;
};

/// Forward iterator over the children of a node (see node::children()).
class node_child_iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = node;
  using difference_type = std::ptrdiff_t;
  using pointer = const node*;
  using reference = node;
  node_child_iterator() noexcept = default;
  explicit node_child_iterator(node n) noexcept : n_(n) {}
  node operator*() const noexcept { return n_; }
  node_child_iterator& operator++() noexcept {
    n_ = n_.next_sibling();
    return *this;
  }
  node_child_iterator operator++(int) noexcept {
    node_child_iterator old = *this;
    ++*this;
    return old;
  }
  friend bool operator==(node_child_iterator a, node_child_iterator b) noexcept {
    return a.n_ == b.n_;
  }
  friend bool operator!=(node_child_iterator a, node_child_iterator b) noexcept {
    return !(a == b);
  }

 private:
  node n_;
};

/// The children of a node as a range.
class node_children {
 public:
  explicit node_children(node first) noexcept : first_(first) {}
  node_child_iterator begin() const noexcept { return node_child_iterator(first_); }
  node_child_iterator end() const noexcept { return node_child_iterator(); }

 private:
  node first_;
};

inline node_children node::children() const noexcept { return node_children(first_child()); }

// ==========================================================================
// document: immutable, decoded from a buffer
// ==========================================================================

/// One data item decoded into a flat preorder array of 24-byte nodes plus a
/// string arena (copied strings and joined indefinite strings). Memory comes
/// from the allocator given at construction, grown geometrically: no
/// allocation per node. Decoding again into the same document reuses its
/// node array. Reading (all const members, node views) is thread-safe.
class document {
 public:
  /// alloc: memory hooks (nullptr: malloc/realloc/free); must outlive the document.
  explicit document(const allocator* alloc = nullptr) noexcept;
  document(const document&) = delete;
  document& operator=(const document&) = delete;
  document(document&& other) noexcept;
  document& operator=(document&& other) noexcept;
  ~document();

  /// The root node; null for an empty document.
  node root() const noexcept;
  bool empty() const noexcept { return used_ == 0; }
  /// Data items (keys, values, tags and their content; not string chunks).
  size_t node_count() const noexcept { return items_; }
  /// Input bytes the item occupied: the offset just past it.
  size_t encoded_size() const noexcept { return encoded_size_; }
  /// Drops the content; keeps the node array for the next decode.
  void clear() noexcept;
  /// Frees everything.
  void release() noexcept;
  const allocator& get_allocator() const noexcept { return *alloc_; }

 private:
  friend struct detail::doc_builder;
  friend struct detail::doc_builder_root;
  const allocator* alloc_;
  detail::doc_node* nodes_ = nullptr;
  uint32_t used_ = 0;      ///< nodes in use (data items and string chunks)
  uint32_t root_ = 0;      ///< index of the root node (decode_skip_self_described)
  uint32_t capacity_ = 0;  ///< nodes allocated
  size_t items_ = 0;
  size_t encoded_size_ = 0;
  detail::arena strings_;  ///< copied and joined strings
};

/// Decodes the first item of data[0, size) into *out (replacing its content).
/// Without decode_copy_strings the strings are views into data, which must
/// outlive `out` unchanged. Returns ok; end (no item: size 0); invalid_argument
/// (data null with size > 0, unknown flags); the reader's not-well-formed,
/// invalid_utf8 and depth_exceeded errors with the same offsets;
/// trailing_bytes (decode_exact); too_many_items; out_of_memory. On failure
/// *out is empty and *error (optional) says where.
status decode(const void* data, size_t size, document& out, const decode_options& options = {},
              error_info* error = nullptr) noexcept;
inline status decode(std::string_view input, document& out, const decode_options& options = {},
                     error_info* error = nullptr) noexcept {
  return decode(input.data(), input.size(), out, options, error);
}
/// A temporary std::string or std::vector would die while the document still
/// points into it: refuse to compile (lvalues and literals take the overload above).
template <class Temporary,
          std::enable_if_t<std::is_same<Temporary, std::string>::value ||
                               std::is_same<Temporary, std::vector<uint8_t>>::value,
                           int> = 0>
status decode(Temporary&& input, document& out, const decode_options& options = {},
              error_info* error = nullptr) = delete;

/// Decodes the next top-level item of a reader (which must be at depth 0)
/// into *out. The reader's own options apply: of the flags only
/// decode_copy_strings and decode_skip_self_described act here
/// (decode_exact, decode_validate_utf8, decode_reject_duplicate_keys and
/// decode_deterministic are accepted and ignored: set validate_utf8,
/// reject_duplicate_keys and deterministic on the reader). Always the
/// reader-driven decoder, so any reader works. Returns ok, end when the reader has no
/// more items, invalid_state when it is inside an item, the reader's sticky
/// error, too_many_items or out_of_memory. A streaming reader gives need_more
/// (out empty, nothing consumed) until the whole item is in.
status decode(reader& r, document& out, uint32_t flags = decode_none, error_info* error = nullptr,
              uint32_t max_nodes = 0) noexcept;

/// Writes a node and everything under it (any node of a document) to w.
/// Integers and lengths always get the shortest heads. Without
/// encode_preferred floats keep their wire width and indefinite strings and
/// containers their form and chunks, so a document decoded from preferred
/// heads re-encodes byte for byte. Returns ok or the writer's error
/// (buffer_too_small only after writing the rest, so w.size() is the size needed).
/// Nesting beyond 64 levels takes a heap stack from the default allocator.
status encode(node n, writer& w, uint32_t flags = encode_none) noexcept;
/// The root; invalid_argument for an empty document. Deep nesting takes its
/// stack from the document's allocator.
status encode(const document& doc, writer& w, uint32_t flags = encode_none) noexcept;
/// As encode(n, w, flags), with *error (optional) saying where a canonical
/// encoding failed: the later of two duplicate keys (duplicate_key), or a tag
/// refused by encode_ctap2 (invalid_argument). At most one of encode_canonical,
/// encode_length_first and encode_ctap2 may be set. Canonical forms sort every
/// map in O(n log n) (one linear check for a map already in order) and need
/// scratch memory from the document's allocator, outside its decode budget:
/// the sort's tables for the map being sorted (a probe measured 50 MiB for
/// one map of 300,000 pairs, about 175 bytes a pair) and, for keys that are
/// containers, a few bytes per node and per level of their nesting. A key that is an
/// array, map or tag is encoded once for its map and again inside each key
/// that contains it: keys nested in keys cost O(size x that nesting depth)
/// (2 MB of 500-deep map-in-key chains: about 4 s). On an error, what was
/// written before it stays written (in the writer's buffer or already handed
/// to its sink: a key refused by encode_ctap2 comes after the items before
/// it), and the writer is left inside the open containers: reset() it before
/// writing anything else. duplicate_key is found before a map's first byte. Since 0.4.
status encode(node n, writer& w, uint32_t flags, error_info* error) noexcept;
/// As encode(doc.root(), w, flags, error), with the scratch memory of the
/// canonical forms and any heap stack from the document's allocator (a node
/// alone takes them from the default allocator); invalid_argument for an
/// empty document. Since 0.5.
status encode(const document& doc, writer& w, uint32_t flags, error_info* error) noexcept;
/// Re-encodes the first item of data[0, size) in the canonical form `flags`
/// asks for (one of encode_canonical, encode_length_first, encode_ctap2) to w,
/// whatever the writer's destination: decoded with `options` (so strict checks
/// and limits apply; decode_exact refuses trailing bytes), then encoded as
/// encode(node, w, flags, error). Returns ok; invalid_argument (no canonical
/// flag, two of them, unknown flags; a tag under encode_ctap2); every decode
/// status with its offset; duplicate_key with the later key's offset; the
/// writer's errors (what was written before an error stays, as with
/// encode()). decode_copy_strings is accepted and changes nothing here (the
/// C cbor_canonicalize() refuses CBOR_FAST_DECODE_COPY_STRINGS). Since 0.4.
status canonicalize(const void* data, size_t size, writer& w, uint32_t flags = encode_canonical,
                    const decode_options& options = {}, error_info* error = nullptr) noexcept;

// ==========================================================================
// mutable documents
// ==========================================================================

/// A node of a mutable_document, handled by pointer. Created detached by the
/// document's make_* functions; placed at most once (as root, in a container
/// or as a tag's content); lives until its document is cleared or destroyed.
/// Getters behave as node's.
class mutable_node {
 public:
  mutable_node(const mutable_node&) = delete;
  mutable_node& operator=(const mutable_node&) = delete;

  item_type type() const noexcept { return item_type(type_); }
  /// In a container, a tag or the root.
  bool is_placed() const noexcept { return (flags_ & flag_placed) != 0; }
  bool is_indefinite() const noexcept { return (flags_ & flag_indefinite) != 0; }

  status get_uint64(uint64_t& out) const noexcept;
  status get_int64(int64_t& out) const noexcept;
  status get_int_raw(uint64_t& raw, bool& negative) const noexcept;
  status get_double(double& out) const noexcept;
  /// floating: the width it will be written with (shortest by default).
  float_width width() const noexcept;
  status get_bool(bool& out) const noexcept;
  status get_simple(uint8_t& out) const noexcept;
  status get_bytes(byte_view& out) const noexcept;
  status get_text(std::string_view& out) const noexcept;
  status get_tag(uint64_t& out) const noexcept;
  mutable_node* tag_content() const noexcept;

  /// array: items; map: pairs; 0 otherwise.
  size_t size() const noexcept;
  /// array item i in O(1); nullptr past the end or for other nodes.
  mutable_node* at(size_t index) const noexcept;
  mutable_node* map_key(size_t index) const noexcept;
  mutable_node* map_value(size_t index) const noexcept;
  /// map: value of the first pair with text key `key`; nullptr if none. Searches from
  /// the first pair, or through the map's key index when it has one (see map_set()).
  mutable_node* find(std::string_view key) const noexcept;
  /// map: value of the first pair whose key is the integer `key`; nullptr if none. Since 0.4.
  mutable_node* find_int(int64_t key) const noexcept;
  /// As node::get_bignum (the magnitude view lives in the document). Since 0.4.
  status get_bignum(uint64_t& raw, byte_view& magnitude, bool& negative) const noexcept;
  /// floating: the bits it will be written with (at its width; shortest by default). Since 0.4.
  status get_float_bits(uint64_t& out) const noexcept;
  /// First child of an array, map (its first key) or tag (its content); nullptr if none. Since 0.4.
  mutable_node* first_child() const noexcept;
  /// Next sibling in the same array or map (maps alternate key, value);
  /// nullptr after the last, for a tag's content, the root or a detached node. O(1). Since 0.4.
  mutable_node* next_sibling() const noexcept;
  /// The container or tag holding this node; nullptr for the root and detached nodes. Since 0.4.
  mutable_node* parent() const noexcept;
  /// Position among the parent's children: an array item's index; in a map
  /// 2 * pair for a key and 2 * pair + 1 for a value; 0 for a tag's content,
  /// the root and detached nodes. Since 0.4.
  size_t index() const noexcept { return parent_ != nullptr ? index_ : 0; }

  // Removal (since 0.4). The removed nodes are detached: they stay valid
  // (owned by the document until it is cleared) and may be placed again.
  // Later entries move down one place (two for a map pair), keeping their
  // order: O(entries after the removed one). While iterating:
  //  - by index: after removing entry i, entry i holds the next one (do not
  //    advance), or iterate from the end;
  //  - by first_child()/next_sibling(): take the next sibling before removing
  //    a node (a detached node has none);
  //  - node pointers stay valid; only indices of later entries change.
  // Each returns ok; type_mismatch (not an array / not a map); out_of_range
  // (index past the end, or no pair with that key).
  /// array: removes item i.
  status remove_at(size_t index) noexcept;
  /// map: removes pair i.
  status map_remove_at(size_t index) noexcept;
  /// map: removes the first pair whose key is the text string `key`.
  status map_remove(std::string_view key) noexcept;
  /// map: removes the first pair whose key is the integer `key` (major type 0 or 1).
  status map_remove_int(int64_t key) noexcept;

  // Building. Each returns ok; invalid_argument (null node, a node of another
  // document, one already placed, or one that would contain its container);
  // type_mismatch (wrong container); out_of_range (bad index); out_of_memory.
  /// array: appends item (amortised O(1)).
  status append(mutable_node* item) noexcept;
  /// array: replaces item i; the old item is detached and may be placed again.
  status array_set(size_t index, mutable_node* item) noexcept;
  /// map: appends the pair (no duplicate check).
  status map_put(mutable_node* key, mutable_node* value) noexcept;
  /// map: replaces the value of the first pair with text key `key`, or appends the pair.
  /// On a map of 16 pairs or more, map_set(), map_remove() and map_remove_int() search
  /// through a key index they build in the map (from the document's allocator, 16 to 32
  /// bytes a pair), which map_put() and map_set() then keep up to date and find() and
  /// find_int() use: O(1) on average per key (since 0.5; 160,000 map_set() calls took
  /// 50 s before). A removal takes its key out of the index in O(1) on average (plus a
  /// pass over the later pairs when the map repeats a key); it still moves them down.
  status map_set(std::string_view key, mutable_node* value) noexcept;
  /// array or map: encode with indefinite (true) or definite (false, default) length.
  status set_indefinite(bool indefinite) noexcept;

 private:
  friend struct detail::mdoc_core;
  friend struct detail::mnode_encoder;
  friend class mutable_document;
  mutable_node() noexcept = default;
  static constexpr uint8_t flag_placed = 1;
  static constexpr uint8_t flag_indefinite = 2;
  static constexpr uint8_t flag_root = 4;

  status check_new_child(const mutable_node* item, item_type want) const noexcept;
  status reserve_children(size_t extra) noexcept;
  void adopt(mutable_node* item, size_t index) noexcept;
  void erase_children(size_t first, size_t n) noexcept;
  size_t find_int_index(int64_t key) const noexcept;  ///< children index of the key, or SIZE_MAX
  size_t find_text_index(std::string_view key) const noexcept;

  detail::mdoc_core* owner_ = nullptr;
  mutable_node* parent_ = nullptr;    ///< container or tag holding it (not for the root)
  mutable_node* next_vec_ = nullptr;  ///< containers owning a child vector, for freeing
  uint8_t type_ = 0;
  uint8_t flags_ = 0;
  uint8_t width_ = 0;  ///< floats: float_width
  uint64_t arg_ = 0;   ///< integer / n / tag / simple / string length
  union {
    const uint8_t* data;      ///< strings: content in the arena
    double dbl;               ///< floats
    mutable_node** children;  ///< arrays (items) and maps (key, value, key, ...)
    mutable_node* content;    ///< tags
  } u_ = {nullptr};
  size_t count_ = 0;     ///< arrays/maps: used entries of children
  size_t capacity_ = 0;  ///< arrays/maps: allocated entries of children
  size_t index_ = 0;     ///< position in the parent's children (0 for a tag's content)
};

/// A tree built in code (or deep-copied from a document), encoded with
/// preferred serialization. Nodes and strings live in an arena; child vectors
/// are grown through the allocator. Movable; node pointers stay valid.
class mutable_document {
 public:
  explicit mutable_document(const allocator* alloc = nullptr) noexcept;
  mutable_document(const mutable_document&) = delete;
  mutable_document& operator=(const mutable_document&) = delete;
  mutable_document(mutable_document&& other) noexcept;
  mutable_document& operator=(mutable_document&& other) noexcept;
  ~mutable_document();

  /// The root; nullptr until set.
  mutable_node* root() const noexcept;
  /// node must belong to this document and be detached (or already the root).
  /// A previous root is detached.
  status set_root(mutable_node* node) noexcept;
  /// Frees every node and string.
  void clear() noexcept;
  const allocator& get_allocator() const noexcept { return *alloc_; }

  // Constructors of detached nodes; nullptr when memory runs out or an
  // argument is invalid. Strings are copied.
  mutable_node* make_uint(uint64_t value) noexcept;
  mutable_node* make_int(int64_t value) noexcept;
  /// The integer -1 - n.
  mutable_node* make_negative(uint64_t n) noexcept;
  /// Big-endian magnitude (negative: the value is -1 - magnitude); a plain
  /// integer when it fits 64 bits, else tag 2/3 over the byte string.
  mutable_node* make_bignum(const uint8_t* magnitude, size_t size, bool negative) noexcept;
  /// width: float_width::shortest (preferred) or a forced width. A forced half or
  /// single width rounds the value to it (to nearest, ties to even; past the width's
  /// range to an infinity, as writer::write_float writes it), so get_double() gives
  /// what is written (since 0.5; it gave the value as passed).
  mutable_node* make_float(double value, float_width width = float_width::shortest) noexcept;
  mutable_node* make_bool(bool value) noexcept;
  mutable_node* make_null() noexcept;
  mutable_node* make_undefined() noexcept;
  /// Simple value (24..31 are invalid); 20..23 give boolean/null/undefined nodes.
  mutable_node* make_simple(uint8_t value) noexcept;
  mutable_node* make_bytes(const void* data, size_t size) noexcept;
  mutable_node* make_bytes(byte_view v) noexcept { return make_bytes(v.data, v.size); }
  mutable_node* make_text(std::string_view text) noexcept;
  mutable_node* make_array() noexcept;
  mutable_node* make_map() noexcept;
  /// Tag over content (a detached node of this document).
  mutable_node* make_tag(uint64_t tag, mutable_node* content) noexcept;

  /// Deep-copies a node of an immutable document (strings included) into a
  /// new detached subtree of this document. Floats keep their wire width and
  /// arrays/maps their indefinite form; indefinite strings become definite.
  status copy(node source, mutable_node*& out) noexcept;

 private:
  friend struct detail::mdoc_core;
  detail::mdoc_core* core() noexcept;  ///< created on first use; nullptr when out of memory
  const allocator* alloc_;
  detail::mdoc_core* core_ = nullptr;
};

/// Replaces out's content with a deep copy of doc (see mutable_document::copy).
/// A mutable document has no memory budget: about 80 bytes per item (a
/// probe's 2 MB array of zeros took 214 MiB), against the 24-byte nodes of
/// the document it copies; decode with a budget that leaves room for it.
status to_mutable(const document& doc, mutable_document& out) noexcept;

/// Writes a mutable node and everything under it, preferred serialization
/// (floats at the width each node asks for; a tag 2/3 over a byte string as
/// write_bignum() writes it, since 0.4). Returns ok, invalid_argument
/// (null node) or the writer's error.
status encode(const mutable_node* n, writer& w) noexcept;
/// Writes the root; invalid_argument when there is none.
status encode(const mutable_document& doc, writer& w) noexcept;
/// With encode flags (encode_canonical, encode_length_first, encode_ctap2 for
/// a canonical form; encode_preferred is what the two-argument forms do). The
/// canonical forms encode the tree, decode those bytes and re-encode them
/// sorted, so they take about three times as long as a plain encode. Since 0.4.
status encode(const mutable_node* n, writer& w, uint32_t flags) noexcept;
status encode(const mutable_document& doc, writer& w, uint32_t flags) noexcept;

// ==========================================================================
// sequence: the top-level items of a CBOR sequence
// ==========================================================================

/// Iterates over data[0, size) item by item. The buffer must outlive the
/// sequence (and documents decoded without decode_copy_strings). Errors are
/// sticky; error().item_offset is the start of the bad item.
class sequence {
 public:
  /// options: the limits apply to every item (max_nodes and max_memory to each
  /// document decoded), and options.flags to every call, together with the
  /// flags of the call (since 0.5; before, options.flags were ignored). A flag
  /// no version has makes the sequence fail with invalid_argument (sticky).
  sequence(const void* data, size_t size, const decode_options& options = {},
           const allocator* alloc = nullptr) noexcept;
  /// Not copyable or movable: the reader points at the sequence's own hooks.
  sequence(const sequence&) = delete;
  sequence& operator=(const sequence&) = delete;

  /// Checks the next item (well-formedness; UTF-8, duplicate keys and
  /// deterministic encoding as the flags ask) without building anything. Returns ok with where its bytes are, end
  /// after the last item, or the sticky error.
  status next(size_t& offset, size_t& length, uint32_t flags = decode_none) noexcept;
  /// Decodes the next item into out (flags as decode(); decode_exact ignored).
  status next_document(document& out, uint32_t flags = decode_none) noexcept;
  /// The sticky error (code ok when none).
  const error_info& error() const noexcept { return error_; }
  /// Offset of the next item.
  size_t offset() const noexcept { return reader_.offset(); }

  // ---- input in parts (since 0.5) ----
  /// Hands the sequence a new buffer holding the stream's bytes from offset
  /// first_offset on (as reader::feed(): the same buffer grown, or a window
  /// that starts at or before keep_from()). The first feed() makes the
  /// sequence streaming: from then on next() and next_document() return
  /// need_more (not an error, not sticky, nothing consumed) while the next
  /// item is not all in the buffer, and needed() tells the fewest further
  /// bytes; end_input() says no more comes (an item cut short is then
  /// truncated). Offsets stay the stream's. Documents decoded without
  /// decode_copy_strings point into the buffer fed: a caller that moves its
  /// window asks for copies. invalid_argument as reader::feed() (not sticky).
  status feed(const void* data, size_t size, size_t first_offset = 0) noexcept;
  /// No more input comes (see feed()).
  void end_input() noexcept { reader_.end_input(); }
  /// After need_more: the fewest bytes past the buffer's end wanted.
  size_t needed() const noexcept { return reader_.needed(); }
  /// The first stream offset the next feed() must hold (the next item's).
  size_t keep_from() const noexcept { return reader_.keep_from(); }

 private:
  /// Streaming: ok once the next whole item is buffered, else need_more,
  /// end or the error (failed as next() fails).
  status wait_for_item(size_t start) noexcept;
  status prepare(uint32_t flags) noexcept;
  status fail(status s, const error_info* where, size_t item_start) noexcept;
  /// The reader allocates through it, so its growth while a document is
  /// decoded counts against max_memory; declared first: it outlives reader_.
  detail::memory_budget budget_;
  reader reader_;
  uint32_t max_nodes_;
  size_t max_memory_;
  uint32_t flags_;  ///< options.flags, added to those of every call
  error_info error_;
};

}  // namespace v1
}  // namespace cbor_fast

#include "cbor_fast/document-inl.hpp"

#endif  // CBOR_FAST_DOCUMENT_HPP
