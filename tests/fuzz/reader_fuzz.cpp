// reader_fuzz: walks every item with the C++ pull reader and checks each one
// against the raw bytes with a model of its own (nesting, counts, heads,
// strings, floats, UTF-8), checks every error against the bytes it blames,
// then runs skip(), skip_to_end()/read_joined() and reset() passes that must
// end with the same status at the same offsets, and visit() and
// visit_items() passes that must deliver next()'s items field for field.
//
// With a strict check on (reject_duplicate_keys, deterministic) two oracles
// from strict_model.hpp judge the reader: a reference pass with the checks
// off predicts the first violation (a non-shortest head or float, an
// indefinite length, a key not above the previous one, a key whose preferred
// re-encoding equals an earlier key's in the same map, compared naively) and
// the reader must report exactly that (status, offset, and the next() call
// that reports it); an accepted deterministic input must be its own
// preferred re-encoding, through the harness model and through cbor_decode +
// cbor_encode(CBOR_FAST_ENCODE_PREFERRED).
//
// Input: configuration byte (fuzz_util.hpp; depth code 31 means max_depth 0,
// which is the default, 512, as 0 is in every limit;
// a: a limits byte L follows, max_string_length = L % 32 and
// max_container_items = L / 32; b: a byte follows that is max_items), then
// optionally the strict marker 0x1c and a strict byte S (bit 0
// reject_duplicate_keys, bit 1 deterministic), then the CBOR sequence. 0x1c
// (reserved additional information) can only start a malformed sequence, so
// seeds written before the marker existed keep their meaning; a lone 0x1c
// stays CBOR.
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "capi_util.hpp"
#include "cbor_fast/reader.hpp"
#include "fuzz_util.hpp"
#include "strict_model.hpp"

using cbor_fast::item;
using cbor_fast::item_type;
using cbor_fast::reader;
using cbor_fast::status;

namespace {

using namespace cbor_fast_fuzz;

/// An open container, tag or indefinite string of the model.
struct frame {
  uint8_t major;  ///< 2, 3 (indefinite strings), 4, 5, 6
  bool indefinite;
  uint64_t expected;  ///< definite arrays: items; maps: 2 * pairs; tags: 1
  uint64_t seen;
  size_t offset;  ///< its head
};

/// Head size for an additional-information value (0 for 28..30).
size_t head_size_of(uint8_t ai) {
  if (ai < 24 || ai == 31) return 1;
  if (ai <= 27) return size_t(1) + (size_t(1) << (ai - 24));
  return 0;
}

/// What the model learns from a first walk, for the later passes to compare.
struct walk_result {
  status final = status::ok;  ///< end or the error
  cbor_fast::error_info error;
  size_t fail_at = 0;                    ///< offset where the failing next() started
  std::vector<size_t> top_starts;        ///< offset of each top-level item
  std::vector<size_t> top_ends;          ///< offset after each complete top-level item
  std::map<size_t, size_t> close_at;     ///< container/string head -> offset after its end
  std::map<size_t, std::string> joined;  ///< indefinite string head -> joined content
};

/// The head at data[at]: major type and argument, when complete and definite.
bool definite_head(const uint8_t* data, size_t size, size_t at, uint8_t& major, uint64_t& arg,
                   size_t& hs) {
  if (at >= size) return false;
  const uint8_t ai = data[at] & 31;
  hs = head_size_of(ai);
  if (hs == 0 || ai == 31 || size - at < hs) return false;
  major = data[at] >> 5;
  arg = ai < 24 ? ai : load_be(data + at + 1, hs - 1);
  return true;
}

/// True when the item starting at `at` really is cut short (the reader's
/// truncated error): head or string past the end, or a count that cannot fit.
bool truncated_at(const uint8_t* data, size_t size, size_t at, bool inside_item,
                  const cbor_fast::reader_options& opts) {
  if (at == size) return inside_item;
  const uint8_t ai = data[at] & 31;
  if (head_size_of(ai) == 0 || ai == 31) return false;
  uint8_t major = 0;
  uint64_t arg = 0;
  size_t hs = 0;
  if (!definite_head(data, size, at, major, arg, hs)) return true;  // head cut short
  const uint64_t rest = size - at - hs;
  // Limits are checked before the length against the input.
  if (major == 2 || major == 3) return arg <= opts.max_string_length && arg > rest;
  if (major == 4) return arg <= opts.max_container_items && arg > rest;
  if (major == 5) return arg <= opts.max_container_items && arg > rest / 2;
  return false;
}

walk_result walk(const uint8_t* data, size_t size, const cbor_fast::reader_options& opts) {
  walk_result res;
  reader r(data, size, opts);
  std::vector<frame> stack;
  std::vector<std::string> joining;  // content of the open indefinite strings
  size_t top_start = 0;
  uint64_t items = 0;  // heads of the current top-level item, for max_items
  item it;
  for (;;) {
    const size_t before = r.offset();
    const status s = r.next(it);
    if (s == status::end) {
      FUZZ_CHECK(stack.empty());
      FUZZ_CHECK(before == size && r.offset() == size && r.at_end());
      FUZZ_CHECK(r.next(it) == status::end);
      FUZZ_CHECK(r.finish() == status::ok);
      res.final = s;
      return res;
    }
    if (s != status::ok) {
      FUZZ_CHECK(cbor_fast::is_error(s));
      const cbor_fast::error_info e = r.error();
      FUZZ_CHECK(e.code == s);
      // A key is judged once complete: duplicate and order errors may name
      // a key head before this call.
      const bool key_error = s == status::duplicate_key || s == status::unsorted_map_keys;
      FUZZ_CHECK((key_error || e.offset >= before) && e.offset <= size);
      FUZZ_CHECK(e.item_offset == (stack.empty() ? before : top_start));
      // Sticky.
      FUZZ_CHECK(r.next(it) == s && r.skip() == s && r.finish() == s);
      FUZZ_CHECK(r.error().offset == e.offset);
      // Each error must name a byte that really is wrong in that way.
      const bool have = before < size;
      const uint8_t ib = have ? data[before] : 0;
      const bool in_string = !stack.empty() && (stack.back().major == 2 || stack.back().major == 3);
      switch (s) {
        case status::truncated:
          FUZZ_CHECK(e.offset == before);
          FUZZ_CHECK(truncated_at(data, size, before, !stack.empty(), opts));
          break;
        case status::reserved_additional_info:
          FUZZ_CHECK(e.offset == before && have && (ib & 31) >= 28 && (ib & 31) <= 30);
          break;
        case status::indefinite_not_allowed:
          FUZZ_CHECK(e.offset == before && have && (ib & 31) == 31);
          FUZZ_CHECK((ib >> 5) == 0 || (ib >> 5) == 1 || (ib >> 5) == 6);
          break;
        case status::bad_simple_value:
          FUZZ_CHECK(e.offset == before && ib == 0xf8 && before + 1 < size &&
                     data[before + 1] < 32);
          break;
        case status::chunk_type_mismatch:
          FUZZ_CHECK(e.offset == before && have && in_string);
          FUZZ_CHECK((ib >> 5) != stack.back().major && ib != 0xff);
          break;
        case status::nested_indefinite_chunk:
          FUZZ_CHECK(e.offset == before && have && in_string);
          FUZZ_CHECK(ib == uint8_t(stack.back().major << 5 | 31));
          break;
        case status::unexpected_break:
          FUZZ_CHECK(e.offset == before && ib == 0xff && have);
          FUZZ_CHECK(stack.empty() || !stack.back().indefinite);
          break;
        case status::map_missing_value:
          FUZZ_CHECK(e.offset == before && ib == 0xff && have);
          FUZZ_CHECK(!stack.empty() && stack.back().major == 5 && stack.back().indefinite &&
                     stack.back().seen % 2 == 1);
          break;
        case status::invalid_utf8: {
          FUZZ_CHECK(opts.validate_utf8 && have && (ib >> 5) == 3 && (ib & 31) != 31);
          const size_t hs = head_size_of(ib & 31);
          FUZZ_CHECK(hs != 0 && size - before >= hs);
          const uint64_t len =
              (ib & 31) < 24 ? uint64_t(ib & 31) : load_be(data + before + 1, hs - 1);
          FUZZ_CHECK(len <= size - before - hs);
          const size_t bad = first_invalid_utf8(data + before + hs, size_t(len));
          FUZZ_CHECK(bad < len);
          FUZZ_CHECK(e.offset == before + hs + bad);
          break;
        }
        case status::depth_exceeded: {
          FUZZ_CHECK(e.offset == before && have);
          FUZZ_CHECK(stack.size() == opts.max_depth);
          const uint8_t major = ib >> 5;
          FUZZ_CHECK(major == 4 || major == 5 || major == 6 ||
                     ((major == 2 || major == 3) && (ib & 31) == 31));
          break;
        }
        case status::string_too_long: {
          uint8_t major = 0;
          uint64_t arg = 0;
          size_t hs = 0;
          FUZZ_CHECK(e.offset == before && definite_head(data, size, before, major, arg, hs));
          FUZZ_CHECK(major == 2 || major == 3);
          if (arg > opts.max_string_length) break;
          // Or a complete chunk taking its indefinite string's joined length
          // over the limit.
          FUZZ_CHECK(in_string && arg <= size - before - hs);
          FUZZ_CHECK(arg > opts.max_string_length - joining.back().size());
          break;
        }
        case status::container_too_large: {
          FUZZ_CHECK(e.offset == before && have);
          uint8_t major = 0;
          uint64_t arg = 0;
          size_t hs = 0;
          if (definite_head(data, size, before, major, arg, hs) && (major == 4 || major == 5) &&
              arg > opts.max_container_items)
            break;  // a definite head declaring too many
          // Or an indefinite array/map already full, and no break follows.
          FUZZ_CHECK(!stack.empty() && stack.back().indefinite && ib != 0xff);
          const frame& f = stack.back();
          FUZZ_CHECK((f.major == 4 && f.seen == opts.max_container_items) ||
                     (f.major == 5 && f.seen / 2 == opts.max_container_items));
          break;
        }
        case status::too_many_items:
          // max_items bounds each top-level item: never the head of a new one.
          FUZZ_CHECK(e.offset == before && have && ib != 0xff && !stack.empty() &&
                     items == opts.max_items);
          break;
        case status::non_preferred_encoding: {
          FUZZ_CHECK(opts.deterministic && e.offset == before && have && !in_string);
          const size_t hs = head_size_of(ib & 31);
          FUZZ_CHECK(hs != 0 && size - before >= hs);
          if (head_is_shortest(data + before)) {
            // Since 0.4 (RFC 8949 3.4.3): a bignum (tag 2 or 3) over a byte
            // string of at most 8 bytes, or with a leading zero, is reported
            // at the tag's own (shortest) head.
            FUZZ_CHECK((ib == 0xc2 || ib == 0xc3) && size - before >= 2);
            const uint8_t b = data[before + 1];
            FUZZ_CHECK((b >> 5) == 2);
            if ((b & 31) < 24)
              FUZZ_CHECK((b & 31) <= 8 || (size - before >= 3 && data[before + 2] == 0));
          }
          break;
        }
        case status::indefinite_length:
          FUZZ_CHECK(opts.deterministic && e.offset == before && have && (ib & 31) == 31);
          FUZZ_CHECK((ib >> 5) >= 2 && (ib >> 5) <= 5);
          break;
        case status::unsorted_map_keys:
          FUZZ_CHECK(opts.deterministic && !stack.empty() && stack.back().major == 5);
          FUZZ_CHECK(e.offset >= stack.back().offset && e.offset <= before);
          break;
        case status::duplicate_key:
          FUZZ_CHECK((opts.deterministic || opts.reject_duplicate_keys) && !stack.empty() &&
                     stack.back().major == 5);
          FUZZ_CHECK(e.offset > stack.back().offset && e.offset <= before);
          break;
        default: FUZZ_FAIL("unexpected status from next()");
      }
      res.final = s;
      res.error = e;
      res.fail_at = before;
      return res;
    }

    // ---- a good item: offsets, depth, head, content ----
    const size_t after = r.offset();
    FUZZ_CHECK(it.offset == before);
    FUZZ_CHECK(after == it.offset + it.encoded_size() && after <= size);

    if (it.type == item_type::end) {
      FUZZ_CHECK(!stack.empty() && stack.back().major != 6);
      const frame f = stack.back();
      FUZZ_CHECK(it.depth == stack.size() - 1);
      if (f.indefinite) {
        // The end of an indefinite container is marked indefinite too.
        FUZZ_CHECK(it.flags == (item::flag_indefinite | item::flag_break));
        FUZZ_CHECK(it.head_size == 1 && data[before] == 0xff);
        if (f.major == 5) FUZZ_CHECK(f.seen % 2 == 0);
      } else {
        FUZZ_CHECK(it.flags == 0 && it.head_size == 0 && f.seen == f.expected);
      }
      stack.pop_back();
      res.close_at[f.offset] = after;
      if (f.major == 2 || f.major == 3) {
        res.joined[f.offset] = joining.back();
        joining.pop_back();
      }
    } else {
      FUZZ_CHECK(before < size);
      const uint8_t ib = data[before];
      const uint8_t major = ib >> 5;
      const uint8_t ai = ib & 31;
      const size_t hs = head_size_of(ai);
      FUZZ_CHECK(hs != 0 && it.head_size == hs);
      const uint64_t arg = ai < 24 || ai == 31 ? ai : load_be(data + before + 1, hs - 1);
      FUZZ_CHECK(it.depth == stack.size());
      if (stack.empty()) items = 0;  // a new top-level item: a whole budget
      FUZZ_CHECK(++items <= opts.max_items);
      // Deterministic mode lets no indefinite or non-shortest head through
      // (chunks cannot occur: their string failed at its head).
      if (opts.deterministic) FUZZ_CHECK(ai != 31 && head_is_shortest(data + before));
      if (stack.empty()) top_start = before;
      const bool chunk = !stack.empty() && (stack.back().major == 2 || stack.back().major == 3);
      if (chunk) FUZZ_CHECK(major == stack.back().major && ai != 31);
      if (!stack.empty()) {
        frame& f = stack.back();
        ++f.seen;
        if (!f.indefinite) FUZZ_CHECK(f.seen <= f.expected);
        if (f.indefinite && f.major == 4) FUZZ_CHECK(f.seen <= opts.max_container_items);
        if (f.indefinite && f.major == 5) FUZZ_CHECK((f.seen + 1) / 2 <= opts.max_container_items);
      }
      const bool indefinite = ai == 31;
      FUZZ_CHECK(it.is_indefinite() == indefinite);
      FUZZ_CHECK(it.flags == (indefinite ? item::flag_indefinite : 0));
      switch (major) {
        case 0:
        case 1:
          FUZZ_CHECK(it.type == (major == 0 ? item_type::unsigned_int : item_type::negative_int));
          FUZZ_CHECK(it.arg == arg);
          break;
        case 2:
        case 3:
          FUZZ_CHECK(it.type == (major == 2 ? item_type::byte_string : item_type::text_string));
          if (!indefinite) {
            FUZZ_CHECK(it.arg == arg && arg <= size - before - hs);
            FUZZ_CHECK(arg <= opts.max_string_length);
            FUZZ_CHECK(it.bytes().data == data + before + hs);
            if (major == 3 && opts.validate_utf8)
              FUZZ_CHECK(first_invalid_utf8(it.bytes().data, it.bytes().size) == it.bytes().size);
            if (chunk) {
              joining.back().append(it.text());
              FUZZ_CHECK(joining.back().size() <= opts.max_string_length);
            }
          } else {
            FUZZ_CHECK(it.arg == 0);
          }
          break;
        case 4:
        case 5:
          FUZZ_CHECK(it.type == (major == 4 ? item_type::array : item_type::map));
          FUZZ_CHECK(it.arg == (indefinite ? 0 : arg));
          if (!indefinite) FUZZ_CHECK(arg <= opts.max_container_items);
          break;
        case 6: FUZZ_CHECK(it.type == item_type::tag && it.arg == arg); break;
        default:
          if (ai == 20 || ai == 21) {
            FUZZ_CHECK(it.type == item_type::boolean && it.arg == ai);
            FUZZ_CHECK(it.boolean_value() == (ai == 21));
          } else if (ai == 22) {
            FUZZ_CHECK(it.type == item_type::null && it.arg == 22);
          } else if (ai == 23) {
            FUZZ_CHECK(it.type == item_type::undefined && it.arg == 23);
          } else if (ai < 20) {
            FUZZ_CHECK(it.type == item_type::simple && it.arg == ai);
          } else if (ai == 24) {
            FUZZ_CHECK(it.type == item_type::simple && it.arg == arg && arg >= 32);
            FUZZ_CHECK(it.simple_value() == arg);
          } else {
            FUZZ_CHECK(ai >= 25 && ai <= 27);
            FUZZ_CHECK(it.type == item_type::floating && it.width == hs - 1);
            FUZZ_CHECK(it.float_bits() == arg);
            FUZZ_CHECK(double_bits(it.float_value()) == widen_wire_float(arg, it.width));
          }
          break;
      }
      // Containers, tags and indefinite strings open a level.
      const bool opens = major == 4 || major == 5 || major == 6 || (major <= 3 && indefinite);
      if (opens) {
        FUZZ_CHECK(stack.size() < opts.max_depth);
        const uint64_t expected = major == 5 ? (indefinite ? 0 : 2 * arg) : major == 6 ? 1 : arg;
        stack.push_back({major, indefinite, expected, 0, before});
        if (major == 2 || major == 3) joining.emplace_back();
      }
    }
    // Items complete finished tags; a complete top-level item is recorded.
    const bool complete =
        it.type == item_type::end || !(!stack.empty() && stack.back().offset == before);
    if (complete) {
      while (!stack.empty() && stack.back().major == 6 && stack.back().seen == 1) {
        res.close_at[stack.back().offset] = after;
        stack.pop_back();
      }
      if (stack.empty()) {
        res.top_starts.push_back(top_start);
        res.top_ends.push_back(after);
      }
    }
    // Tags whose content is complete no longer count.
    FUZZ_CHECK(r.depth() == stack.size());
    FUZZ_CHECK(r.at_end() == (stack.empty() && after == size));
  }
}

/// skip() over every top-level item: same boundaries, same final status.
void skip_pass(reader& r, const walk_result& w) {
  size_t n = 0;
  for (;;) {
    const size_t before = r.offset();
    const status s = r.skip();
    if (s != status::ok) {
      FUZZ_CHECK(s == w.final);
      FUZZ_CHECK(n == w.top_ends.size());
      if (s != status::end) {
        FUZZ_CHECK(r.error().offset == w.error.offset);
        FUZZ_CHECK(r.error().item_offset == w.error.item_offset);
        FUZZ_CHECK(r.error().depth == w.error.depth);
      }
      return;
    }
    FUZZ_CHECK(n < w.top_ends.size());
    FUZZ_CHECK(before == w.top_starts[n] && r.offset() == w.top_ends[n]);
    FUZZ_CHECK(r.depth() == 0);
    ++n;
  }
}

/// next() with skip_to_end() over every other container and read_joined()
/// for strings: the jumps land where the walk says, the status is the same.
void mixed_pass(reader& r, const walk_result& w, uint64_t max_string_length) {
  item it;
  for (;;) {
    status s = r.next(it);
    if (s == status::ok) {
      const bool string = it.type == item_type::byte_string || it.type == item_type::text_string;
      const bool opens = it.type == item_type::array || it.type == item_type::map ||
                         (string && it.is_indefinite());
      if (opens && it.offset % 2 == 0 && !(string && it.offset % 4 == 2)) {
        s = r.skip_to_end();
        if (s == status::ok) {
          const auto at = w.close_at.find(it.offset);
          FUZZ_CHECK(at != w.close_at.end() && r.offset() == at->second);
        }
      } else if (string && (it.is_indefinite() || it.offset % 3 == 0)) {
        std::string joined = "x";
        s = r.read_joined(it, joined);
        if (s == status::string_too_long && it.is_indefinite()) {
          // The joined length is limited too, which a walk never sees: the
          // content so far must be over the limit, found before the walk's error.
          const auto at = w.joined.find(it.offset);
          if (at != w.joined.end()) {
            FUZZ_CHECK(at->second.size() > max_string_length);
          } else {
            // The walk failed inside this string: later, or on the same chunk
            // for the same reason (a chunk over the limit on its own).
            FUZZ_CHECK(w.final != status::end && r.error().offset <= w.error.offset);
            if (r.error().offset == w.error.offset) FUZZ_CHECK(w.final == s);
          }
          return;
        }
        if (s == status::ok) {
          if (it.is_indefinite()) {
            const auto at = w.joined.find(it.offset);
            FUZZ_CHECK(at != w.joined.end() && joined == "x" + at->second);
            const auto close = w.close_at.find(it.offset);
            FUZZ_CHECK(close != w.close_at.end() && r.offset() == close->second);
          } else {
            FUZZ_CHECK(joined.size() == 1 + it.arg);
            FUZZ_CHECK(joined.compare(1, std::string::npos, it.text()) == 0);
          }
        }
      }
    }
    if (s == status::ok) continue;
    FUZZ_CHECK(s == w.final);
    if (s != status::end) {
      FUZZ_CHECK(r.error().offset == w.error.offset);
      FUZZ_CHECK(r.error().item_offset == w.error.item_offset);
    }
    return;
  }
}

// ---- the strict checks ---------------------------------------------------------

/// A violation the strict reader may report: the next() starting at `detect`
/// fails with `code` at `offset`.
struct violation {
  size_t detect;
  status code;
  size_t offset;
};

/// Maps with at most this many keys are checked for duplicates pairwise;
/// larger ones through a sorted set (both on the canonical forms).
constexpr size_t k_naive_keys = 64;

/// The first violations (all those at the smallest detect offset) of a
/// reader with `strict` options, predicted from a pass with the strict checks
/// off (`base`, whose walk is w0): the strict reader must fail with one of
/// them, or give w0's result when there is none. Keys are complete at their
/// last byte; a key of one item is judged by the next() that would return it,
/// a longer one by the next() that would return its value.
std::vector<violation> predict_strict(const uint8_t* data, size_t size,
                                      const cbor_fast::reader_options& base,
                                      const cbor_fast::reader_options& strict,
                                      const walk_result& w0) {
  struct open_frame {
    uint8_t kind;  ///< 0 array, 1 map, 2 tag, 3 indefinite string
    uint64_t completed = 0;
    size_t key_start = 0;
    bool key_single = false;
    bool has_prev = false;
    std::string prev_raw;
    std::vector<std::string> keys;  ///< canonical forms, while few
    std::set<std::string> key_set;  ///< canonical forms, once many
  };
  const bool dedup = strict.reject_duplicate_keys;
  const bool det = strict.deterministic;
  std::vector<violation> found;
  size_t best = SIZE_MAX;
  auto add = [&](size_t detect, status code, size_t offset) {
    if (detect < best) {
      found.clear();
      best = detect;
    }
    if (detect == best) found.push_back({detect, code, offset});
  };

  reader r(data, size, base);
  std::vector<open_frame> stack;
  item it;
  for (;;) {
    const size_t before = r.offset();
    if (before > best) break;
    const status s = r.next(it);
    if (s != status::ok) {
      FUZZ_CHECK(s == w0.final);
      if (s != status::end) add(before, s, r.error().offset);
      break;
    }
    const size_t after = r.offset();
    bool complete = false;
    if (it.type == item_type::end) {
      FUZZ_CHECK(!stack.empty() && stack.back().kind != 2);
      stack.pop_back();
      complete = true;
    } else if (!stack.empty() && stack.back().kind == 3) {
      continue;  // a chunk
    } else {
      const bool opens = it.type == item_type::array || it.type == item_type::map ||
                         it.type == item_type::tag || it.is_indefinite();
      if (det) {
        if (it.is_indefinite()) add(before, status::indefinite_length, before);
        if (!head_is_shortest(data + before)) add(before, status::non_preferred_encoding, before);
        // RFC 8949 3.4.3: a bignum's byte string has more than 8 bytes and no
        // leading zero (judged at the tag, when the string's head is there).
        if (it.type == item_type::tag && (it.value() == 2 || it.value() == 3) && after < size &&
            (data[after] >> 5) == 2 && (data[after] & 31) < 28) {
          const uint8_t ai = data[after] & 31;
          const size_t hs = ai < 24 ? 1 : 1 + (size_t(1) << (ai - 24));
          if (size - after >= hs) {
            const uint64_t len = ai < 24 ? ai : load_be(data + after + 1, hs - 1);
            const bool zero = after + hs < size && data[after + hs] == 0;
            if (len <= 8 || zero) add(before, status::non_preferred_encoding, before);
          }
        }
      }
      if (!stack.empty() && stack.back().kind == 1 && stack.back().completed % 2 == 0) {
        stack.back().key_start = before;
        stack.back().key_single = !opens;
      }
      if (opens) {
        open_frame f;
        f.kind = it.type == item_type::array ? 0
                 : it.type == item_type::map ? 1
                 : it.type == item_type::tag ? 2
                                             : 3;
        stack.push_back(std::move(f));
      } else {
        complete = true;
      }
    }
    while (complete && !stack.empty()) {
      open_frame& f = stack.back();
      if (f.kind == 2) {
        stack.pop_back();
        continue;
      }
      complete = false;
      if (f.kind != 1 || f.completed++ % 2 != 0) break;
      // A key just completed: [key_start, after).
      const size_t start = f.key_start;
      const size_t detect = f.key_single ? start : after;
      const std::string raw(reinterpret_cast<const char*>(data + start), after - start);
      std::string canon;
      size_t pos = start;
      FUZZ_CHECK(canonical_item(data, after, pos, canon) && pos == after);
      canon = key_form(canon);
      if (det && f.has_prev) {
        const int c = compare_bytes(raw, f.prev_raw);
        if (c < 0) add(detect, status::unsorted_map_keys, start);
        if (c == 0) add(detect, status::duplicate_key, start);
      }
      if (dedup) {
        bool dup = false;
        if (f.keys.size() < k_naive_keys && f.key_set.empty()) {
          for (const std::string& k : f.keys) dup = dup || k == canon;
          f.keys.push_back(canon);
        } else {
          if (f.key_set.empty()) f.key_set.insert(f.keys.begin(), f.keys.end());
          dup = !f.key_set.insert(canon).second;
        }
        if (dup) add(detect, status::duplicate_key, start);
      }
      f.prev_raw = raw;
      f.has_prev = true;
    }
  }
  return found;
}

/// The strict walk `w` against the prediction.
void check_strict(const walk_result& w, const walk_result& w0,
                  const std::vector<violation>& expected, const uint8_t* data, size_t size) {
  if (expected.empty()) {
    FUZZ_CHECK(w.final == w0.final);
    if (w.final != status::end) {
      FUZZ_CHECK(w.error.offset == w0.error.offset && w.fail_at == w0.fail_at);
    }
    return;
  }
  bool match = false;
  for (const violation& v : expected)
    match = match || (w.final == v.code && w.error.offset == v.offset && w.fail_at == v.detect);
  if (!match) {
    std::fprintf(stderr,
                 "strict reader: status %d offset %zu at next() from %zu; expected one of:\n",
                 int(w.final), w.error.offset, w.fail_at);
    for (const violation& v : expected)
      std::fprintf(stderr, "  status %d offset %zu at next() from %zu\n", int(v.code), v.offset,
                   v.detect);
    std::fprintf(stderr, "input %s\n", hex(data, size).c_str());
    FUZZ_FAIL("strict reader differs from the model");
  }
}

/// One top-level item through cbor_decode and cbor_encode(PREFERRED).
std::string library_preferred(const uint8_t* p, size_t n) {
  cbor_doc* doc = nullptr;
  cbor_fast_decode_options o = CBOR_FAST_DECODE_OPTIONS_INIT;
  FUZZ_CHECK(cbor_decode(p, n, CBOR_FAST_DECODE_EXACT, &o, &doc, nullptr) == CBOR_FAST_OK);
  const std::vector<uint8_t> out = encode_doc(doc, CBOR_FAST_ENCODE_PREFERRED);
  cbor_doc_free(doc);
  return std::string(out.begin(), out.end());
}

/// Every complete top-level item of the unchecked walk: the harness's
/// preferred form equals the library's. With deterministic on and the input
/// accepted, both equal the input.
void check_preferred(const uint8_t* data, const walk_result& w0, bool accepted) {
  for (size_t i = 0; i < w0.top_starts.size(); ++i) {
    const size_t start = w0.top_starts[i];
    const size_t end = w0.top_ends[i];
    std::string model;
    size_t pos = start;
    FUZZ_CHECK(canonical_item(data, end, pos, model) && pos == end);
    const std::string lib = library_preferred(data + start, end - start);
    if (model != lib) {
      std::fprintf(stderr, "item at %zu: model %s\n", start,
                   hex(reinterpret_cast<const uint8_t*>(model.data()), model.size()).c_str());
      std::fprintf(stderr, "  library %s\n",
                   hex(reinterpret_cast<const uint8_t*>(lib.data()), lib.size()).c_str());
      FUZZ_FAIL("preferred re-encoding: model and library differ");
    }
    if (accepted) {
      FUZZ_CHECK(lib.size() == end - start &&
                 std::memcmp(lib.data(), data + start, lib.size()) == 0);
    }
  }
}

}  // namespace

/// The items a pass saw and how it ended (a repeated call must repeat the end).
struct item_trace {
  std::vector<item> items;
  status final = status::ok;
  cbor_fast::error_info error;
  size_t offset = 0;
  uint64_t count = 0;
};

bool same_item(const item& a, const item& b) {
  return a.type == b.type && a.flags == b.flags && a.head_size == b.head_size &&
         a.width == b.width && a.depth == b.depth && a.offset == b.offset && a.arg == b.arg &&
         std::memcmp(&a.u, &b.u, sizeof a.u) == 0;
}

/// visit() over every top-level item, and visit_items() in batches of `batch`,
/// against a next() loop: the same items, status, error and position.
void visit_pass(const uint8_t* data, size_t size, const cbor_fast::reader_options& opts,
                size_t batch) {
  auto finish = [](item_trace& t, reader& r, status s) {
    t.final = s;
    t.error = r.error();
    t.offset = r.offset();
    t.count = r.items();
  };
  item_trace want;
  {
    reader r(data, size, opts);
    item it;
    status s;
    while ((s = r.next(it)) == status::ok) want.items.push_back(it);
    finish(want, r, s);
  }
  for (int way = 0; way < 3; ++way) {
    item_trace got;
    reader r(data, size, opts);
    auto v = [&got](const item& it) noexcept { got.items.push_back(it); };
    size_t n = 0;
    auto step = [&] {
      if (way == 0) return r.visit(v);
      if (way == 1) return r.visit_items(v, batch, &n);
      // visit_plain(), and next() where it declines (leaving all as it was).
      const size_t offset = r.offset();
      const uint64_t count = r.items();
      if (cbor_fast::detail::reader_access::visit_plain(r, v)) return status::ok;
      FUZZ_CHECK(r.offset() == offset && r.items() == count);
      item it;
      const status st = r.next(it);
      if (st == status::ok) got.items.push_back(it);
      return st;
    };
    status s;
    while ((s = step()) == status::ok) {}
    finish(got, r, s);
    const size_t seen = got.items.size();
    FUZZ_CHECK(step() == s && got.items.size() == seen);  // sticky, and nothing more
    FUZZ_CHECK(got.items.size() == want.items.size());
    for (size_t i = 0; i < want.items.size(); ++i)
      FUZZ_CHECK(same_item(got.items[i], want.items[i]));
    FUZZ_CHECK(got.final == want.final && got.error.code == want.error.code &&
               got.error.offset == want.error.offset &&
               got.error.item_offset == want.error.item_offset &&
               got.error.depth == want.error.depth && got.offset == want.offset &&
               got.count == want.count);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* input, size_t input_size) {
  const uint8_t* data = input;
  size_t size = input_size;
  const config c = take_config(data, size);
  cbor_fast::reader_options opts;
  opts.validate_utf8 = c.utf8;
  opts.max_depth = c.depth_code == 31 ? 0 : c.max_depth;
  if (c.a && size != 0) {
    opts.max_string_length = data[0] % 32;
    opts.max_container_items = data[0] / 32;
    ++data;
    --size;
  }
  if (c.b && size != 0) {
    opts.max_items = data[0];
    ++data;
    --size;
  }
  if (size >= 2 && data[0] == 0x1c) {
    opts.reject_duplicate_keys = (data[1] & 1) != 0;
    opts.deterministic = (data[1] & 2) != 0;
    data += 2;
    size -= 2;
  }

  // 0 in a limit is its default (since 0.5): the model works with the limits
  // in force, which a reader made with the raw options must report.
  const cbor_fast::reader_options given = opts;
  opts = cbor_fast::detail::resolve_defaults(given);
  {
    const reader probe(data, size, given);
    const cbor_fast::reader_options& in_force = probe.options();
    FUZZ_CHECK(in_force.max_depth == opts.max_depth && opts.max_depth != 0);
    FUZZ_CHECK(in_force.max_string_length == opts.max_string_length && opts.max_string_length != 0);
    FUZZ_CHECK(in_force.max_container_items == opts.max_container_items &&
               opts.max_container_items != 0);
    FUZZ_CHECK(in_force.max_items == opts.max_items && opts.max_items != 0);
  }

  const walk_result w = walk(data, size, opts);
  if (opts.reject_duplicate_keys || opts.deterministic) {
    cbor_fast::reader_options base = opts;
    base.reject_duplicate_keys = false;
    base.deterministic = false;
    const walk_result w0 = walk(data, size, base);
    check_strict(w, w0, predict_strict(data, size, base, opts, w0), data, size);
    if (opts.deterministic) check_preferred(data, w0, w.final == status::end);
  }

  reader r(data, size, opts);
  skip_pass(r, w);
  // reset() clears the error and keeps the options: the same pass again.
  r.reset(data, size);
  FUZZ_CHECK(r.error().code == status::ok && r.offset() == 0 && r.depth() == 0);
  skip_pass(r, w);

  reader m(data, size, opts);
  mixed_pass(m, w, opts.max_string_length);

  visit_pass(data, size, opts, size % 7 + 1);
  return 0;
}
