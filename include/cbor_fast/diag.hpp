// libcbor_fast: RFC 8949 section 8 diagnostic notation.
#ifndef CBOR_FAST_DIAG_HPP
#define CBOR_FAST_DIAG_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/text_output.hpp"

namespace cbor_fast {
inline namespace v1 {

class stream;  // stream.hpp

struct diag_options {
  /// Append encoding indicators to floats (_1 half, _2 single, _3 double),
  /// RFC 8949 section 8.1. Off: floats print as in Appendix A ("1.5").
  bool float_width_indicators = false;
  /// After the byte string of an RFC 8746 typed array (tags 64..87), a
  /// comment with its elements as numbers: 69(h'01000200' / [1, 2] /).
  /// Since 0.4.
  bool typed_array_values = false;
  /// Encoding indicators everywhere (RFC 8949 section 8.1, RFC 8610 G.2), so
  /// that diag_parse() of the text gives back the same bytes: _0.._3 after an
  /// integer, a string, a tag number or an array/map opening bracket whose head
  /// is longer than the shortest one (1_0, "a"_0, 1_1(2), [_0 1]), and a width
  /// after every float (1.5_1, as float_width_indicators). A NaN with a
  /// payload or the sign bit prints as NaN and parses back as the quiet NaN
  /// of its width (notation has no words for the others). Nor for a text
  /// string that is not valid UTF-8 (a reader without validate_utf8 passes
  /// it): its bytes are printed as they are, and diag_parse() refuses them
  /// (invalid_utf8). Since 0.4.
  bool encoding_indicators = false;
  /// Pretty printing: each array element and map entry on a line of its own,
  /// indented by this many spaces per level; 0 prints one line. The text
  /// grows with depth times items (1 MB of input nested 512 deep printed
  /// 1.08 GB at indent 2 in a probe): print to a stream, not a string, for
  /// input you do not trust. Since 0.4.
  unsigned indent = 0;
};

/// Prints the next complete data item of `r` in diagnostic notation, appending
/// to *out. Returns ok, end (nothing left at the top level), need_more (a
/// streaming reader whose buffer does not hold the whole item yet: nothing
/// printed or consumed) or the reader's error (out_of_memory if *out cannot
/// grow); on error *out holds the text printed so far. Never recurses: depth is bounded only by the reader's max_depth.
///
/// Style of RFC 8949 Appendix A on one line: integers in decimal (bignums stay
/// tags: 2(h'01...')), h'lowercase hex', text with JSON escapes for '"', '\\'
/// and control characters (other bytes copied as they are, so text the reader
/// did not validate can hold invalid UTF-8), [1, 2], {1: 2}, [_ 1], {_ },
/// (_ h'01', h'02'), ''_ and ""_ for indefinite strings without chunks,
/// 1(...), simple(16), false, true, null, undefined.
status diag_next(reader& r, std::string& out, const diag_options& options = {});

/// The same, streaming into `out`: the text reaches out's destination in
/// chunks, so memory stays bounded whatever the size of the item. Since 0.4.
status diag_write(reader& r, text_output& out, const diag_options& options = {});

/// The same from a stream (stream.hpp): the text of the next complete item
/// goes out as the stream reads it, so neither the input nor the text of one
/// item needs to fit in memory (the stream holds one string at most, besides
/// its read block). On error the output holds the text printed so far and the
/// stream's error() has the offset. Since 0.5.
status diag_write(stream& s, text_output& out, const diag_options& options = {});

/// Diagnostic notation (RFC 8949 section 8) and the EDN literals of RFC 8610
/// Appendix G, parsed into CBOR. Since 0.4.
struct diag_parse_options {
  /// Most arrays, maps, tags (bignums' included), indefinite strings and
  /// << >> open at once, as the reader counts levels: 1 takes [] but not
  /// [[]]; 0 takes a top-level scalar only, not the default (as in
  /// from_json_options, unlike the reader's options). Memory grows with the
  /// depth reached: a raised limit let 1 MB of `[` take 89 MB in a probe
  /// before its syntax_error.
  uint32_t max_depth = 512;
  /// Accept a sequence of items separated by commas or whitespace (RFC 8742;
  /// as "cbor-fast from-diag" reads a file). Off: exactly one item.
  bool sequence = false;
};

/// Parses diagnostic notation and appends the encoded item(s) to *out:
///  - integers (decimal, 0x, 0o, 0b, any sign, beyond 64 bits as tag 2/3
///    bignums), floats (decimal, exponent, hexadecimal 0x1.8p1, NaN,
///    Infinity, -Infinity), each with an optional encoding indicator _0.._3
///    (integers: the head's additional information 24..27; floats: _1 half,
///    _2 single, _3 double, rounded to that width); without one the shortest
///    form that holds the value exactly is written;
///  - "text" (JSON escapes, \u surrogate pairs), 'text' as bytes, h'hex',
///    b64'base64 or base64url', b32'...', h32'...' (RFC 4648 base32 / base32hex),
///    whitespace and /comments/ allowed inside h'' and b64'' literals; adjacent
///    strings joined, with + or side by side (RFC 8610 G.4; side by side not
///    at the top level of a sequence, where whitespace separates items): text
///    first gives text, byte string notation allowed inside it ("a" h'62');
///    bytes first gives bytes, and text after bytes is a syntax_error;
///    (_ "a", "b") and ''_ / ""_ indefinite strings;
///  - [..] and {..}, [_ ..] and {_ ..} indefinite, [_1 ..] an encoding
///    indicator on the count; N(item) tags (N_0(..) indicators); << a, b >>
///    embedded CBOR (a byte string holding the items' encoding);
///  - false, true, null, undefined, simple(N);
///  - comments: /.../ and # to the end of the line.
/// Never recurses: nesting is kept on a heap stack bounded by max_depth.
/// Errors, with the byte offset in the text in *error (may be nullptr):
/// syntax_error, depth_exceeded, out_of_range (a number, simple value or
/// indicator that does not fit: also a finite float past the largest one of
/// its indicated width, 65520.0_1, or past the largest double, 1e400; a float
/// nearer zero than half the smallest double rounds to zero, 1e-400 as
/// 1e-10_1, as JSON input does), invalid_utf8 (text strings must be UTF-8),
/// out_of_memory.
/// syntax_error for an empty text (no item). On error *out is as it was.
/// Without indicators every head is the shortest and every length definite,
/// so the output of canonical input is preferred serialization.
status diag_parse(std::string_view text, std::vector<uint8_t>& out,
                  const diag_parse_options& options = {}, error_info* error = nullptr);

/// Appends one float in the style of Appendix A: shortest text that round-trips,
/// "1.0", "1.0e+300", "5.960464477539063e-8", "0.00006103515625", "NaN", "-Infinity".
void diag_append_float(double value, std::string& out);
/// The same into a text_output. Since 0.4.
void diag_append_float(double value, text_output& out);

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_DIAG_HPP
