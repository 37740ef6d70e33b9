// libcbor_fast: JSON <-> CBOR conversion (RFC 8949 sections 6.1 and 6.2).
#ifndef CBOR_FAST_JSON_HPP
#define CBOR_FAST_JSON_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/text_output.hpp"
#include "cbor_fast/writer.hpp"

namespace cbor_fast {
inline namespace v1 {

class stream;  // stream.hpp

/// CBOR -> JSON (RFC 8949 section 6.1).
struct to_json_options {
  /// Tags other than 2, 3 and 21-23: false drops the tag and converts its
  /// content; true writes {"tag":N,"value":CONTENT}.
  bool keep_tags = false;
};

/// Prints the next complete data item of `r` as one JSON text (no newline),
/// streaming: memory is the reader's stack, one frame per open container and
/// the output's chunk, whatever the item's size. Never recurses. Rules:
///  - integers: decimal, any 64-bit value either sign (down to -2^64);
///  - floats: shortest text that reads back as the same double (std::to_chars:
///    "1.5", "1e+300", "1e-07"), with ".0" added to integral values ("1.0");
///    NaN and the infinities: null;
///  - byte strings: base64url without padding (RFC 4648 section 5) in a JSON
///    string; inside tag 22 base64 with padding, inside tag 23 base16
///    (uppercase); tag 21 restores base64url; the innermost of these tags
///    applies to every byte string in its content, and the tags are dropped;
///  - text strings: JSON strings ('"', '\\' and C0 controls escaped; other
///    characters as UTF-8). Text that is not valid UTF-8 fails with
///    invalid_utf8 at its first bad byte sequence, as a reader with
///    validate_utf8 reports it (JSON text must be UTF-8);
///  - indefinite strings: one JSON string of the joined chunks;
///  - false, true, null as themselves; undefined and other simple values: null;
///  - bignums (tag 2 / 3 over a definite byte string) of at most 4300
///    decimal digits (what json_to_cbor reads back): JSON numbers in
///    decimal; longer or indefinite ones: the RFC 8949 6.1 form, a
///    base64url string with "~" in front for tag 3;
///  - other tags: see to_json_options::keep_tags;
///  - map keys that are text strings: as they are; any other key: its
///    diagnostic notation (diag_next's text) as a JSON string, so 1 becomes
///    "1", h'01' "h'01'", true "true", [1, 2] "[1, 2]". Keys are not checked for
///    duplicates (a reader with reject_duplicate_keys does that).
/// Returns ok, end (nothing left at the top level), the reader's error,
/// need_more (a streaming reader whose buffer does not hold the whole item
/// yet: nothing printed or consumed; feed() and call again), invalid_utf8,
/// or the output's error (out_of_memory, sink_failed); *error
/// (may be nullptr) gets the status with its byte offset in the CBOR input. On
/// error the output holds the text printed so far.
status json_next(reader& r, text_output& out, const to_json_options& options = {},
                 error_info* error = nullptr);

/// The same from a stream (stream.hpp): the text of the next complete item
/// goes out as the stream reads it, so neither the input nor the text of one
/// item needs to fit in memory (the stream holds one string at most, besides
/// its read block). Text strings are checked for UTF-8 as they come whatever
/// the stream's options. Since 0.5.
status json_next(stream& s, text_output& out, const to_json_options& options = {},
                 error_info* error = nullptr);

/// The same, appending to *out.
status json_next(reader& r, std::string& out, const to_json_options& options = {},
                 error_info* error = nullptr);

/// Converts exactly one CBOR data item in data[0, size) to JSON text appended
/// to *out. trailing_bytes when more follows it. *error (may be nullptr) gets
/// the status and the byte offset of a failure.
status cbor_to_json(const uint8_t* data, size_t size, std::string& out,
                    const to_json_options& options = {}, error_info* error = nullptr);

/// JSON -> CBOR (RFC 8949 section 6.2).
struct from_json_options {
  /// Most arrays, objects and bignum tags open at once, as the reader counts
  /// levels: 1 takes [] but not [[]] nor [18446744073709551616] (the tag of a
  /// bignum is a level); 0 takes a top-level scalar only, not the default (as
  /// in diag_parse_options, unlike the reader's options). Memory grows with
  /// the depth reached: a raised limit let 1 MB of `[` take 266 MB in a
  /// probe before its syntax_error.
  uint32_t max_depth = 1024;
  /// Reject an object with two equal member names: duplicate_key at the second.
  bool reject_duplicate_keys = false;
};

/// Parses one JSON text (RFC 8259, with simdjson; surrounding whitespace
/// allowed) and writes it as one CBOR data item through `w`, in preferred
/// serialization with definite lengths:
///  - numbers without fraction or exponent: integers, major type 0 or 1 up to
///    64 bits, beyond that tag 2 / 3 bignums (up to 4300 digits, Python's
///    default limit; longer gives out_of_range); "-0" is the integer 0;
///  - other numbers: the double nearest to the text, written as the shortest
///    float (half, single, double) that holds it exactly; a number beyond the
///    double range gives out_of_range;
///  - strings: text strings (escapes resolved); objects: maps with text keys,
///    in document order; arrays, true, false, null as themselves.
/// Errors, with the byte offset in the JSON text in *error (may be nullptr):
/// syntax_error, invalid_utf8, depth_exceeded, out_of_range, duplicate_key,
/// out_of_memory, or the writer's error (offset: the end of the text).
/// Nothing is written to `w` unless the whole text parsed.
status json_to_cbor(std::string_view json, writer& w, const from_json_options& options = {},
                    error_info* error = nullptr);

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_JSON_HPP
