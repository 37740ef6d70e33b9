// libcbor_fast: RFC 8949 section 8 diagnostic notation.
#ifndef CBOR_FAST_DIAG_HPP
#define CBOR_FAST_DIAG_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include "cbor_fast/error.hpp"
#include "cbor_fast/reader.hpp"

namespace cbor_fast {
inline namespace v1 {

struct diag_options {
  /// Append encoding indicators to floats (_1 half, _2 single, _3 double),
  /// RFC 8949 section 8.1. Off: floats print as in Appendix A ("1.5").
  bool float_width_indicators = false;
  /// After the byte string of an RFC 8746 typed array (tags 64..87), a
  /// comment with its elements as numbers: 69(h'01000200' / [1, 2] /).
  /// Since 0.4.
  bool typed_array_values = false;
};

/// Prints the next complete data item of `r` in diagnostic notation, appending
/// to *out. Returns ok, end (nothing left at the top level) or the reader's
/// error (out_of_memory if *out cannot grow); on error *out holds the text
/// printed so far. Never recurses: depth is bounded only by the reader's max_depth.
///
/// Style of RFC 8949 Appendix A on one line: integers in decimal (bignums stay
/// tags: 2(h'01...')), h'lowercase hex', text with JSON escapes for '"', '\\'
/// and control characters (other bytes copied as they are, so text the reader
/// did not validate can hold invalid UTF-8), [1, 2], {1: 2}, [_ 1], {_ },
/// (_ h'01', h'02'), ''_ and ""_ for indefinite strings without chunks,
/// 1(...), simple(16), false, true, null, undefined.
status diag_next(reader& r, std::string& out, const diag_options& options = {});

/// Appends one float in the style of Appendix A: shortest text that round-trips,
/// "1.0", "1.0e+300", "5.960464477539063e-8", "0.00006103515625", "NaN", "-Infinity".
void diag_append_float(double value, std::string& out);

}  // namespace v1
}  // namespace cbor_fast

#endif  // CBOR_FAST_DIAG_HPP
