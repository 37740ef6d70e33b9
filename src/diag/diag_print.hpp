// The diagnostic printer's entry point for the JSON printer (internal).
#ifndef CBOR_FAST_DIAG_PRINT_HPP
#define CBOR_FAST_DIAG_PRINT_HPP

#include "cbor_fast/diag.hpp"

namespace cbor_fast {
namespace detail {

/// Prints one complete item whose first item `first` (not end) was just read
/// from `r` (nullptr: read it here). validate_utf8: text strings that are not
/// UTF-8 give invalid_utf8, with *bad_offset the offset of their first bad
/// sequence's lead byte (as a validating reader reports it).
status diag_print(reader& r, text_output& out, const diag_options& options, const item* first,
                  bool validate_utf8, size_t* bad_offset);
/// The same from a stream (which reads on as the item needs).
status diag_print(stream& r, text_output& out, const diag_options& options, const item* first,
                  bool validate_utf8, size_t* bad_offset);

/// diag_append_float's text into out[0, 48); returns its length.
size_t format_float(double value, char* out);

/// Whether the reader has one whole item to print: invalid_state at the end
/// of the enclosing container (no item there); on a streaming reader,
/// need_more until the item is all in the buffer, nothing read of it (as
/// skip(); printing a part would leave the rest to come out as items of
/// their own). diag_write() and json_next() call it first.
status printable_item_ready(reader& r) noexcept;

}  // namespace detail
}  // namespace cbor_fast

#endif  // CBOR_FAST_DIAG_PRINT_HPP
