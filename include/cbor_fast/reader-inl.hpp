// libcbor_fast: reader::visit() and reader::visit_items(), inline so the
// visitor inlines into the loop. Included by reader.hpp; not for direct use.
#ifndef CBOR_FAST_READER_INL_HPP
#define CBOR_FAST_READER_INL_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "cbor_fast/detail/head.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define CBOR_FAST_VISIT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CBOR_FAST_VISIT_UNLIKELY(x) (x)
#endif

namespace cbor_fast {
namespace detail {

/// An initial byte's item type and argument size, as a type (for the visit loop).
template <item_type Type, unsigned ArgBytes>
struct head_form {
  static constexpr item_type type = Type;
  static constexpr unsigned arg_bytes = ArgBytes;
  /// visit() takes [] or {} with this head (count in the initial byte) without
  /// opening a level, and delivers its end at once.
  static constexpr bool opens_no_level_when_empty =
      ArgBytes == 0 && (Type == item_type::array || Type == item_type::map);
};

/// True for a visitor type with `static constexpr bool deliver_in_step = true`:
/// visit_items() then calls it inside each step of its dispatch, where the
/// item's type and head size are constants, instead of once after it (where
/// the fields of every step meet and spill). For small visitors (a few stores,
/// as the C batch's, capi/src/reader.cpp): each step keeps its own copy.
template <class V, class = void>
struct delivers_in_step : std::false_type {};
template <class V>
struct delivers_in_step<V, std::void_t<decltype(V::deliver_in_step)>>
    : std::integral_constant<bool, V::deliver_in_step> {};

/// An item's four leading byte fields (type, flags, head_size, width) in one
/// store: each is a constant in an inline step, and GCC wrote them as two to
/// four stores (one of a constant it loaded from memory), a few instructions
/// per item of next()'s loops.
CBOR_FAST_VISIT_INLINE inline void set_item_bytes(item& out, item_type type, uint8_t flags,
                                                  uint8_t head_size, uint8_t width) noexcept {
  static_assert(offsetof(item, flags) == 1 && offsetof(item, head_size) == 2 &&
                    offsetof(item, width) == 3 && sizeof(item_type) == 1,
                "item's leading fields are four adjacent bytes");
  const uint8_t bytes[4] = {uint8_t(type), flags, head_size, width};
  std::memcpy(static_cast<void*>(&out), bytes, sizeof bytes);
}

/// An end item, the one way the reader writes it: a definite level's end
/// (head_size 0) or an indefinite one's break (the 0xff byte, head_size 1).
CBOR_FAST_VISIT_INLINE inline void set_end(item& out, uint32_t depth, size_t offset,
                                           bool is_break) noexcept {
  set_item_bytes(out, item_type::end,
                 is_break ? uint8_t(item::flag_indefinite | item::flag_break) : uint8_t(0),
                 is_break ? 1 : 0, 0);
  out.depth = depth;
  out.offset = offset;
  out.arg = 0;
  out.u.data = nullptr;
}

/// next()'s visitor for take_plain(): copies the item out field by field (a
/// whole-struct copy reads the item's bytes back as wide words right after
/// they were stored one field at a time, a store forwarding stall per item;
/// fields move as registers). take_plain() hands it a definite level's end
/// as end(depth, offset), which writes the fields itself: through an item it
/// copies, GCC kept that item's dead stores in next()'s loops (3 instructions
/// per end).
struct next_copy {
  item& o;
  CBOR_FAST_VISIT_INLINE void operator()(const item& it) const noexcept {
    set_item_bytes(o, it.type, it.flags, it.head_size, it.width);
    o.depth = it.depth;
    o.offset = it.offset;
    o.arg = it.arg;
    o.u = it.u;
  }
  /// A definite level's end, as next_general() reports it.
  CBOR_FAST_VISIT_INLINE void end(uint32_t depth, size_t offset) const noexcept {
    set_end(o, depth, offset, false);
  }
};

/// Exact widening of half and single floats (NaN payloads kept), out of line.
double widen_half(uint16_t bits) noexcept;
double widen_single(uint32_t bits) noexcept;
/// Whole-string UTF-8 check (RFC 3629); `readable_end` bounds any over-read.
bool text_is_utf8(const uint8_t* data, size_t size, const uint8_t* readable_end) noexcept;

}  // namespace detail

inline namespace v1 {

// Construction and destruction inline: a reader per small document costs
// no calls but the allocator lookup (none when options.alloc is set).
inline reader::reader(const uint8_t* data, size_t size, const reader_options& options) noexcept
    // Null data with a size is refused below; end_ stays a valid pointer.
    : begin_(data),
      pos_(data),
      end_(data != nullptr ? data + size : data),
      options_(detail::resolve_defaults(options)) {
  if (options_.alloc == nullptr) options_.alloc = &default_allocator();
  items_left_ = options_.max_items;
  strict_ = options_.reject_duplicate_keys || options_.deterministic;
  slow_ = strict_ ? detail::slow_strict : uint8_t(0);
  root_ = frame::make(detail::k_open_ended, detail::frame_root, false);  // never completes
  note_push_limit();
  note_plain_end();
  if (data == nullptr && size != 0) fail(status::invalid_argument, 0);
}

// Inline too: a reader reused per small document costs no call to restart.
inline void reader::reset(const uint8_t* data, size_t size) noexcept {
  begin_ = data;
  pos_ = data;
  end_ = data != nullptr ? data + size : data;  // null with a size is refused below
  depth_ = 0;
  top_ = &root_;
  root_.left = detail::k_open_ended;  // never completes
  items_left_ = options_.max_items;
  items_before_ = 0;
  item_start_ = 0;
  error_ = error_info{};
  slow_ = strict_ ? detail::slow_strict : uint8_t(0);
  needed_ = 0;
  scout_origin_ = SIZE_MAX;
  note_plain_end();
  if (keys_ != nullptr || data == nullptr) reset_rare(size);
}

inline reader::~reader() {
  if (stack_ != inline_frames_ || keys_ != nullptr || scout_ != nullptr) release_storage();
}

template <class Visitor>
status reader::visit(Visitor&& v) {
  static_assert(noexcept(v(std::declval<const item&>())),
                "reader::visit: the visitor must be noexcept");
  if (error_.code != status::ok) return error_.code;
  if (top_->left == 0 && top_->kind == detail::frame_tag) pop_finished_tags();
  // As skip(): at the end of the enclosing container there is no item to visit.
  if (top_->left == 0 && !top_->indefinite) return status::invalid_state;
  if (top_->indefinite && pos_ != end_ && *pos_ == 0xff) return status::invalid_state;
  // Streaming: the visitor sees the item only once all of it is here.
  if (CBOR_FAST_VISIT_UNLIKELY(options_.streaming)) {
    const status ready = item_ready();
    if (ready != status::ok) return ready;
  }
  return drive<true>(v, 0, nullptr);
}

template <class Visitor>
status reader::visit_items(Visitor&& v, size_t max_items, size_t* delivered) {
  static_assert(noexcept(v(std::declval<const item&>())),
                "reader::visit_items: the visitor must be noexcept");
  *delivered = 0;
  if (max_items == 0) return error_.code;
  // One item (a binding's per-item call): no loop to set up.
  if (max_items == 1) return visit_one(v, delivered);
  return drive<false>(v, max_items, delivered);
}

// One head inline when the plain path allows it (no error or strict checks,
// room in the innermost level and the item budget, nine bytes of input), with
// the state in locals until the item is taken.
template <bool NoCalls, class Visitor>
inline bool reader::take_plain(Visitor&& v) noexcept {
  const uint8_t* p = pos_;
  frame* top = top_;
  uint64_t left = top->left;
  if (left == 0) {
    if (slow_ != 0 || !top->definite_container) return false;
    // A definite array or map has all its items: its end item (as next()).
    pop();
    if constexpr (std::is_same<std::remove_cv_t<std::remove_reference_t<Visitor>>,
                               detail::next_copy>::value) {
      v.end(depth_, size_t(p - begin_));
    } else {
      item it;
      it.type = item_type::end;
      it.depth = depth_;
      it.offset = size_t(p - begin_);
      v(static_cast<const item&>(it));
    }
    return true;
  }
  if (p >= plain_end_) {
    // The C shims' instantiation (NoCalls) declines at once: a small
    // document's items and its end are all past plain_end_, and
    // next_general_moving() moves the bound on when it can move. next()
    // moves it here (next() may have left a slow stretch since).
    if (NoCalls) return false;
    note_plain_end();
    if (p >= plain_end_) return false;
  }
  item it;
  // Delivered in each step, so the visitor sees the type and head size as
  // constants (one visitor call after the switch would merge the steps into
  // one tail with all of them in registers). The item budget and the depth
  // are the reader's own (steps change them only once the item is taken):
  // fewer registers, so a wrapper saves none.
  // (A class, not a lambda: GCC and Clang place a lambda's attributes apart.)
  struct deliver {
    reader& r;
    Visitor& v;
    CBOR_FAST_VISIT_INLINE void operator()(const cursor& c, const item& taken) const noexcept {
      r.pos_ = c.p;
      r.top_ = c.top;
      c.top->left = c.left;
      v(taken);
    }
  } taken{*this, v};
  return take_head<false, NoCalls>(cursor{p, items_left_, left, top, depth_, 0, short_end_}, it,
                                   taken);
}

// The inline half of next(): take_plain() copying the item out, else the
// general path, as the C shims (take_plain() still moves the bound itself
// where it declines at it).
// The general path fills an item of its own, copied out on ok: passed on to
// the out-of-line call, the caller's item had its address taken, and GCC
// then kept it in memory, a store per field of every item and the
// consumer's loads back (BENCHMARKS.md, 2026-12-06: the corpus next() walks
// -22 % instructions).
// The bound's test comes after the copy and loads the position there: a
// caller's loop that calls out after need_more (feed() a piece, then next()
// again) then keeps the position in a register across items, where GCC
// otherwise reloaded it from the reader at the top of every iteration
// (BENCHMARKS.md, 2026-12-05, "the resumable loops' state in registers", and
// 2026-12-06: with the test before the copy, walk_fed_4k +2.4 to +4.8 %).
inline status reader::next(item& out) noexcept {
  if (take_plain<false>(detail::next_copy{out})) return status::ok;
  item it;
  const status s = next_general(it);
  if (s != status::ok) return s;
  detail::next_copy{out}(it);
  move_plain_end_on();
  return s;
}

// next_general() for the callers of take_plain<true>, which declines at
// plain_end_ without moving it: then moves the bound on as next() does.
// (No at_sequence_end() test here: inline in next() it cost the one-shot
// corpus walk 2.7-3.2 % more instructions; visit_one() and the C shim make it.)
inline status reader::next_general_moving(item& out) noexcept {
  const status s = next_general(out);
  if (s == status::ok) move_plain_end_on();
  return s;
}

// visit_items(v, 1): take_plain(), else next_general_moving().
template <class Visitor>
status reader::visit_one(Visitor& v, size_t* delivered) {
  *delivered = 1;
  if (take_plain<true>(v)) return status::ok;
  // A separate item: the one in take_plain() never has its address taken,
  // so it stays in registers with its type known.
  item it;
  // A small document's last call, the C API's included: no call out.
  if (at_sequence_end()) {
    *delivered = 0;
    return status::end;
  }
  const status s = next_general_moving(it);
  if (s != status::ok) {
    *delivered = 0;
    return s;
  }
  v(static_cast<const item&>(it));
  return status::ok;
}

// The head at c.p read into `it`, with c.p < fast_end (so all nine bytes a
// head may need are there, and max_items cannot run out). Checks first:
// anything unusual returns false with nothing taken, for next() to report or
// handle. Then it takes the item; the caller delivers it.
template <bool WholeItem, bool NoCalls, class Form, class Taken>
inline bool reader::read_head(const cursor& c, item& it, Taken& taken) noexcept {
  constexpr item_type type = Form::type;
  constexpr unsigned arg_bytes = Form::arg_bytes;
  uint64_t arg;
  if constexpr (arg_bytes == 0) {
    arg = *c.p & 0x1fu;
  } else {
    arg = detail::load_argument<arg_bytes>(c.p + 1);
  }
  const uint8_t* after = c.p + 1 + arg_bytes;  // where the next head starts
  it.type = type;
  it.head_size = uint8_t(1 + arg_bytes);
  it.depth = c.depth;
  it.offset = size_t(c.p - begin_);
  it.arg = arg;
  if constexpr (type == item_type::array || type == item_type::map || type == item_type::tag) {
    if constexpr (WholeItem && Form::opens_no_level_when_empty) {
      if (arg == 0) {
        // visit(): an empty array or map opens no level (drive() delivers its
        // end right after it), but is as deep as one that does.
        if (CBOR_FAST_VISIT_UNLIKELY(c.depth - 1u >= push_limit_)) return false;
        c.p = after;
        --c.items_left;
        --c.left;
        taken(c, static_cast<const item&>(it));
        return true;
      }
    }
    uint64_t children = 1;
    uint8_t kind = detail::frame_tag;
    if constexpr (type != item_type::tag) {
      // Every item takes a byte, so a count the input cannot hold never
      // reaches an allocation (next() reports it).
      if (arg_bytes != 0 || c.p >= c.short_end) {
        if (arg > options_.max_container_items) return false;
        const size_t room = size_t(end_ - after);
        if (type == item_type::array ? arg > room : arg > room / 2) return false;
      }
      children = type == item_type::array ? arg : arg * 2;
      kind = type == item_type::array ? detail::frame_array : detail::frame_map;
    }
    // Room on the stack, and not the top level (where push() notes where
    // the item starts): as push_definite().
    if (CBOR_FAST_VISIT_UNLIKELY(c.depth - 1u >= push_limit_)) return false;
    c.p = after;
    --c.items_left;
    if (WholeItem && c.depth == c.base) {
      --c.top->left;  // the visited item, taken from its level for real
    } else {
      c.top->left = c.left - 1;
    }
    // The fast path is never at the top level, so the new frame follows top.
    ++c.top;
    ++c.depth;
    c.top->kind = kind;
    c.top->indefinite = false;
    c.top->definite_container = type != item_type::tag;
    c.top->spare = 0;
    c.left = children;
  } else {
    if constexpr (type == item_type::byte_string || type == item_type::text_string) {
      if ((arg_bytes != 0 || c.p >= c.short_end) &&
          (arg > options_.max_string_length || arg > size_t(end_ - after)))
        return false;
      if (type == item_type::text_string && options_.validate_utf8 &&
          (NoCalls || !detail::text_is_utf8(after, size_t(arg), end_)))
        return false;
      it.u.data = after;
      after += arg;
    } else if constexpr (type == item_type::simple && arg_bytes == 1) {
      if (arg < 32) return false;  // not well-formed: next() reports it
    } else if constexpr (type == item_type::floating) {
      it.width = uint8_t(arg_bytes);
      if constexpr (arg_bytes == 8) {
        std::memcpy(&it.u.dbl, &arg, sizeof arg);
      } else if constexpr (NoCalls) {
        // A normal number widens by moving its fields; zeros, subnormals,
        // infinities and NaNs take the general path.
        constexpr unsigned mant_bits = arg_bytes == 2 ? 10 : 23;
        constexpr uint64_t exp_max = arg_bytes == 2 ? 0x1f : 0xff;
        constexpr uint64_t rebias = arg_bytes == 2 ? 1023 - 15 : 1023 - 127;
        const uint64_t exp = (arg >> mant_bits) & exp_max;
        if (exp - 1 >= exp_max - 1) return false;
        const uint64_t bits = ((arg >> (8 * arg_bytes - 1)) << 63) | ((exp + rebias) << 52) |
                              ((arg & ((uint64_t(1) << mant_bits) - 1)) << (52 - mant_bits));
        std::memcpy(&it.u.dbl, &bits, sizeof bits);
      } else if constexpr (arg_bytes == 2) {
        it.u.dbl = detail::widen_half(uint16_t(arg));
      } else {
        // A normal single converts exactly in hardware (whatever the
        // denormal modes: neither it nor its double is subnormal); zeros,
        // subnormals, infinities and NaNs (payload kept) out of line.
        const uint32_t single = uint32_t(arg);
        if (((single >> 23) & 0xffu) - 1u < 0xfeu) {
          float f;
          std::memcpy(&f, &single, sizeof f);
          it.u.dbl = double(f);
        } else {
          it.u.dbl = detail::widen_single(single);
        }
      }
    }
    c.p = after;
    --c.items_left;
    --c.left;
  }
  taken(c, static_cast<const item&>(it));
  return true;
}

// One step per initial byte (detail::k_heads, the one head table):
// read_head() with the item type and argument size as constants.
template <bool WholeItem, bool NoCalls, class Taken>
inline bool reader::take_head(const cursor& c, item& it, Taken& taken) noexcept {
  switch (detail::k_heads[*c.p].step) {
#define CBOR_FAST_VISIT_CASE(name, type, arg_bytes)                                            \
  case detail::hs_##name:                                                                      \
    return read_head<WholeItem, NoCalls, detail::head_form<item_type::type, arg_bytes>>(c, it, \
                                                                                        taken);
    CBOR_FAST_HEAD_STEPS(CBOR_FAST_VISIT_CASE)
#undef CBOR_FAST_VISIT_CASE
    case detail::hs_other: return false;
#if defined(__GNUC__) || defined(__clang__)
    default: __builtin_unreachable();  // the table holds nothing else
#endif
  }
  return false;
}

// The loop behind visit() (WholeItem: until the item that starts at the
// current depth is complete) and visit_items() (until max_items were delivered).
//
// Common heads are read inline, with the reader's state in locals and the
// innermost level's count in a register; anything else (indefinite lengths,
// breaks, limits, strict checks, malformed or truncated input, a full stack,
// the last 8 bytes of input) goes through next(), which gives the exact
// status and offset.
//
// Two things are never tested per item. The end of input and max_items: the
// inline path runs only while p < fast_end, which leaves 9 bytes for any head
// and, as every item takes at least one byte, cannot pass max_items. And in
// WholeItem mode the level the visit started at: there `left` is 1 (the one
// item wanted), so finishing it is just one more way to complete a level.
// Before short_end, a string or container head with its argument in the
// initial byte needs no limit or room test either (cursor::short_end).
//
// In WholeItem mode an empty array or map opens no level: its end item is
// delivered right after it (JSON-like data has many [] and {}).
template <bool WholeItem, class Visitor, bool Stoppable>
status reader::drive(Visitor& v, size_t max_items, size_t* delivered) {
  static_assert(!(WholeItem && Stoppable), "reader::drive: only visit_items() mode stops");
  const uint8_t* p = pos_;
  const uint8_t* fast_end = p;  // the inline path runs while p < fast_end
  uint64_t items_left = items_left_;
  frame* top = top_;
  uint32_t depth = depth_;
  const uint32_t base = depth_;
  // Items due in the innermost level (its frame's count is stale meanwhile).
  uint64_t left = WholeItem ? 1 : top_->left;
  size_t count = 0;  // visit_items(): items delivered

  auto refresh = [&]() noexcept {
    const size_t room = size_t(end_ - p);
    size_t n = room > 8 ? room - 8 : 0;
    if (items_left < n) n = size_t(items_left);
    if (slow_ != 0) n = 0;
    fast_end = p + n;
  };
  // The locals back into the reader. The level a visit started at keeps its
  // real count in its frame (taken when the item is).
  auto store = [&]() noexcept {
    pos_ = p;
    items_left_ = items_left;
    depth_ = depth;
    top_ = top;
    if (!WholeItem || depth != base) top->left = left;
  };
  auto done = [&](status st) noexcept {
    store();
    if constexpr (!WholeItem) *delivered = count;
    return st;
  };
  auto pop_level = [&]() noexcept {
    --depth;
    top = depth != 0 ? top - 1 : &root_;
  };
  // The end of a level that closes here (and, in visit(), of [] or {}).
  // Stoppable: true when the visitor asks to stop.
  auto deliver_end = [&]() noexcept -> bool {
    item end;
    end.type = item_type::end;
    end.depth = depth;
    end.offset = size_t(p - begin_);
    if constexpr (Stoppable) {
      return v(static_cast<const item&>(end));
    } else {
      v(static_cast<const item&>(end));
      return false;
    }
  };

  const uint8_t* const short_end = size_t(end_ - p) > 47 && options_.max_string_length >= 23 &&
                                           options_.max_container_items >= 23
                                       ? end_ - 47
                                       : p;
  const cursor c{p, items_left, left, top, depth, base, short_end};
  auto nothing = [](const cursor&, const item&) noexcept {};  // v is called once, below
  // Or v in each step (detail::delivers_in_step).
  constexpr bool in_step =
      !WholeItem && !Stoppable && detail::delivers_in_step<std::remove_cv_t<Visitor>>::value;
  struct in_step_taken {
    Visitor& v;
    CBOR_FAST_VISIT_INLINE void operator()(const cursor&, const item& taken) const noexcept {
      v(taken);
    }
  } deliver_in_step{v};
  refresh();
  // A level already full: a definite one to close first (visit_items() may
  // have stopped right after its last item); an indefinite one at its entry
  // limit, where only a break may follow; or either after an error or with
  // strict checks on, which next() handles.
  if (top->left == 0) {
    if (WholeItem || top->indefinite || slow_ != 0) goto general;
    goto close;
  }

  for (;;) {
    if (CBOR_FAST_VISIT_UNLIKELY(p >= fast_end)) goto general;
    {
      // One call of the visitor for every inline item, so it inlines once
      // (a delivers_in_step visitor: one in each step instead).
      item it;
      if constexpr (in_step) {
        if (!take_head<WholeItem, false>(c, it, deliver_in_step)) goto general;
      } else {
        if (!take_head<WholeItem, false>(c, it, nothing)) goto general;
      }
      bool stop = false;  // Stoppable: the visitor asks to stop after this item
      if constexpr (Stoppable) {
        stop = v(static_cast<const item&>(it));
      } else if constexpr (!in_step) {
        v(static_cast<const item&>(it));
      }
      // visit(): [] or {} opened no level (read_head()); its end follows.
      if (WholeItem && it.head_size == 1 && it.arg == 0 &&
          (it.type == item_type::array || it.type == item_type::map))
        deliver_end();
      if constexpr (!WholeItem) {
        if (Stoppable ? stop : ++count == max_items) return done(status::ok);
      }
      if (left == 0) goto level_complete;
    }
    continue;

  level_complete:
    if (WholeItem && depth == base) {
      --top->left;  // a scalar (or [] or {}) was the visited item
      return done(status::ok);
    }
  close:
    // The innermost level has all its items: close it, and every level
    // that completes with it.
    for (;;) {
      if (top->kind == detail::frame_tag) {
        pop_level();  // a tag closes silently once its one item is complete
      } else if (top->indefinite) {
        goto general;  // at its entry limit: only a break may follow
      } else {
        pop_level();
        const bool stop = deliver_end();
        if constexpr (!WholeItem) {
          if (Stoppable ? stop : ++count == max_items) {
            left = top->left;
            return done(status::ok);
          }
        }
      }
      if (WholeItem && depth == base) return done(status::ok);
      left = top->left;
      if (left != 0) break;
    }
    continue;

  general:
    // One item the general way.
    {
      store();
      item it;
      const status st = next_general(it);
      p = pos_;
      items_left = items_left_;
      depth = depth_;
      top = top_;
      if (st != status::ok) {
        if constexpr (!WholeItem) *delivered = count;
        return st;
      }
      if constexpr (WholeItem) {
        // Tags completed by this item are closed (next() pops them lazily).
        while (top->left == 0 && top->kind == detail::frame_tag) pop_level();
      }
      left = top->left;
      refresh();
      bool stop = false;
      if constexpr (Stoppable) {
        stop = v(static_cast<const item&>(it));
      } else {
        v(static_cast<const item&>(it));
      }
      if constexpr (WholeItem) {
        if (depth <= base) return done(status::ok);
      } else {
        if (Stoppable ? stop : ++count == max_items) return done(status::ok);
      }
      // A level completed by this item closes inline only on the plain path:
      // after an error or with strict checks, next() reports (and tracks) ends.
      if (left == 0 && slow_ == 0) goto close;
    }
  }
}

}  // namespace v1

namespace detail {
/// The C shims' per-item hooks (capi/src/reader.cpp): not public API.
struct reader_access {
  /// take_plain() with steps that never call out, so a wrapper's fast path
  /// needs no stack frame.
  template <class Visitor>
  CBOR_FAST_VISIT_INLINE static bool visit_plain(reader& r, Visitor&& v) noexcept {
    static_assert(noexcept(v(std::declval<const item&>())),
                  "reader_access::visit_plain: the visitor must be noexcept");
    return r.take_plain<true>(v);
  }
  /// What next() does when take_plain() declines, for visit_plain()'s
  /// callers: moves the bound visit_plain() declines at (next_general_moving()).
  static status next_general(reader& r, item& out) noexcept { return r.next_general_moving(out); }
  /// next_general() would answer end (reader::at_sequence_end()).
  static bool at_sequence_end(const reader& r) noexcept { return r.at_sequence_end(); }
  /// The top-level item an error at `offset` lies in, as reader::fail()
  /// reports it: the item being read inside a container, else `offset`.
  static size_t item_offset_at(const reader& r, size_t offset) noexcept {
    return r.depth_ == 0 ? offset : r.item_start_;
  }
  /// Makes `s` the reader's sticky error at `offset` (a stream whose
  /// document failed inside an item: nothing more of it may come out).
  static status fail(reader& r, status s, size_t offset) noexcept { return r.fail(s, offset); }
  /// visit_items() without a count, stopping after the first item for which
  /// `v(const item&)` returns true (cbor_reader_visit): ok when v stopped
  /// (the reader is right after that item, as after next()), else the status
  /// next() gave after the last item (end, need_more or the sticky error).
  template <class Visitor>
  static status visit_until(reader& r, Visitor&& v) noexcept {
    static_assert(noexcept(v(std::declval<const item&>())),
                  "reader_access::visit_until: the visitor must be noexcept");
    static_assert(std::is_same<decltype(v(std::declval<const item&>())), bool>::value,
                  "reader_access::visit_until: the visitor returns bool (true: stop)");
    size_t delivered = 0;
    return r.drive<false, Visitor, true>(v, 0, &delivered);
  }
};
}  // namespace detail
}  // namespace cbor_fast

#undef CBOR_FAST_VISIT_UNLIKELY
#undef CBOR_FAST_VISIT_INLINE
#undef CBOR_FAST_VISIT_FLATTEN

#endif  // CBOR_FAST_READER_INL_HPP
