// libcbor_fast: the bodies of mapping.hpp. Included by it; not for direct use.
#ifndef CBOR_FAST_MAPPING_INL_HPP
#define CBOR_FAST_MAPPING_INL_HPP

namespace cbor_fast {
namespace detail {

struct layout_names {};
struct layout_keys {};
struct layout_array {};

/// One member: its name (for maps by name, and for error paths), its integer
/// key (layout_keys) and the pointer to it.
template <class C, class M>
struct field {
  const char* name;
  size_t name_size;
  int64_t key;
  M C::*member;
  using type = M;
};
template <class C, class M>
constexpr field<C, M> make_field(const char* name, size_t name_size, int64_t key,
                                 M C::*member) noexcept {
  return field<C, M>{name, name_size, key, member};
}
template <class Layout, class... F>
struct field_list {
  using layout = Layout;
  static constexpr size_t size = sizeof...(F);
  std::tuple<F...> fields;
};
template <class Layout, class... F>
constexpr field_list<Layout, F...> make_fields(F... f) noexcept {
  return field_list<Layout, F...>{std::tuple<F...>(f...)};
}

// ---- type traits --------------------------------------------------------------

template <class T>
struct dependent_false : std::false_type {};

template <class T, class = void>
struct has_fields : std::false_type {};
template <class T>
struct has_fields<T, std::void_t<decltype(cbor_fast_fields(static_cast<const T*>(nullptr)))>>
    : std::true_type {};

template <class T, class = void>
struct has_adapter : std::false_type {};
template <class T>
struct has_adapter<
    T, std::void_t<decltype(adapter<T>::decode(std::declval<reader&>(), std::declval<T&>()))>>
    : std::true_type {};

template <class T, class = void>
struct has_decode_hook : std::false_type {};
template <class T>
struct has_decode_hook<
    T, std::void_t<decltype(cbor_fast_decode(std::declval<reader&>(), std::declval<T&>()))>>
    : std::true_type {};
template <class T, class = void>
struct has_encode_hook : std::false_type {};
template <class T>
struct has_encode_hook<
    T, std::void_t<decltype(cbor_fast_encode(std::declval<writer&>(), std::declval<const T&>()))>>
    : std::true_type {};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_byte_vector : std::false_type {};
template <class A>
struct is_byte_vector<std::vector<uint8_t, A>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_map_like : std::false_type {};
template <class K, class V, class C, class A>
struct is_map_like<std::map<K, V, C, A>> : std::true_type {};
template <class K, class V, class H, class E, class A>
struct is_map_like<std::unordered_map<K, V, H, E, A>> : std::true_type {};
template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};

template <class T>
constexpr bool is_bulk_number = std::is_same<T, uint64_t>::value ||
                                std::is_same<T, int64_t>::value || std::is_same<T, double>::value;

// ---- decoding -------------------------------------------------------------------

// Forced in optimised builds only, as CBOR_FAST_VISIT_INLINE (reader.hpp).
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define CBOR_FAST_MAPPING_INLINE __attribute__((always_inline)) inline
#else
#define CBOR_FAST_MAPPING_INLINE inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define CBOR_FAST_MAPPING_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CBOR_FAST_MAPPING_UNLIKELY(x) (x)
#endif

/// The typed inline steps of from_cbor() (reader.hpp befriends this): the
/// step next()'s inline path takes for a head (reader::read_head(), the one
/// take_plain() dispatches to over all 256 initial bytes), chosen by one
/// compare against the item type a member accepts. The head is decoded by
/// detail::k_heads and the reader's own step, so an item taken here is the
/// item next() would have returned, with the same reader state after it.
struct mapping_access {
  /// The initial byte next()'s inline path would read (as take_plain(): room
  /// in the innermost level; no sticky error, strict checks or open
  /// indefinite string; nine bytes of input and the item budget), else nullptr.
  CBOR_FAST_MAPPING_INLINE static const uint8_t* plain_head(reader& r) noexcept {
    if (r.top_->left == 0) return nullptr;  // a level's end: next() reports it
    if (r.pos_ >= r.plain_end_) {
      r.note_plain_end();
      if (r.pos_ >= r.plain_end_) return nullptr;
    }
    return r.pos_;
  }
  /// next()'s inline step for the head at plain_head(r), whose form is Form.
  /// false (limits, room, UTF-8, a full stack...): nothing read or changed.
  template <class Form>
  CBOR_FAST_MAPPING_INLINE static bool take(reader& r, item& out) noexcept {
    const uint8_t* p = r.pos_;
    reader::frame* top = r.top_;
    uint64_t left = top->left;
    struct deliver {  // as take_plain()'s: the locals back into the reader
      reader& rd;
      CBOR_FAST_MAPPING_INLINE void operator()(const reader::cursor& c,
                                               const item&) const noexcept {
        rd.pos_ = c.p;
        rd.top_ = c.top;
        c.top->left = c.left;
      }
    } taken{r};
    return r.read_head<false, false, Form>(
        reader::cursor{p, r.items_left_, left, top, r.depth_, 0, p}, out, taken);
  }
  /// What read_head() does once it has taken a scalar or a definite string
  /// ending at `after` (no level opens or closes). For a key whose bytes the
  /// caller compared with an encoding read_head() takes under the reader's
  /// options (take_member_key()).
  CBOR_FAST_MAPPING_INLINE static void take_known(reader& r, const uint8_t* after) noexcept {
    r.pos_ = after;
    --r.items_left_;
    --r.top_->left;
  }
  /// next()'s inline end of a definite array or map whose entries were all
  /// read (as take_plain()), or false with nothing changed.
  CBOR_FAST_MAPPING_INLINE static bool take_end(reader& r) noexcept {
    const reader::frame* top = r.top_;
    if (top->left != 0 || r.slow_ != 0 || !top->definite_container) return false;
    r.pop();
    return true;
  }
};

/// The head at plain_head() taken by next()'s step for (Type, its argument
/// size), for the argument sizes Widths that Type has; false otherwise.
template <item_type Type, unsigned... Widths>
CBOR_FAST_MAPPING_INLINE bool take_form(reader& r, const head_entry& e, item& out) noexcept {
  bool took = false;
  (void)((e.arg_bytes == Widths
              ? (took = mapping_access::take<head_form<Type, Widths>>(r, out), true)
              : false) ||
         ...);
  return took;
}

/// The next item when it has type Type (a definite string or container for
/// those types) and next()'s inline path takes it: true with `out` as next()
/// fills it. false with nothing read: the caller calls next() (which gives
/// the item, or the error, exactly as it would have).
template <item_type Type>
CBOR_FAST_MAPPING_INLINE bool take_typed(reader& r, item& out) noexcept {
  const uint8_t* p = mapping_access::plain_head(r);
  if (p == nullptr) return false;
  const head_entry& e = k_heads[*p];
  if (e.type != uint8_t(Type)) return false;  // additional information 28..31: type none
  if constexpr (Type == item_type::floating) {
    return take_form<Type, 2, 4, 8>(r, e, out);
  } else if constexpr (Type == item_type::boolean) {
    return take_form<Type, 0>(r, e, out);
  } else {
    return take_form<Type, 0, 1, 2, 4, 8>(r, e, out);
  }
}

/// An integer of either sign, as take_typed().
CBOR_FAST_MAPPING_INLINE bool take_integer(reader& r, item& out) noexcept {
  const uint8_t* p = mapping_access::plain_head(r);
  if (p == nullptr) return false;
  const head_entry& e = k_heads[*p];
  if (e.type == uint8_t(item_type::unsigned_int))
    return take_form<item_type::unsigned_int, 0, 1, 2, 4, 8>(r, e, out);
  if (e.type == uint8_t(item_type::negative_int))
    return take_form<item_type::negative_int, 0, 1, 2, 4, 8>(r, e, out);
  return false;
}

/// The step for a member accepting Type (an integer member: either sign).
template <item_type Type>
CBOR_FAST_MAPPING_INLINE bool take_for(reader& r, item& out) noexcept {
  if constexpr (Type == item_type::unsigned_int) {
    return take_integer(r, out);
  } else {
    return take_typed<Type>(r, out);
  }
}

/// The shortest head of (major, arg), for keys known at compile time.
struct key_head {
  uint8_t bytes[9];
  size_t size;
};
constexpr key_head shortest_key_head(unsigned major, uint64_t arg) noexcept {
  key_head h{{}, shortest_head_size(arg)};
  const uint8_t mt = uint8_t(major << 5);
  if (h.size == 1) {
    h.bytes[0] = uint8_t(mt | arg);
    return h;
  }
  const size_t n = h.size - 1;
  h.bytes[0] = uint8_t(mt | (n == 1 ? 24 : n == 2 ? 25 : n == 4 ? 26 : 27));
  for (size_t i = 0; i < n; ++i) h.bytes[1 + i] = uint8_t(arg >> (8 * (n - 1 - i)));
  return h;
}

/// One step of a member path, innermost first while an error unwinds.
/// Trivial members: decode_ctx's array of steps is left uninitialized (a
/// std::string_view member would cost 64 stores per from_cbor() call).
struct path_step {
  enum kind_t : uint8_t { member, index, text_key, int_key } kind;
  const char* text;  ///< member: the name; text_key: the key; int_key: "-" when negative
  size_t text_size;
  uint64_t number;  ///< index, or the int key's bits
  std::string_view name() const noexcept { return {text, text_size}; }
};

/// Bytes of the calling thread's stack left below the stack address `sp`
/// (src/common/stack.cpp; SIZE_MAX where that is not known: Linux only).
size_t stack_left(uintptr_t sp) noexcept;

/// A recursive type (a node holding a std::vector or map of itself) recurses
/// per level of its input, and to_cbor() per level of the value: each vector
/// or map level needs this much of the thread's stack left, or it is
/// depth_exceeded at its head (a raised max_depth, or a small thread, made a
/// stack overflow of it: a tree node overflowed a 256 KiB thread near 1,100
/// levels, 8 MiB near 35,000; a value built deeper had no bound at all).
constexpr size_t k_stack_margin = size_t(64) << 10;
/// Decoding asks the thread's bounds again after each this many bytes of
/// descent (between asks, one compare of the stack pointer).
constexpr uintptr_t k_stack_recheck = uintptr_t(16) << 10;

/// The stack pointer, without making the function keep a frame pointer (as
/// __builtin_frame_address would) or naming a local (which ASan's
/// detect_stack_use_after_return moves to the heap); 0 where not known.
CBOR_FAST_MAPPING_INLINE uintptr_t stack_pointer() noexcept {
  uintptr_t sp = 0;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  __asm__("movq %%rsp, %0" : "=r"(sp));
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
  __asm__("mov %0, sp" : "=r"(sp));
#endif
  return sp;
}

/// decode_ctx's first stack_check_below (0: the stack pointer is not known,
/// no check).
CBOR_FAST_MAPPING_INLINE uintptr_t first_check() noexcept {
  const uintptr_t sp = stack_pointer();
  return sp > k_stack_recheck ? sp - k_stack_recheck : 0;
}

/// What decoding needs besides the value: the reader, the options and the
/// first failure (the path is built only once something failed).
struct decode_ctx {
  decode_ctx(reader& rd, bool reject) noexcept
      : r(rd), reject_unknown(reject), stack_check_below(first_check()) {}
  reader& r;
  bool reject_unknown;
  /// Below this stack address, stack_room() asks the thread's bounds.
  uintptr_t stack_check_below;
  status code = status::ok;
  size_t offset = 0;
  /// Bytes reserved ahead for the vectors being filled (decode_vector()):
  /// a vector reserves only what the budget of the input left holds
  /// besides these, so nested counts cannot each reserve the whole budget.
  size_t reserved = 0;
  /// The path, innermost step first, filled as an error unwinds: a fixed
  /// array, so failing allocates nothing either (steps past it are dropped
  /// and the path starts with "...").
  static constexpr size_t max_steps = 32;
  path_step steps[max_steps];
  size_t step_count = 0;
  bool steps_dropped = false;
  /// An indefinite-length key a step names, joined in a frame that has
  /// returned by the time the path is formatted: kept here (rare).
  std::unique_ptr<std::string> joined_key;

  void add_step(path_step::kind_t kind, std::string_view name, uint64_t number) noexcept {
    if (step_count == max_steps) {
      steps_dropped = true;
      return;
    }
    steps[step_count++] = path_step{kind, name.data(), name.size(), number};
  }
  status fail(status s, size_t at) {
    if (code == status::ok) {
      code = s;
      offset = at;
    }
    return s;
  }
  /// A failure the reader reported (its sticky error holds the offset).
  status reader_failed(status s) {
    const error_info& e = r.error();
    return fail(s, e.code != status::ok ? e.offset : r.offset());
  }
  status next(item& it) {
    const status s = r.next(it);
    return s == status::ok ? s : reader_failed(s);
  }
  /// Whether a vector or map level may be read (see k_stack_margin): true
  /// unless the thread's stack has less than k_stack_margin left.
  CBOR_FAST_MAPPING_INLINE bool stack_room() noexcept {
    const uintptr_t sp = stack_pointer();
    return sp >= stack_check_below || stack_probe(sp);
  }
  bool stack_probe(uintptr_t sp) noexcept {
    if (stack_left(sp) < k_stack_margin) return false;
    stack_check_below = sp - k_stack_recheck;
    return true;
  }
  /// depth_exceeded at the head of the vector or map that had no room.
  status no_stack_room() { return fail(status::depth_exceeded, r.offset()); }
  /// The next item, for a member accepting Type (unsigned_int: an integer of
  /// either sign), handed to `use(const item&)`: taken by the typed inline
  /// step into an item that never leaves this function (so the fields `use`
  /// ignores are never stored), else read by next() (the same item, or the
  /// same error). One `use` for both: the rules are written once.
  template <item_type Type, class Use>
  CBOR_FAST_MAPPING_INLINE status with_next(Use&& use) {
    {
      item fast;
      if (take_for<Type>(r, fast)) return use(static_cast<const item&>(fast));
    }
    item it;
    const status s = next(it);
    return s == status::ok ? use(static_cast<const item&>(it)) : s;
  }
  /// A container's head, as its decoder reads it (type, count, offset): not
  /// the whole item, whose copy out of with_next() would read back as wide
  /// words what was just stored field by field.
  struct head_info {
    item_type type;
    bool indefinite;
    uint64_t arg;
    size_t offset;
    bool is_indefinite() const noexcept { return indefinite; }
    uint64_t count() const noexcept { return arg; }
  };
  template <item_type Type>
  CBOR_FAST_MAPPING_INLINE status next_head(head_info& h) {
    return with_next<Type>([&](const item& it) {
      h.type = it.type;
      h.indefinite = it.is_indefinite();
      h.arg = it.arg;
      h.offset = it.offset;
      return status::ok;
    });
  }
  /// The next item into `it`, as with_next() (a key the general loop keeps).
  template <item_type Type>
  CBOR_FAST_MAPPING_INLINE status next_typed(item& it) {
    {
      item fast;
      if (take_for<Type>(r, fast)) {
        it = fast;
        return status::ok;
      }
    }
    return next(it);
  }
  /// The next byte when it is the initial byte of a break (indefinite containers).
  bool at_break() const noexcept {
    const byte_view in = r.input();
    const size_t at = r.offset();
    return at < in.size && in.data[at] == 0xff;
  }
  bool next_is_null() const noexcept {
    const byte_view in = r.input();
    const size_t at = r.offset();
    return at < in.size && in.data[at] == 0xf6;
  }
  void add_member(const char* name, size_t size) noexcept {
    add_step(path_step::member, std::string_view(name, size), 0);
  }
  void add_index(size_t i) noexcept { add_step(path_step::index, {}, uint64_t(i)); }
  /// Skips the rest of an item whose head `it` was just read.
  status skip_rest(const item& it) {
    const bool open = it.type == item_type::array || it.type == item_type::map ||
                      it.type == item_type::tag ||
                      ((it.type == item_type::byte_string || it.type == item_type::text_string) &&
                       it.is_indefinite());
    if (!open) return status::ok;
    const status s = r.skip_to_end();
    return s == status::ok ? s : reader_failed(s);
  }
  /// Reads the end item of a container whose elements were all read.
  /// The end of the container just read: next()'s inline step here, the
  /// call only when it declines (indefinite, a tag level, strict checks).
  CBOR_FAST_MAPPING_INLINE status expect_end() {
    if (mapping_access::take_end(r)) return status::ok;
    return expect_end_next();
  }
  status expect_end_next() {
    item e;
    const status s = next(e);
    if (s != status::ok) return s;
    if (e.type != item_type::end) return fail(status::type_mismatch, e.offset);
    return status::ok;
  }
};

template <class T>
status decode_value(decode_ctx& c, T& out);

inline status type_error(decode_ctx& c, const item& it) {
  return c.fail(status::type_mismatch, it.offset);
}
inline status type_error(decode_ctx& c, const decode_ctx::head_info& h) {
  return c.fail(status::type_mismatch, h.offset);
}

template <class I>
status decode_integer(decode_ctx& c, I& out) {
  return c.with_next<item_type::unsigned_int>([&](const item& it) {
    using L = std::numeric_limits<I>;
    if (it.type == item_type::unsigned_int) {
      if (it.value() > uint64_t(L::max())) return c.fail(status::out_of_range, it.offset);
      out = I(it.value());
      return status::ok;
    }
    if (it.type == item_type::negative_int) {
      if constexpr (std::is_unsigned<I>::value) {
        return c.fail(status::out_of_range, it.offset);
      } else {
        // -1 - n >= min  <=>  n <= -(min + 1) = max
        if (it.value() > uint64_t(L::max())) return c.fail(status::out_of_range, it.offset);
        out = I(-1 - int64_t(it.value()));
        return status::ok;
      }
    }
    return type_error(c, it);
  });
}

/// A NaN item as float bits, bit for bit (a hardware conversion quiets a
/// signalling NaN): false for a double whose payload has bits below the 23 a
/// float holds.
inline bool nan_float_bits(const item& it, uint32_t& out) noexcept {
  const uint64_t b = it.float_bits();
  switch (it.width) {
    case 2:
      out = uint32_t(b & 0x8000u) << 16 | 0x7f800000u | uint32_t(b & 0x3ffu) << 13;
      return true;
    case 4: out = uint32_t(b); return true;
    default:
      if ((b & ((uint64_t(1) << 29) - 1)) != 0) return false;
      out = (uint32_t(b >> 32) & 0x80000000u) | 0x7f800000u | uint32_t(b >> 29 & 0x7fffffu);
      return true;
  }
}

template <class F>
status decode_float(decode_ctx& c, F& out) {
  return c.with_next<item_type::floating>([&](const item& it) {
    double d;
    if (it.type == item_type::floating) {
      d = it.float_value();
      if constexpr (std::is_same<F, float>::value) {
        if (d != d) {  // NaN: its payload kept exactly, or out_of_range
          uint32_t bits;
          if (!nan_float_bits(it, bits)) return c.fail(status::out_of_range, it.offset);
          std::memcpy(&out, &bits, sizeof out);
          return status::ok;
        }
      }
      if constexpr (sizeof(F) < sizeof(double)) {
        // A double narrows only when exact (infinities included).
        if (it.width == 8 && F(d) != d) return c.fail(status::out_of_range, it.offset);
      }
    } else if (it.type == item_type::unsigned_int || it.type == item_type::negative_int) {
      // Taken only when exact: the integer's magnitude converted once (so
      // rounded once) must convert back. A negative integer's magnitude is
      // n + 1 (-1 - n), 2^64 for n = 2^64 - 1; -1.0 - double(n) rounded
      // twice and refused exact values such as -2^63 (n = 2^63 - 1).
      const uint64_t n = it.value();
      const bool negative = it.type == item_type::negative_int;
      if (negative && n == UINT64_MAX) {
        d = -18446744073709551616.0;  // -2^64
      } else {
        const uint64_t mag = negative ? n + 1 : n;
        const double m = double(mag);
        if (m >= 18446744073709551616.0 || uint64_t(m) != mag)
          return c.fail(status::out_of_range, it.offset);
        d = negative ? -m : m;
      }
      if (double(F(d)) != d) return c.fail(status::out_of_range, it.offset);
    } else {
      return type_error(c, it);
    }
    out = F(d);
    return status::ok;
  });
}

/// Definite or indefinite text into std::string; definite text into a view.
inline status decode_text(decode_ctx& c, std::string& out) {
  return c.with_next<item_type::text_string>([&](const item& it) {
    if (it.type != item_type::text_string) return type_error(c, it);
    if (!it.is_indefinite()) {
      // A string with room keeps its buffer; else one of the right size
      // (string's grow-and-copy path costs more than building it anew).
      if (out.capacity() >= it.arg) {
        out.assign(it.text().data(), it.text().size());
      } else {
        // Built first (a failed allocation leaves `out` as it was), then
        // moved into out's own storage: no temporary left to move-assign
        // from and destroy (an out-of-line call and a test per string).
        std::string fresh(it.text().data(), it.text().size());
        out.~basic_string();
        ::new (static_cast<void*>(&out)) std::string(std::move(fresh));
      }
      return status::ok;
    }
    out.clear();
    const status s = c.r.read_joined(it, out);
    return s == status::ok ? s : c.reader_failed(s);
  });
}

/// A borrowed view of a definite string of one major type (indefinite
/// strings have no single place in the input: type_mismatch).
template <item_type Want, class V>
status decode_view(decode_ctx& c, V& out) {
  return c.with_next<Want>([&](const item& it) {
    if (it.type != Want || it.is_indefinite()) return type_error(c, it);
    if constexpr (Want == item_type::text_string) {
      out = it.text();
    } else {
      out = it.bytes();
    }
    return status::ok;
  });
}

template <class A>
status decode_byte_vector(decode_ctx& c, std::vector<uint8_t, A>& out) {
  return c.with_next<item_type::byte_string>([&](const item& it) {
    if (it.type != item_type::byte_string) return type_error(c, it);
    if (!it.is_indefinite()) {
      out.assign(it.bytes().begin(), it.bytes().end());
      return status::ok;
    }
    out.clear();
    for (;;) {
      item chunk;
      const status s = c.next(chunk);
      if (s != status::ok) return s;
      if (chunk.type == item_type::end) return status::ok;
      out.insert(out.end(), chunk.bytes().begin(), chunk.bytes().end());
    }
  });
}

/// Appends one decoded element to out (std::vector<bool> through a bool: its
/// back() is a proxy, not a reference).
template <class V>
status decode_appended(decode_ctx& c, V& out) {
  out.emplace_back();
  if constexpr (std::is_same<typename V::value_type, bool>::value) {
    bool b = false;
    const status s = decode_value(c, b);
    out.back() = b;
    return s;
  } else {
    return decode_value(c, out.back());
  }
}

template <class V>
status decode_vector(decode_ctx& c, V& out) {
  using E = typename V::value_type;
  if constexpr (is_bulk_number<E> && std::is_same<V, std::vector<E>>::value) {
    const size_t at = c.r.offset();
    const status s = c.r.read_array(out);
    if (s == status::ok) return s;
    // Not an array: nothing was read, the error is ours. Inside it: the
    // reader's sticky error has the element's offset.
    return c.r.error().code != status::ok ? c.reader_failed(s) : c.fail(s, at);
  } else {
    if (CBOR_FAST_MAPPING_UNLIKELY(!c.stack_room())) return c.no_stack_room();
    decode_ctx::head_info it;
    status s = c.next_head<item_type::array>(it);
    if (s != status::ok) return s;
    if (it.type != item_type::array) return type_error(c, it);
    out.clear();
    if (!it.is_indefinite()) {
      // The reader has checked that the input can hold this many items,
      // but an element may take far more memory than its byte: the
      // reservations of all the vectors being filled are held to 16 bytes
      // per byte of input left (and 64 KiB), so counts alone cannot make a
      // large allocation (nested ones each reserved that budget: a
      // recursive type 255 levels deep over 1 MiB reserved 6 GB).
      const size_t n = size_t(it.count());
      const size_t left = c.r.input().size - c.r.offset();
      const size_t budget = (left > (SIZE_MAX - 65536) / 16 ? SIZE_MAX : left * 16 + 65536);
      const size_t room = budget > c.reserved ? (budget - c.reserved) / sizeof(E) : 0;
      const size_t held = (n < room ? n : room) * sizeof(E);
      out.reserve(held / sizeof(E));
      c.reserved += held;
      for (size_t i = 0; i < n; ++i) {
        s = decode_appended(c, out);
        if (s != status::ok) {
          c.add_index(i);
          return s;
        }
      }
      c.reserved -= held;
    } else {
      for (size_t i = 0; !c.at_break(); ++i) {
        s = decode_appended(c, out);
        if (s != status::ok) {
          c.add_index(i);
          return s;
        }
      }
    }
    return c.expect_end();
  }
}

template <class E, size_t N>
status decode_std_array(decode_ctx& c, std::array<E, N>& out) {
  decode_ctx::head_info it;
  status s = c.next_head<item_type::array>(it);
  if (s != status::ok) return s;
  if (it.type != item_type::array || (!it.is_indefinite() && it.count() != N))
    return type_error(c, it);
  for (size_t i = 0; i < N; ++i) {
    if (it.is_indefinite() && c.at_break()) return type_error(c, it);
    s = decode_value(c, out[i]);
    if (s != status::ok) {
      c.add_index(i);
      return s;
    }
  }
  if (it.is_indefinite() && !c.at_break()) return type_error(c, it);
  return c.expect_end();
}

template <class K>
void add_key_step(decode_ctx& c, const K& key) {
  if constexpr (std::is_integral<K>::value && !std::is_same<K, bool>::value) {
    const bool negative = std::is_signed<K>::value && key < 0;
    c.add_step(path_step::int_key, negative ? "-" : "", uint64_t(key));
  } else if constexpr (std::is_convertible<const K&, std::string_view>::value) {
    c.add_step(path_step::text_key, std::string_view(key), 0);
  } else {
    c.add_step(path_step::text_key, "?", 0);
  }
}

template <class M>
status decode_map(decode_ctx& c, M& out) {
  using K = typename M::key_type;
  if (CBOR_FAST_MAPPING_UNLIKELY(!c.stack_room())) return c.no_stack_room();
  decode_ctx::head_info it;
  status s = c.next_head<item_type::map>(it);
  if (s != status::ok) return s;
  if (it.type != item_type::map) return type_error(c, it);
  out.clear();
  const bool definite = !it.is_indefinite();
  const uint64_t pairs = it.count();
  for (uint64_t i = 0; definite ? i < pairs : !c.at_break(); ++i) {
    const size_t key_at = c.r.offset();
    typename M::iterator placed;
    bool inserted;
    if constexpr (std::is_same<K, std::string>::value) {
      // A text key is built in its node from the input's bytes (no string
      // built first and moved in), placed after the last key when the keys
      // come in order; a key already there leaves the size as it was.
      const size_t before = out.size();
      s = c.with_next<item_type::text_string>([&](const item& k) {
        if (k.type != item_type::text_string) return type_error(c, k);
        if (!k.is_indefinite()) {
          placed = out.emplace_hint(out.end(), std::piecewise_construct,
                                    std::forward_as_tuple(k.text().data(), k.text().size()),
                                    std::forward_as_tuple());
          return status::ok;
        }
        std::string joined;
        const status js = c.r.read_joined(k, joined);
        if (js != status::ok) return c.reader_failed(js);
        placed =
            out.emplace_hint(out.end(), std::piecewise_construct,
                             std::forward_as_tuple(std::move(joined)), std::forward_as_tuple());
        return status::ok;
      });
      if (s != status::ok) return s;
      inserted = out.size() != before;
    } else {
      K key{};
      s = decode_value(c, key);
      if (s != status::ok) return s;
      if constexpr (std::is_floating_point<K>::value) {
        // NaN equals no key, itself included: std::map would take it for a
        // duplicate of any key (its order breaks), std::unordered_map would
        // hold a key no lookup finds.
        if (key != key) {
          c.add_step(path_step::text_key, "NaN", 0);
          return c.fail(status::out_of_range, key_at);
        }
      }
      auto r = out.try_emplace(std::move(key));
      placed = r.first;
      inserted = r.second;
    }
    if (!inserted) {
      add_key_step(c, placed->first);
      return c.fail(status::duplicate_key, key_at);
    }
    s = decode_value(c, placed->second);
    if (s != status::ok) {
      // The path may point into the key (a string_view key): copy it now.
      add_key_step(c, placed->first);
      return s;
    }
  }
  return c.expect_end();
}

/// Major types an alternative of a variant accepts (bit n: major type n;
/// bit 8: null; bit 9: anything).
template <class T>
constexpr unsigned accepted_majors() noexcept {
  if constexpr (has_adapter<T>::value || has_decode_hook<T>::value) {
    return 0x3ff;
  } else if constexpr (has_fields<T>::value) {
    using L = typename decltype(cbor_fast_fields(static_cast<const T*>(nullptr)))::layout;
    return std::is_same<L, layout_array>::value ? 1u << 4 : 1u << 5;
  } else if constexpr (is_optional<T>::value) {
    return accepted_majors<typename T::value_type>() | 0x100;
  } else if constexpr (std::is_same<T, std::monostate>::value) {
    return 0x100;
  } else if constexpr (std::is_same<T, bool>::value) {
    return 1u << 7;
  } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
    return 3u;
  } else if constexpr (std::is_floating_point<T>::value) {
    return 1u << 7;
  } else if constexpr (std::is_same<T, std::string>::value ||
                       std::is_same<T, std::string_view>::value) {
    return 1u << 3;
  } else if constexpr (std::is_same<T, byte_view>::value ||
                       std::is_same<T, std::vector<uint8_t>>::value) {
    return 1u << 2;
  } else if constexpr (is_vector<T>::value) {
    return (1u << 4) | (is_bulk_number<typename T::value_type> ? 1u << 6 : 0u);
  } else if constexpr (is_std_array<T>::value) {
    return 1u << 4;
  } else if constexpr (is_map_like<T>::value) {
    return 1u << 5;
  } else {
    return 0;
  }
}

/// The head of a variant's item, peeked: its initial byte and, when the
/// input holds it, its argument.
struct variant_head {
  uint8_t ib;
  bool have_arg;
  uint64_t arg;
  unsigned major() const noexcept { return unsigned(ib >> 5); }
};

/// Whether alternative A takes the item itself, beyond its major type: a
/// bool only false and true, a float only a float, an integer type only a
/// value in its range (an argument not in the input yet: any).
template <class A>
bool variant_fits(const variant_head& h) noexcept {
  if constexpr (is_optional<A>::value) {
    return variant_fits<typename A::value_type>(h);
  } else if constexpr (has_adapter<A>::value || has_decode_hook<A>::value) {
    return true;
  } else if constexpr (std::is_same<A, bool>::value) {
    return h.ib == 0xf4 || h.ib == 0xf5;
  } else if constexpr (std::is_floating_point<A>::value) {
    return h.ib == 0xf9 || h.ib == 0xfa || h.ib == 0xfb;
  } else if constexpr (std::is_integral<A>::value || std::is_enum<A>::value) {
    using U = typename std::conditional_t<std::is_enum<A>::value, std::underlying_type<A>,
                                          std::common_type<A>>::type;
    if (!h.have_arg || h.major() > 1) return true;
    // A negative -1 - arg fits when arg <= max (two's complement).
    if (h.major() == 1 && !std::is_signed<U>::value) return false;
    return h.arg <= uint64_t(std::numeric_limits<U>::max());
  } else {
    return true;
  }
}

/// The first alternative from I on that takes the item: with Fit, by its
/// major type and the item itself (variant_fits); without (when none fits),
/// by the major type alone, for that alternative to report why not.
template <size_t I, bool Fit, class V>
status decode_variant_from(decode_ctx& c, V& out, const variant_head& h) {
  if constexpr (I == std::variant_size<V>::value) {
    if constexpr (Fit) {
      return decode_variant_from<0, false>(c, out, h);
    } else {
      (void)out;
      (void)h;
      item it;
      const status s = c.next(it);
      if (s != status::ok) return s;
      return type_error(c, it);
    }
  } else {
    using A = std::variant_alternative_t<I, V>;
    constexpr unsigned mask = accepted_majors<A>();
    // null goes only to an optional, std::monostate or a hook.
    const bool is_null = h.ib == 0xf6;
    const bool takes =
        (mask & 0x200) != 0 || (is_null ? (mask & 0x100) != 0 : (mask >> h.major() & 1) != 0);
    if (takes && (!Fit || is_null || variant_fits<A>(h)))
      return decode_value(c, out.template emplace<I>());
    return decode_variant_from<I + 1, Fit>(c, out, h);
  }
}

template <class V>
status decode_variant(decode_ctx& c, V& out) {
  const byte_view in = c.r.input();
  const size_t at = c.r.offset();
  if (at >= in.size) {
    item it;
    return c.next(it);  // end or truncated, from the reader
  }
  variant_head h{in.data[at], false, 0};
  const detail::head_entry& e = detail::k_heads[h.ib];
  if (e.kind != detail::hk_other && in.size - at >= e.head_size) {
    const unsigned ai = h.ib & 0x1fu;
    h.have_arg = true;
    h.arg = ai < 24 ? ai : detail::load_argument_short(in.data + at + 1, e.arg_bytes);
  }
  return decode_variant_from<0, true>(c, out, h);
}

// ---- structs ----

template <size_t Words>
struct seen_bits {
  uint64_t w[Words] = {};
  bool test(size_t i) const noexcept { return (w[i / 64] >> (i % 64) & 1) != 0; }
  void set(size_t i) noexcept { w[i / 64] |= uint64_t(1) << (i % 64); }
  /// Bits 0..n-1 all set (n <= 64 * Words).
  bool all(size_t n) const noexcept {
    for (size_t k = 0; k < Words; ++k) {
      const size_t bits = n > 64 * k ? n - 64 * k : 0;
      const uint64_t want = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      if (w[k] != want) return false;
    }
    return true;
  }
};

/// Decodes member I into out (the key or position was matched).
template <size_t I, class T, class FL>
status decode_member(decode_ctx& c, T& out, const FL& fl) {
  const auto& f = std::get<I>(fl.fields);
  const status s = decode_value(c, out.*(f.member));
  if (s != status::ok) c.add_member(f.name, f.name_size);
  return s;
}

constexpr bool is_ascii(const char* s, size_t n) noexcept {
  for (size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) return false;
  return true;
}

template <class FL, size_t... I>
constexpr size_t max_name_size(const FL& fl, std::index_sequence<I...>) noexcept {
  // An array and a loop, not a fold over the comma: clang 14 refuses that fold here.
  const size_t sizes[] = {size_t(0), std::get<I>(fl.fields).name_size...};
  size_t m = 0;
  for (const size_t s : sizes) m = s > m ? s : m;
  return m;
}

/// The first `n` (<= 8) bytes of a key's encoding (its head, then a name's
/// bytes) as one big-endian number, as load_argument<8>() >> (64 - 8 n) reads
/// them from the input.
constexpr uint64_t key_word(const key_head& h, const char* name, size_t n) noexcept {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v = (v << 8) | (i < h.size ? h.bytes[i] : uint8_t(name[i - h.size]));
  return v;
}

/// The key of member I of T (its name, or its integer key) taken when it is
/// the next item in its shortest encoding, as take_typed(). Another encoding
/// of the same key (a longer head, an indefinite string) returns false and
/// the general loop matches it.
/// names_fit: every member name of T is at most max_string_length bytes
/// (tested once per map, by decode_struct_fields()).
template <class T, size_t I>
CBOR_FAST_MAPPING_INLINE bool take_member_key(reader& r, bool names_fit) noexcept {
  static constexpr auto fl = cbor_fast_fields(static_cast<const T*>(nullptr));
  using L = typename std::remove_const_t<decltype(fl)>::layout;
  static constexpr auto& f = std::get<I>(fl.fields);
  static constexpr bool names = std::is_same<L, layout_names>::value;
  static constexpr key_head head =
      names ? shortest_key_head(3, f.name_size)
            : shortest_key_head(f.key < 0 ? 1 : 0,
                                f.key < 0 ? uint64_t(-1 - f.key) : uint64_t(f.key));
  static constexpr head_entry e = k_heads[head.bytes[0]];
  // The whole encoding: the head, and a name's bytes.
  static constexpr size_t size = head.size + (names ? f.name_size : 0);
  const uint8_t* p = mapping_access::plain_head(r);
  if (p == nullptr) return false;
  // plain_head() leaves nine bytes: room for any head, and for the whole key
  // when it has at most nine bytes (most names: no test of the input's end).
  if constexpr (size <= 8) {
    // One load and one compare against the key's bytes as a constant.
    static constexpr uint64_t want = key_word(head, f.name, size);
    if (load_argument<8>(p) >> (64 - 8 * size) != want) return false;
  } else {
    if (std::memcmp(p, head.bytes, head.size) != 0) return false;
    if constexpr (names) {
      const uint8_t* body = p + head.size;
      if constexpr (size > 9) {
        const byte_view in = r.input();
        if (size_t(in.data + in.size - body) < f.name_size) return false;
      }
      if (std::memcmp(body, f.name, f.name_size) != 0) return false;
    }
  }
  if constexpr (names) {
    // The string is in the input (compared above); an ASCII name is valid
    // UTF-8: what is left of read_head()'s checks is the length limit.
    static constexpr bool ascii = is_ascii(f.name, f.name_size);
    if (ascii && names_fit) {
      mapping_access::take_known(r, p + size);
      return true;
    }
    item key;
    return take_form<item_type::text_string, e.arg_bytes>(r, e, key);
  } else {
    (void)e;
    mapping_access::take_known(r, p + size);  // an integer: read_head() checks nothing more
    return true;
  }
}

/// The in-order pass over a definite map: member I, when its key is next
/// (taken as above), is decoded at once, without a search by name; else
/// member I + 1 gets the same key (so omitted optionals cost one compare
/// each). The first key that matches no member from here on ends the pass,
/// and the general loop takes the map's remaining pairs (members not seen
/// here may still come; a member seen here and again is duplicate_key there).
/// false: stop (the pairs are all read, or s holds an error).
template <size_t I, class T, class FL, class Seen>
CBOR_FAST_MAPPING_INLINE bool ordered_member(decode_ctx& c, T& out, const FL& fl, Seen& seen,
                                             uint64_t& done, uint64_t pairs, bool names_fit,
                                             status& s) {
  if (done == pairs) return false;
  if (!take_member_key<T, I>(c.r, names_fit)) return true;
  seen.set(I);
  ++done;
  s = decode_member<I>(c, out, fl);
  return s == status::ok;
}

template <class T, class FL, size_t... I>
status decode_member_at(decode_ctx& c, T& out, const FL& fl, size_t index,
                        std::index_sequence<I...>) {
  status s = status::ok;
  (void)((index == I ? (s = decode_member<I>(c, out, fl), true) : false) || ...);
  return s;
}

template <class FL, size_t... I>
void add_member_name(decode_ctx& c, const FL& fl, size_t index, std::index_sequence<I...>) {
  (void)((index == I
              ? (c.add_member(std::get<I>(fl.fields).name, std::get<I>(fl.fields).name_size), true)
              : false) ||
         ...);
}

template <class FL, size_t... I>
size_t find_name(const FL& fl, std::string_view key, std::index_sequence<I...>) noexcept {
  size_t found = FL::size;
  (void)((std::get<I>(fl.fields).name_size == key.size() &&
                  std::memcmp(std::get<I>(fl.fields).name, key.data(),
                              std::get<I>(fl.fields).name_size) == 0
              ? (found = I, true)
              : false) ||
         ...);
  return found;
}
/// Member I, matched by its key at key_offset: duplicate_key if seen, else decoded.
template <size_t I, class T, class FL, class Seen>
status take_member(decode_ctx& c, T& out, const FL& fl, Seen& seen, size_t key_offset) {
  if (seen.test(I)) {
    c.add_member(std::get<I>(fl.fields).name, std::get<I>(fl.fields).name_size);
    return c.fail(status::duplicate_key, key_offset);
  }
  seen.set(I);
  return decode_member<I>(c, out, fl);
}

/// The member named `key`, matched and decoded in one pass over the names
/// (their lengths are constants, so each compare is a few loads). false: no such member.
template <class T, class FL, class Seen, size_t... I>
bool decode_named(decode_ctx& c, T& out, const FL& fl, Seen& seen, std::string_view key,
                  size_t key_offset, status& s, std::index_sequence<I...>) {
  return ((std::get<I>(fl.fields).name_size == key.size() &&
                   std::memcmp(std::get<I>(fl.fields).name, key.data(),
                               std::get<I>(fl.fields).name_size) == 0
               ? (s = take_member<I>(c, out, fl, seen, key_offset), true)
               : false) ||
          ...);
}
template <class T, class FL, class Seen, size_t... I>
bool decode_keyed(decode_ctx& c, T& out, const FL& fl, Seen& seen, int64_t key, size_t key_offset,
                  status& s, std::index_sequence<I...>) {
  return ((std::get<I>(fl.fields).key == key
               ? (s = take_member<I>(c, out, fl, seen, key_offset), true)
               : false) ||
          ...);
}

template <class FL, size_t... I>
size_t find_key(const FL& fl, int64_t key, std::index_sequence<I...>) noexcept {
  size_t found = FL::size;
  (void)((std::get<I>(fl.fields).key == key ? (found = I, true) : false) || ...);
  return found;
}

/// After the members present were read: empty optionals for the missing
/// optional ones, an error naming the first missing one that is not.
template <class T, class FL, size_t... I>
status finish_members(decode_ctx& c, T& out, const FL& fl,
                      const seen_bits<(FL::size + 63) / 64>& seen, size_t head_offset,
                      std::index_sequence<I...>) {
  if (seen.all(FL::size)) return status::ok;  // the common case: one compare per 64 members
  status s = status::ok;
  (void)((seen.test(I) ? false
          : is_optional<typename std::tuple_element_t<I, decltype(fl.fields)>::type>::value
              ? ((out.*(std::get<I>(fl.fields).member)) = {}, false)
              : (c.add_member(std::get<I>(fl.fields).name, std::get<I>(fl.fields).name_size),
                 s = c.fail(status::type_mismatch, head_offset), true)) ||
         ...);
  return s;
}

template <class T, size_t... I>
status decode_struct_fields(decode_ctx& c, T& out, std::index_sequence<I...>) {
  static constexpr auto fl = cbor_fast_fields(static_cast<const T*>(nullptr));
  using FL = std::remove_const_t<decltype(fl)>;
  using L = typename FL::layout;
  constexpr size_t N = FL::size;
  using seq = std::make_index_sequence<N>;
  seen_bits<(N + 63) / 64> seen;
  decode_ctx::head_info head;
  status s = c.template next_head < std::is_same<L, layout_array>::value ? item_type::array
                                                                         : item_type::map > (head);
  if (s != status::ok) return s;
  const bool definite = !head.is_indefinite();
  if constexpr (std::is_same<L, layout_array>::value) {
    if (head.type != item_type::array) return type_error(c, head);
    const uint64_t n = head.count();
    size_t i = 0;
    if (definite) {
      // The members in order, each decoded without a dispatch on its index.
      (void)((i < n
                  ? (s = decode_member<I>(c, out, fl), s == status::ok && (seen.set(I), ++i, true))
                  : false) &&
             ...);
      if (s != status::ok) return s;
    }
    for (; definite ? i < n : !c.at_break(); ++i) {
      if (i < N) {
        s = decode_member_at(c, out, fl, i, seq{});
        if (s != status::ok) return s;
        seen.set(i);
        continue;
      }
      const size_t at = c.r.offset();
      if (c.reject_unknown) {
        c.add_index(i);
        return c.fail(status::type_mismatch, at);
      }
      s = c.r.skip();
      if (s != status::ok) return c.reader_failed(s);
    }
  } else {
    if (head.type != item_type::map) return type_error(c, head);
    const uint64_t pairs = head.count();
    uint64_t i = 0;
    if (definite) {
      const bool names_fit = max_name_size(fl, seq{}) <= c.r.options().max_string_length;
      (void)(ordered_member<I>(c, out, fl, seen, i, pairs, names_fit, s) && ...);
      if (s != status::ok) return s;
    }
    std::string joined;  // an indefinite-length key (rare: allocates only then)
    for (; definite ? i < pairs : !c.at_break(); ++i) {
      item key;
      if constexpr (std::is_same<L, layout_names>::value) {
        s = c.next_typed<item_type::text_string>(key);
      } else {
        s = c.next_typed<item_type::unsigned_int>(key);
      }
      if (s != status::ok) return s;
      bool matched = false;
      if constexpr (std::is_same<L, layout_names>::value) {
        if (key.type == item_type::text_string) {
          std::string_view text = key.text();
          if (key.is_indefinite()) {
            joined.clear();
            s = c.r.read_joined(key, joined);
            if (s != status::ok) return c.reader_failed(s);
            text = joined;
          }
          matched = decode_named(c, out, fl, seen, text, key.offset, s, seq{});
        }
      } else {
        int64_t k;
        if (key.get_int64(&k)) matched = decode_keyed(c, out, fl, seen, k, key.offset, s, seq{});
      }
      if (matched) {
        if (s != status::ok) return s;
        continue;
      }
      if (c.reject_unknown) {
        // (An indefinite text key was joined only in the names layout.)
        if (key.type == item_type::text_string &&
            (!key.is_indefinite() || std::is_same<L, layout_names>::value)) {
          std::string_view name = key.text();
          if (key.is_indefinite()) {
            c.joined_key = std::make_unique<std::string>(std::move(joined));
            name = *c.joined_key;
          }
          c.add_step(path_step::member, name, 0);
        } else if (int64_t k; key.get_int64(&k)) {
          add_key_step(c, k);
        }
        return c.fail(status::type_mismatch, key.offset);
      }
      // An indefinite text key was read whole (read_joined): nothing of it
      // is left to skip, only its value.
      if (!(key.type == item_type::text_string && key.is_indefinite() &&
            std::is_same<L, layout_names>::value)) {
        s = c.skip_rest(key);
        if (s != status::ok) return s;
      }
      s = c.r.skip();
      if (s != status::ok) return c.reader_failed(s);
    }
  }
  s = c.expect_end();
  if (s != status::ok) return s;
  return finish_members(c, out, fl, seen, head.offset, seq{});
}

template <class T>
status decode_struct(decode_ctx& c, T& out) {
  using FL = decltype(cbor_fast_fields(static_cast<const T*>(nullptr)));
  return decode_struct_fields(c, out, std::make_index_sequence<FL::size>{});
}

template <class T>
status decode_value(decode_ctx& c, T& out) {
  if constexpr (has_adapter<T>::value || has_decode_hook<T>::value) {
    const size_t at = c.r.offset();
    status s;
    if constexpr (has_adapter<T>::value) {
      s = adapter<T>::decode(c.r, out);
    } else {
      s = cbor_fast_decode(c.r, out);
    }
    if (s == status::ok) return s;
    return c.r.error().code != status::ok ? c.reader_failed(s) : c.fail(s, at);
  } else if constexpr (has_fields<T>::value) {
    return decode_struct(c, out);
  } else if constexpr (is_optional<T>::value) {
    if (c.next_is_null()) {
      // The byte is a null's, but the item read may not be: at a full
      // container's end the null lies beyond it.
      item it;
      const status s = c.next(it);
      if (s != status::ok) return s;
      if (it.type != item_type::null) return type_error(c, it);
      out.reset();
      return status::ok;
    }
    if (!out.has_value()) out.emplace();
    return decode_value(c, *out);
  } else if constexpr (std::is_same<T, std::monostate>::value) {
    item it;
    const status s = c.next(it);
    if (s != status::ok) return s;
    return it.type == item_type::null ? status::ok : type_error(c, it);
  } else if constexpr (std::is_same<T, bool>::value) {
    return c.with_next<item_type::boolean>([&](const item& it) {
      if (it.type != item_type::boolean) return type_error(c, it);
      out = it.boolean_value();
      return status::ok;
    });
  } else if constexpr (std::is_enum<T>::value) {
    std::underlying_type_t<T> v{};
    const status s = decode_value(c, v);
    if (s == status::ok) out = T(v);
    return s;
  } else if constexpr (std::is_integral<T>::value) {
    return decode_integer(c, out);
  } else if constexpr (std::is_floating_point<T>::value) {
    static_assert(sizeof(T) <= sizeof(double), "long double is not mapped");
    return decode_float(c, out);
  } else if constexpr (std::is_same<T, std::string>::value) {
    return decode_text(c, out);
  } else if constexpr (std::is_same<T, std::string_view>::value) {
    return decode_view<item_type::text_string>(c, out);
  } else if constexpr (std::is_same<T, byte_view>::value) {
    return decode_view<item_type::byte_string>(c, out);
  } else if constexpr (is_byte_vector<T>::value) {
    return decode_byte_vector(c, out);
  } else if constexpr (is_vector<T>::value) {
    return decode_vector(c, out);
  } else if constexpr (is_std_array<T>::value) {
    return decode_std_array(c, out);
  } else if constexpr (is_map_like<T>::value) {
    return decode_map(c, out);
  } else if constexpr (is_variant<T>::value) {
    return decode_variant(c, out);
  } else {
    static_assert(dependent_false<T>::value,
                  "cbor_fast: no mapping for this type; declare CBOR_FAST_FIELDS for it, "
                  "or a cbor_fast_encode/cbor_fast_decode hook, or a cbor_fast::adapter");
    return status::internal_error;
  }
}

// ---- encoding -------------------------------------------------------------------

/// A writer status that lets encoding go on (a full caller buffer keeps counting).
inline bool go_on(status s) noexcept { return s == status::ok || s == status::buffer_too_small; }

template <class T>
status encode_value(writer& w, const T& v);

/// Whether a vector or map level may be written: from 16 levels of the
/// writer's nesting on, each needs k_stack_margin of the thread's stack left
/// (see there). (Only at every 16th depth missed every check of a tree whose
/// levels are two writer levels each when it started one level down.)
CBOR_FAST_MAPPING_INLINE bool encode_stack_room(const writer& w) noexcept {
  return w.depth() < 16 || stack_left(stack_pointer()) >= k_stack_margin;
}

template <class T>
bool present(const T& v) noexcept {
  if constexpr (is_optional<T>::value) {
    return v.has_value();
  } else {
    (void)v;
    return true;
  }
}

template <class T, class FL, size_t... I>
status encode_struct(writer& w, const T& v, const FL& fl, std::index_sequence<I...>) {
  using L = typename FL::layout;
  status s;
  if constexpr (std::is_same<L, layout_array>::value) {
    s = w.begin_array(FL::size);
  } else {
    const size_t count = (size_t(0) + ... + (present(v.*(std::get<I>(fl.fields).member)) ? 1 : 0));
    s = w.begin_map(count);
  }
  if (!go_on(s)) return s;
  auto one = [&](const auto& f) {
    const auto& m = v.*(f.member);
    if constexpr (!std::is_same<L, layout_array>::value) {
      if (!present(m)) return true;
      s = std::is_same<L, layout_keys>::value ? w.write_int(f.key)
                                              : w.write_text(std::string_view(f.name, f.name_size));
      if (!go_on(s)) return false;
    }
    s = encode_value(w, m);
    return go_on(s);
  };
  if (!(one(std::get<I>(fl.fields)) && ...)) return s;
  return w.end();
}

template <class T>
status encode_value(writer& w, const T& v) {
  if constexpr (has_adapter<T>::value) {
    return adapter<T>::encode(w, v);
  } else if constexpr (has_encode_hook<T>::value) {
    return cbor_fast_encode(w, v);
  } else if constexpr (has_fields<T>::value) {
    static constexpr auto fl = cbor_fast_fields(static_cast<const T*>(nullptr));
    return encode_struct(w, v, fl, std::make_index_sequence<decltype(fl)::size>{});
  } else if constexpr (is_optional<T>::value) {
    return v.has_value() ? encode_value(w, *v) : w.write_null();
  } else if constexpr (std::is_same<T, std::monostate>::value) {
    return w.write_null();
  } else if constexpr (std::is_same<T, bool>::value) {
    return w.write_bool(v);
  } else if constexpr (std::is_enum<T>::value) {
    return encode_value(w, static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral<T>::value && std::is_unsigned<T>::value) {
    return w.write_uint(uint64_t(v));
  } else if constexpr (std::is_integral<T>::value) {
    return w.write_int(int64_t(v));
  } else if constexpr (std::is_floating_point<T>::value) {
    static_assert(sizeof(T) <= sizeof(double), "long double is not mapped");
    if constexpr (std::is_same<T, float>::value) {
      if (v != v) {  // NaN: widened bit for bit (a hardware conversion quiets a signalling one)
        uint32_t f;
        std::memcpy(&f, &v, sizeof f);
        const uint64_t bits =
            uint64_t(f & 0x80000000u) << 32 | uint64_t(0x7ff) << 52 | uint64_t(f & 0x7fffffu) << 29;
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return w.write_float(d);
      }
    }
    return w.write_float(double(v));
  } else if constexpr (std::is_same<T, std::string>::value ||
                       std::is_same<T, std::string_view>::value) {
    return w.write_text(std::string_view(v));
  } else if constexpr (std::is_same<T, byte_view>::value) {
    return w.write_bytes(v.data != nullptr ? static_cast<const void*>(v.data) : "", v.size);
  } else if constexpr (is_byte_vector<T>::value) {
    return w.write_bytes(v.empty() ? static_cast<const void*>("") : v.data(), v.size());
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    if (CBOR_FAST_MAPPING_UNLIKELY(!encode_stack_room(w))) return status::depth_exceeded;
    status s = w.begin_array(v.size());
    if (!go_on(s)) return s;
    for (const auto& e : v) {
      s = encode_value(w, e);
      if (!go_on(s)) return s;
    }
    return w.end();
  } else if constexpr (is_map_like<T>::value) {
    if (CBOR_FAST_MAPPING_UNLIKELY(!encode_stack_room(w))) return status::depth_exceeded;
    status s = w.begin_map(v.size());
    if (!go_on(s)) return s;
    for (const auto& kv : v) {
      s = encode_value(w, kv.first);
      if (!go_on(s)) return s;
      s = encode_value(w, kv.second);
      if (!go_on(s)) return s;
    }
    return w.end();
  } else if constexpr (is_variant<T>::value) {
    return std::visit([&w](const auto& alt) { return encode_value(w, alt); }, v);
  } else {
    static_assert(dependent_false<T>::value,
                  "cbor_fast: no mapping for this type; declare CBOR_FAST_FIELDS for it, "
                  "or a cbor_fast_encode/cbor_fast_decode hook, or a cbor_fast::adapter");
    return status::internal_error;
  }
}

// ---- entry points -----------------------------------------------------------------

/// The reader's nesting stack in a buffer on the C++ stack (from_cbor's own
/// reader), the fallback allocator beyond it.
struct inline_stack {
  static constexpr size_t bytes = 1024;
  alignas(16) unsigned char buf[bytes];
  bool used = false;
  const allocator* fallback;
  allocator hooks;

  explicit inline_stack(const allocator* fb) noexcept
      : fallback(fb != nullptr ? fb : &default_allocator()),
        hooks{&do_malloc, &do_realloc, &do_free, this} {}
  inline_stack(const inline_stack&) = delete;
  inline_stack& operator=(const inline_stack&) = delete;

  static void* do_malloc(void* ctx, size_t size) {
    auto* self = static_cast<inline_stack*>(ctx);
    if (!self->used && size <= bytes) {
      self->used = true;
      return self->buf;
    }
    return self->fallback->malloc(self->fallback->context, size);
  }
  static void* do_realloc(void* ctx, void* p, size_t old_size, size_t new_size) {
    auto* self = static_cast<inline_stack*>(ctx);
    if (p != self->buf)
      return self->fallback->realloc(self->fallback->context, p, old_size, new_size);
    if (new_size <= bytes) return p;
    void* q = self->fallback->malloc(self->fallback->context, new_size);
    if (q == nullptr) return nullptr;
    std::memcpy(q, self->buf, old_size);
    self->used = false;
    return q;
  }
  static void do_free(void* ctx, void* p, size_t size) {
    auto* self = static_cast<inline_stack*>(ctx);
    if (p == self->buf) {
      self->used = false;
      return;
    }
    self->fallback->free(self->fallback->context, p, size);
  }
};

/// The path of a failure, outermost step first.
inline std::string format_path(const decode_ctx& c) {
  std::string out = c.steps_dropped ? "..." : "";
  const path_step* steps = c.steps;
  for (size_t k = c.step_count; k-- > 0;) {
    const path_step& st = steps[k];
    switch (st.kind) {
      case path_step::member:
        if (!out.empty() && out != "...") out += '.';
        out.append(st.text, st.text_size);
        break;
      case path_step::index:
        out += '[';
        out += std::to_string(st.number);
        out += ']';
        break;
      case path_step::text_key:
        out += "[\"";
        out.append(st.text, st.text_size);
        out += "\"]";
        break;
      case path_step::int_key:
        out += '[';
        out += st.name() == "-" ? std::to_string(int64_t(st.number)) : std::to_string(st.number);
        out += ']';
        break;
    }
  }
  return out;
}

template <class T>
status run_decode(reader& r, T& out, const mapping_options& options, error_info* err,
                  std::string* path) {
  // Streaming input: the whole item first (nothing of a partial one is read).
  if (r.options().streaming) {
    const status ready = r.item_ready();
    if (ready != status::ok) return ready;
  }
  decode_ctx c(r, options.reject_unknown_keys);
  const size_t start = r.offset();
  status s;
  try {
    s = decode_value(c, out);
  } catch (const std::bad_alloc&) {
    s = c.fail(status::out_of_memory, r.offset());
  }
  if (s != status::ok && err != nullptr) {
    const error_info& re = r.error();
    err->code = s;
    err->offset = c.code != status::ok ? c.offset : re.offset;
    err->item_offset = re.code != status::ok ? re.item_offset : start;
    err->depth = re.code != status::ok ? re.depth : r.depth();
  } else if (err != nullptr) {
    *static_cast<error_info*>(err) = error_info{};
  }
  if (path != nullptr) {
    path->clear();
    if (s != status::ok) {
      try {
        *path = format_path(c);
      } catch (const std::bad_alloc&) {}
    }
  }
  return s;
}

template <class T>
status decode_buffer(const uint8_t* data, size_t size, T& out, const mapping_options& options,
                     error_info* err, std::string* path) {
  if (data == nullptr && size != 0) {
    if (err != nullptr) *err = error_info{status::invalid_argument, 0, 0, 0};
    return status::invalid_argument;
  }
  inline_stack stack(options.reader.alloc);
  reader_options ro = options.reader;
  ro.alloc = &stack.hooks;
  reader r(data, size, ro);
  const status s = run_decode(r, out, options, err, path);
  if (s != status::ok || options.allow_trailing_bytes || r.offset() == size) return s;
  if (err != nullptr) *err = error_info{status::trailing_bytes, r.offset(), r.offset(), 0};
  return status::trailing_bytes;
}

}  // namespace detail

inline namespace v1 {

template <class T>
inline status to_cbor(const T& value, writer& w) {
  const status s = detail::encode_value(w, value);
  return s == status::ok ? w.error() : s;
}

template <class T>
inline std::vector<uint8_t> to_cbor(const T& value) {
  // One allocation: a first pass into a buffer on the stack; if the item is
  // larger, that pass has counted its size and a second one fills the vector.
  uint8_t local[512];
  detail::inline_stack stack(nullptr);  // the writer's container stack, on the C++ stack too
  writer first(local, sizeof local, &stack.hooks);
  status s = to_cbor(value, first);
  if (s == status::ok) s = first.finish();
  if (s == status::ok) return std::vector<uint8_t>(local, local + first.size());
  if (s != status::buffer_too_small) {
    if (s == status::out_of_memory) throw std::bad_alloc();
    return {};
  }
  std::vector<uint8_t> out(first.size());
  detail::inline_stack stack2(nullptr);
  writer second(out.data(), out.size(), &stack2.hooks);
  s = to_cbor(value, second);
  if (s == status::ok) s = second.finish();
  if (s == status::out_of_memory) throw std::bad_alloc();
  if (s != status::ok || second.size() != out.size()) return {};
  return out;
}

template <class T>
inline status from_cbor(const uint8_t* data, size_t size, T& out, error_info* err) {
  return detail::decode_buffer(data, size, out, mapping_options{}, err, nullptr);
}
template <class T>
inline status from_cbor(const uint8_t* data, size_t size, T& out, const mapping_options& options,
                        error_info* err) {
  return detail::decode_buffer(data, size, out, options, err, nullptr);
}
template <class T>
inline status from_cbor(const uint8_t* data, size_t size, T& out, mapping_error& err,
                        const mapping_options& options) {
  return detail::decode_buffer(data, size, out, options, &err, &err.path);
}
template <class T>
inline status from_cbor(reader& r, T& out, error_info* err, const mapping_options& options) {
  return detail::run_decode(r, out, options, err, nullptr);
}
template <class T>
inline status from_cbor(reader& r, T& out, mapping_error& err, const mapping_options& options) {
  return detail::run_decode(r, out, options, &err, &err.path);
}

}  // namespace v1
}  // namespace cbor_fast

#undef CBOR_FAST_MAPPING_INLINE
#undef CBOR_FAST_MAPPING_UNLIKELY

#endif  // CBOR_FAST_MAPPING_INL_HPP
