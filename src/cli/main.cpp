// cbor-fast: command-line front end of libcbor_fast.
//
//   cbor-fast diag  [--pretty] [--indicators] [LIMITS] [FILE|-]
//   cbor-fast check [LIMITS] [--max-memory N] [--sequence] [FILE|-]
//   cbor-fast to-json [--keep-tags] [LIMITS] [FILE|-]
//   cbor-fast from-json [--strict] [--sequence] [FILE|-]
//   cbor-fast from-diag [--strict] [FILE|-]
//   cbor-fast canonical [--length-first | --ctap2] [LIMITS] [FILE|-]
//
// diag prints each top-level item of a CBOR sequence (RFC 8742) as one line
// of diagnostic notation (RFC 8949 section 8), read with the pull reader.
// diag, to-json and canonical read their input through a cbor_fast::stream:
// diag and to-json print each item as it is read (memory: a 64 KiB read
// block, the longest string, and up to 1 MiB of an item's text held back so
// that an item that fails prints nothing), canonical holds one top-level
// item at a time.
// check decodes the input into documents with the document decoder (exactly
// one item, or with --sequence every item of a sequence) and prints one
// summary line. LIMITS are the reader's checks and limits (--strict,
// --no-duplicate-keys, --deterministic, --max-depth, --max-string-length,
// --max-container-items, --max-items); both commands apply them the same way,
// so a hostile input fails with the same status and offset in each, with one
// exception: an array or map declaring more entries than the input holds is
// refused at its head by check, which holds the whole input, and found short
// where the input ends by diag, which reads a stream.
//
// Exit status: 0 success, 1 the input is malformed or exceeds a limit (one
// error line on stderr: "cbor-fast: error: NAME (MESSAGE) at byte offset N"),
// 2 usage or I/O error.
#include <fmt/core.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "cbor_fast/diag.hpp"
#include "cbor_fast/document.hpp"
#include "cbor_fast/json.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/stream.hpp"
#include "cbor_fast/text_output.hpp"
#include "cbor_fast/version.hpp"
#include "cbor_fast/writer.hpp"

#ifndef CBOR_FAST_EXAMPLE_PATH
#error "CBOR_FAST_EXAMPLE_PATH must name the bundled example.cbor"
#endif

namespace {

constexpr int k_exit_ok = 0;
constexpr int k_exit_malformed = 1;
constexpr int k_exit_usage = 2;

void print_usage(std::FILE* to) {
  fmt::print(to,
             "Usage: cbor-fast diag [--pretty] [--indicators] [LIMITS] [FILE|-]\n"
             "       cbor-fast check [LIMITS] [--max-memory N] [--sequence] [FILE|-]\n"
             "       cbor-fast to-json [--keep-tags] [LIMITS] [FILE|-]\n"
             "       cbor-fast from-json [--strict] [--no-duplicate-keys] [--max-depth N]\n"
             "                           [--sequence] [FILE|-]\n"
             "       cbor-fast from-diag [--strict] [--no-duplicate-keys] [--max-depth N]\n"
             "                           [FILE|-]\n"
             "       cbor-fast canonical [--length-first | --ctap2] [LIMITS] [FILE|-]\n"
             "       cbor-fast --help | --version\n"
             "\n"
             "diag       Print each top-level item of a CBOR sequence (RFC 8742) as one\n"
             "           line of diagnostic notation (RFC 8949 section 8). --pretty: one\n"
             "           array element or map entry per line, indented (the text grows\n"
             "           with depth times items: 1 MB of input nested 512 deep can print\n"
             "           about 1 GB); --indicators:\n"
             "           encoding indicators (1_0, [_1 ..], 1.5_3) so that from-diag gives\n"
             "           back the same bytes.\n"
             "check      Decode the input into a document (exactly one item; with --sequence\n"
             "           each item of a sequence) and print one line:\n"
             "           ok: ITEMS items, NODES nodes, BYTES bytes\n"
             "to-json    Print each top-level item as one line of JSON (RFC 8949 6.1: bytes\n"
             "           as base64url, bignums as numbers, NaN and infinities as null, tags\n"
             "           dropped or, with --keep-tags, {{\"tag\":N,\"value\":X}}; keys that are\n"
             "           not text become the string of their diagnostic notation).\n"
             "from-json  Write the JSON text (with --sequence: one text per line) as CBOR\n"
             "           (RFC 8949 6.2: integers as integers, other numbers as the shortest\n"
             "           exact float) to standard output.\n"
             "from-diag  Write the diagnostic notation (a sequence of items, separated by\n"
             "           commas or whitespace) as CBOR to standard output.\n"
             "canonical  Re-encode each top-level item deterministically: shortest forms,\n"
             "           definite lengths, map keys sorted bytewise (RFC 8949 4.2.1);\n"
             "           --length-first: shorter keys first (RFC 8949 4.2.3); --ctap2: the\n"
             "           CTAP2 order (major type, then length, then bytes).\n"
             "diag, to-json and canonical read the input as a stream, whatever its size:\n"
             "diag and to-json print each item as it is read (memory: about 1 MiB, the\n"
             "longest string, and 40-60 bytes per level of nesting with --max-depth\n"
             "raised; with --strict or --no-duplicate-keys also the keys of the open\n"
             "maps, about 50 bytes each plus a copy of each key: not bounded by\n"
             "--max-memory), canonical holds one top-level item at a time, with its\n"
             "document; the input held at once is at most --max-memory bytes, canonical's\n"
             "document at most 32 times that plus 1 MiB, as check allows that much input\n"
             "(memory_budget_exceeded beyond).\n"
             "\n"
             "LIMITS (each failure names its status and byte offset):\n"
             "  --strict                 RFC 8949 validity: reject text strings that are\n"
             "                           not valid UTF-8 and duplicate map keys (from-json:\n"
             "                           duplicate member names; from-diag: duplicate keys,\n"
             "                           at their offset in the CBOR written)\n"
             "  --no-duplicate-keys      reject a map key equal to an earlier key of the\n"
             "                           same map, by value: 1 equals 0x18 0x01 and\n"
             "                           \"ab\" equals (_ \"a\" \"b\")\n"
             "  --deterministic          require core deterministic encoding (RFC 8949\n"
             "                           section 4.2.1): shortest heads and floats, definite\n"
             "                           lengths, map keys in bytewise order\n"
             "  --max-depth N            allow at most N nested containers, tags and\n"
             "                           indefinite strings (default {})\n"
             "  --max-string-length N    longest string, chunk or joined indefinite string\n"
             "                           in bytes (default: no limit)\n"
             "  --max-container-items N  most items in one array or pairs in one map\n"
             "                           (default {}; 18446744073709551615: no limit)\n"
             "  --max-items N            most data items, counting keys, values, tags and\n"
             "                           string chunks, in each top-level item (default {};\n"
             "                           18446744073709551615: no limit)\n"
             "  --max-memory N           check: most bytes the decoder may hold at once:\n"
             "                           nodes, joined strings, stacks, key tables (default:\n"
             "                           32 times the input size plus 1 MiB); diag, to-json,\n"
             "                           canonical: most input bytes held at once, the\n"
             "                           longest string or (canonical) top-level item\n"
             "                           (default 64 MiB; canonical's document: 32 times\n"
             "                           this plus 1 MiB)\n"
             "from-json and from-diag take --strict, --no-duplicate-keys and --max-depth of\n"
             "these.\n"
             "check only:\n"
             "  --sequence               accept a CBOR sequence instead of exactly one item\n"
             "\n"
             "N is a decimal number (0: the default); '--option=N' works too.\n"
             "FILE is the input; '-' or no FILE reads standard input (diag and check\n"
             "without FILE, with standard input a terminal, read the bundled example):\n"
             "  {}\n"
             "\n"
             "Exit status: 0 success, 1 malformed input or a limit exceeded (one line on\n"
             "stderr: cbor-fast: error: NAME (MESSAGE) at byte offset N; for from-json and\n"
             "from-diag N is the offset in the text, but from-diag's duplicate keys, whose\n"
             "MESSAGE says they are at their offset in the CBOR written), 2 usage or I/O\n"
             "error.\n",
             cbor_fast::reader_options{}.max_depth, cbor_fast::default_max_container_items,
             cbor_fast::default_max_items, CBOR_FAST_EXAMPLE_PATH);
}

int usage_error(std::string_view message) {
  fmt::print(stderr, "cbor-fast: error: {} (see 'cbor-fast --help')\n", message);
  return k_exit_usage;
}

int io_error(std::string_view what, std::string_view name, int err) {
  fmt::print(stderr, "cbor-fast: error: {} {}: {}\n", what, name, std::strerror(err));
  return k_exit_usage;
}

/// The one error line of a failed command's input: the status's own message,
/// or `message` where the status alone would not say what is wrong.
int input_error(cbor_fast::status s, size_t offset, std::string_view message = {}) {
  fmt::print(stderr, "cbor-fast: error: {} ({}) at byte offset {}\n", cbor_fast::status_name(s),
             message.empty() ? std::string_view(cbor_fast::status_message(s)) : message, offset);
  return k_exit_malformed;
}

/// Reads all of `f`; false (errno kept) on a read error.
bool read_all(std::FILE* f, std::string& out) {
  char block[1 << 16];
  size_t n;
  while ((n = std::fread(block, 1, sizeof block, f)) > 0) out.append(block, n);
  return std::ferror(f) == 0;
}

enum class command { diag, check, to_json, from_json, from_diag, canonical };

/// Options of both commands. Limits default to the reader's defaults (which
/// are the documents' too), so both commands accept the same inputs by default.
struct cli_args {
  bool strict = false;
  bool no_duplicate_keys = false;
  bool deterministic = false;
  uint32_t max_depth = cbor_fast::reader_options{}.max_depth;
  uint64_t max_string_length = UINT64_MAX;
  uint64_t max_container_items = cbor_fast::reader_options{}.max_container_items;
  uint64_t max_items = cbor_fast::reader_options{}.max_items;
  size_t max_memory = 0;    ///< check: the decoder's budget; streamed: max_buffer; 0: default
  bool sequence = false;    ///< check, from-json
  bool pretty = false;      ///< diag
  bool indicators = false;  ///< diag
  bool keep_tags = false;   ///< to-json
  uint32_t canonical_form = cbor_fast::encode_canonical;  ///< canonical: encode_* flag
  std::string file = "-";
};

/// Reads the input named by args.file into *input; an exit status on failure.
bool load_input(const cli_args& args, std::string& input, int& exit_status) {
  if (args.file == "-") {
    if (!read_all(stdin, input)) {
      exit_status = io_error("cannot read", "standard input", errno);
      return false;
    }
    return true;
  }
  std::FILE* f = std::fopen(args.file.c_str(), "rb");
  if (f == nullptr) {
    exit_status = io_error("cannot open", args.file, errno);
    return false;
  }
  const bool ok = read_all(f, input);
  const int err = errno;
  std::fclose(f);
  if (!ok) {
    exit_status = io_error("cannot read", args.file, err);
    return false;
  }
  return true;
}

/// The reader's options from the limits (--strict: UTF-8 and duplicate keys).
cbor_fast::reader_options reader_options_of(const cli_args& args) {
  cbor_fast::reader_options options;
  options.validate_utf8 = args.strict;
  options.reject_duplicate_keys = args.no_duplicate_keys || args.strict;
  options.deterministic = args.deterministic;
  options.max_depth = args.max_depth;
  options.max_string_length = args.max_string_length;
  options.max_container_items = args.max_container_items;
  options.max_items = args.max_items;
  return options;
}

int stdout_bytes(void*, const uint8_t* data, size_t size) {
  return std::fwrite(data, 1, size, stdout) == size ? 0 : 1;
}

/// An open input: stdin for "-", else the file (closed by the destructor).
struct input_file {
  std::FILE* f = nullptr;
  bool owned = false;
  ~input_file() {
    if (owned && f != nullptr) std::fclose(f);
  }
};

bool open_input(const cli_args& args, input_file& in, int& exit_status) {
  if (args.file == "-") {
    in.f = stdin;
    return true;
  }
  in.f = std::fopen(args.file.c_str(), "rb");
  if (in.f == nullptr) {
    exit_status = io_error("cannot open", args.file, errno);
    return false;
  }
  in.owned = true;
  return true;
}

enum class printer { diag, json, canonical };

/// Standard output for the text of one top-level item at a time: the text is
/// held back until the item is complete, so an item that fails prints
/// nothing, unless its text grows past `hold` bytes; then what is held goes
/// out and the rest follows as it is printed (memory stays bounded for an
/// item of any size, and on failure its text ends where the error is).
class held_stdout {
 public:
  static constexpr size_t hold = size_t{1} << 20;
  static int sink(void* context, const char* data, size_t size) {
    auto* self = static_cast<held_stdout*>(context);
    if (!self->spilled_ && self->held_.size() + size <= hold) {
      self->held_.append(data, size);
      return 0;
    }
    if (!self->spilled_) {
      self->spilled_ = true;
      if (!self->write(self->held_.data(), self->held_.size())) return 1;
      self->held_.clear();
    }
    return self->write(data, size) ? 0 : 1;
  }
  /// The item is complete: its text goes out. False on a write error.
  bool commit() {
    const bool ok = write(held_.data(), held_.size());
    held_.clear();
    spilled_ = false;
    return ok;
  }
  /// The item failed: its text is dropped unless some of it went out already
  /// (then the rest of what was printed follows it).
  bool abandon() { return spilled_ ? commit() : (held_.clear(), true); }

 private:
  static bool write(const char* data, size_t size) {
    return size == 0 || std::fwrite(data, 1, size, stdout) == size;
  }
  std::string held_;
  bool spilled_ = false;
};

/// diag, to-json, canonical: each top-level item of the input, read through a
/// cbor_fast::stream (bounded memory: one read block and the longest string
/// for diag and to-json, the whole item for canonical), printed (or
/// re-encoded) to stdout as it comes.
int run_streamed(const cli_args& args, printer what) {
  input_file in;
  int exit_status = k_exit_ok;
  if (!open_input(args, in, exit_status)) return exit_status;
  const std::string& name = args.file == "-" ? std::string("standard input") : args.file;
  cbor_fast::stream_options so;
  so.reader = reader_options_of(args);
  if (args.max_memory != 0) so.max_buffer = args.max_memory;
  // canonical's document: what check allows an input of the bytes held (it
  // had no budget of its own: a 60 MB item of small integers took 1.55 GB,
  // hostile nesting takes more).
  if (what == printer::canonical)
    so.max_document_memory = cbor_fast::default_max_memory(so.max_buffer);
  // JSON text must be UTF-8: checked as each string is read, before it prints.
  if (what == printer::json) so.reader.validate_utf8 = true;
  so.block_size = size_t{1} << 16;
  cbor_fast::stream input(fileno(in.f), so);
  held_stdout held;
  cbor_fast::text_output out(&held_stdout::sink, &held);
  cbor_fast::diag_options dopts;
  dopts.indent = args.pretty ? 2 : 0;
  dopts.encoding_indicators = args.indicators;
  cbor_fast::to_json_options jopts;
  jopts.keep_tags = args.keep_tags;
  const uint32_t document_flags =
      (so.reader.validate_utf8 ? uint32_t{cbor_fast::decode_validate_utf8} : 0u) |
      (so.reader.reject_duplicate_keys ? uint32_t{cbor_fast::decode_reject_duplicate_keys} : 0u) |
      (so.reader.deterministic ? uint32_t{cbor_fast::decode_deterministic} : 0u);
  cbor_fast::document doc;
  for (;;) {
    cbor_fast::status s;
    size_t error_offset = 0;
    if (what == printer::canonical) {
      // The whole item as a document, then the library's canonical encoder;
      // the stream's limits and strict checks are the command's.
      s = input.next_document(doc, document_flags);
      if (s == cbor_fast::status::ok) {
        cbor_fast::writer w;
        cbor_fast::error_info e;
        s = cbor_fast::encode(doc.root(), w, args.canonical_form, &e);
        if (s == cbor_fast::status::ok) s = w.finish();
        if (s == cbor_fast::status::ok) out.put(reinterpret_cast<const char*>(w.data()), w.size());
        error_offset = e.offset;
      } else {
        error_offset = input.error().offset;
      }
    } else {
      cbor_fast::error_info e;
      s = what == printer::diag ? cbor_fast::diag_write(input, out, dopts)
                                : cbor_fast::json_next(input, out, jopts, &e);
      if (s == cbor_fast::status::ok) out.put('\n');
      error_offset = what == printer::diag ? input.error().offset : e.offset;
    }
    if (s == cbor_fast::status::ok) s = out.flush();
    if (s == cbor_fast::status::end) break;
    if (s != cbor_fast::status::ok) {
      const bool written = out.error() == cbor_fast::status::ok && held.abandon();
      if (!written || std::fflush(stdout) != 0)
        return io_error("cannot write to", "standard output", errno);
      if (s == cbor_fast::status::source_failed) return io_error("cannot read", name, errno);
      // encode_ctap2's one refusal of the input (its other failures are the writer's).
      if (what == printer::canonical && s == cbor_fast::status::invalid_argument &&
          args.canonical_form == cbor_fast::encode_ctap2)
        return input_error(s, error_offset, "CTAP2 canonical CBOR has no tags");
      return input_error(s, error_offset);
    }
    if (!held.commit()) return io_error("cannot write to", "standard output", errno);
  }
  if (std::fflush(stdout) != 0) return io_error("cannot write to", "standard output", errno);
  return k_exit_ok;
}

/// --max-depth for from-json and from-diag, whose parsers take 0 as "no
/// nesting": 0 is the default here, as for every other command.
uint32_t max_depth_of(const cli_args& args) {
  return args.max_depth != 0 ? args.max_depth : cbor_fast::reader_options{}.max_depth;
}

/// from-json, from-diag: the whole text, then CBOR to stdout.
int run_from_text(const cli_args& args, command cmd) {
  std::string input;
  int exit_status = k_exit_ok;
  if (!load_input(args, input, exit_status)) return exit_status;
  std::vector<uint8_t> bytes;
  if (cmd == command::from_json) {
    cbor_fast::from_json_options o;
    o.reject_duplicate_keys = args.strict || args.no_duplicate_keys;
    o.max_depth = max_depth_of(args);
    cbor_fast::writer w(stdout_bytes, nullptr, size_t{1} << 16);
    size_t start = 0;
    for (;;) {
      size_t stop = input.size();
      if (args.sequence) {
        stop = input.find('\n', start);
        if (stop == std::string::npos) stop = input.size();
      }
      const std::string_view text(input.data() + start, stop - start);
      const bool blank = text.find_first_not_of(" \t\r") == std::string_view::npos;
      if (!(args.sequence && blank)) {
        cbor_fast::error_info e;
        const cbor_fast::status s = cbor_fast::json_to_cbor(text, w, o, &e);
        if (s == cbor_fast::status::sink_failed)
          return io_error("cannot write to", "standard output", errno);
        if (s != cbor_fast::status::ok) {
          w.finish();
          std::fflush(stdout);
          return input_error(s, start + e.offset);
        }
      }
      if (stop >= input.size()) break;
      start = stop + 1;
    }
    if (w.finish() != cbor_fast::status::ok || std::fflush(stdout) != 0)
      return io_error("cannot write to", "standard output", errno);
    return k_exit_ok;
  }
  cbor_fast::diag_parse_options o;
  o.sequence = true;
  o.max_depth = max_depth_of(args);
  cbor_fast::error_info e;
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) return k_exit_ok;  // no items
  const cbor_fast::status s = cbor_fast::diag_parse(input, bytes, o, &e);
  if (s != cbor_fast::status::ok) return input_error(s, e.offset);
  if (args.strict || args.no_duplicate_keys) {
    cbor_fast::reader_options ro = reader_options_of(args);
    ro.reject_duplicate_keys = true;
    cbor_fast::reader r(bytes.data(), bytes.size(), ro);
    cbor_fast::status rs;
    while ((rs = r.skip()) == cbor_fast::status::ok) {}
    // The parser has no key check of its own: the offset is the key's in the
    // bytes written, which the message says (the help calls offsets of
    // from-diag text offsets).
    if (rs == cbor_fast::status::duplicate_key)
      return input_error(rs, r.error().offset,
                         "duplicate map key; the offset is in the CBOR written, not the text");
    if (rs != cbor_fast::status::end) return input_error(rs, r.error().offset);
  }
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size())
    return io_error("cannot write to", "standard output", errno);
  if (std::fflush(stdout) != 0) return io_error("cannot write to", "standard output", errno);
  return k_exit_ok;
}

const char* plural(size_t n) { return n == 1 ? "" : "s"; }

int run_check(const cli_args& args) {
  std::string input;
  int exit_status = k_exit_ok;
  if (!load_input(args, input, exit_status)) return exit_status;

  cbor_fast::decode_options options;
  uint32_t flags = cbor_fast::decode_none;
  if (args.strict) flags |= cbor_fast::decode_validate_utf8;
  if (args.no_duplicate_keys || args.strict) flags |= cbor_fast::decode_reject_duplicate_keys;
  if (args.deterministic) flags |= cbor_fast::decode_deterministic;
  options.flags = flags | (args.sequence ? 0u : uint32_t{cbor_fast::decode_exact});
  options.max_depth = args.max_depth;  // 0: the default, as for the reader of diag
  // A document holds at most UINT32_MAX - 1 nodes; UINT32_MAX asks for that hard limit.
  options.max_nodes = args.max_items < UINT32_MAX - 1 ? uint32_t(args.max_items) : UINT32_MAX;
  options.max_string_length = args.max_string_length;
  options.max_container_items = args.max_container_items;
  options.max_memory = args.max_memory;

  cbor_fast::document doc;
  size_t items = 0;
  size_t nodes = 0;
  size_t bytes = 0;
  if (!args.sequence) {
    cbor_fast::error_info e;
    const cbor_fast::status s = cbor_fast::decode(input.data(), input.size(), doc, options, &e);
    // No item at all: the one item check asks for is missing at offset 0.
    if (s == cbor_fast::status::end) return input_error(cbor_fast::status::truncated, 0);
    if (s != cbor_fast::status::ok) return input_error(s, e.offset);
    items = 1;
    nodes = doc.node_count();
    bytes = doc.encoded_size();
  } else {
    cbor_fast::sequence seq(input.data(), input.size(), options);
    for (;;) {
      const cbor_fast::status s = seq.next_document(doc, flags);
      if (s == cbor_fast::status::end) break;
      if (s != cbor_fast::status::ok) return input_error(s, seq.error().offset);
      ++items;
      nodes += doc.node_count();
    }
    bytes = seq.offset();
  }
  fmt::print("ok: {} item{}, {} node{}, {} byte{}\n", items, plural(items), nodes, plural(nodes),
             bytes, plural(bytes));
  if (std::fflush(stdout) != 0) return io_error("cannot write to", "standard output", errno);
  return k_exit_ok;
}

/// A decimal number in [0, max]; false for anything else.
bool parse_number(std::string_view text, uint64_t max, uint64_t& out) {
  const char* end = text.data() + text.size();
  uint64_t v;
  const auto res = std::from_chars(text.data(), end, v);
  if (text.empty() || res.ec != std::errc{} || res.ptr != end || v > max) return false;
  out = v;
  return true;
}

/// A numeric option: its name, the range it takes and where it goes.
struct number_option {
  std::string_view name;
  uint64_t max;  ///< 0 is taken by every option and means its default
};

int main_command(command cmd, const std::vector<std::string_view>& args) {
  cli_args parsed;
  // Without FILE: standard input, as a filter reads it. diag and check read
  // the bundled example instead when standard input is a terminal (a demo;
  // a pipe or a redirected file without '-' once got the example).
  parsed.file = "-";
  if ((cmd == command::diag || cmd == command::check) && isatty(STDIN_FILENO) == 1) {
    parsed.file = CBOR_FAST_EXAMPLE_PATH;
  }
  bool have_file = false;
  bool options_done = false;
  const number_option numbers[] = {
      {"--max-depth", UINT32_MAX},
      {"--max-string-length", UINT64_MAX},
      {"--max-container-items", UINT64_MAX},
      {"--max-items", UINT64_MAX},
      {"--max-memory", SIZE_MAX},
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool is_option = !options_done && a.size() > 1 && a[0] == '-';
    if (!is_option) {
      if (have_file) return usage_error(fmt::format("unexpected argument '{}'", a));
      parsed.file = std::string(a);
      have_file = true;
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      print_usage(stdout);
      return k_exit_ok;
    }
    if (a == "--strict") {
      parsed.strict = true;
      continue;
    }
    if (a == "--no-duplicate-keys") {
      parsed.no_duplicate_keys = true;
      continue;
    }
    const bool from_text = cmd == command::from_json || cmd == command::from_diag;
    if (a == "--deterministic") {
      if (from_text)
        return usage_error("--deterministic is not an option of from-json or from-diag");
      parsed.deterministic = true;
      continue;
    }
    if (a == "--sequence") {
      if (cmd != command::check && cmd != command::from_json)
        return usage_error("--sequence is an option of check and from-json");
      parsed.sequence = true;
      continue;
    }
    if (a == "--pretty" || a == "--indicators") {
      if (cmd != command::diag) return usage_error(fmt::format("{} is an option of diag", a));
      (a == "--pretty" ? parsed.pretty : parsed.indicators) = true;
      continue;
    }
    if (a == "--keep-tags") {
      if (cmd != command::to_json) return usage_error("--keep-tags is an option of to-json");
      parsed.keep_tags = true;
      continue;
    }
    if (a == "--length-first" || a == "--ctap2") {
      if (cmd != command::canonical)
        return usage_error(fmt::format("{} is an option of canonical", a));
      if (parsed.canonical_form != cbor_fast::encode_canonical)
        return usage_error("--length-first and --ctap2 exclude each other");
      parsed.canonical_form =
          a == "--ctap2" ? cbor_fast::encode_ctap2 : cbor_fast::encode_length_first;
      continue;
    }
    const number_option* opt = nullptr;
    for (const number_option& o : numbers) {
      if (a == o.name || (a.size() > o.name.size() && a.substr(0, o.name.size()) == o.name &&
                          a[o.name.size()] == '=')) {
        opt = &o;
        break;
      }
    }
    if (opt == nullptr) return usage_error(fmt::format("unknown option '{}'", a));
    if (from_text && opt->name != "--max-depth")
      return usage_error(fmt::format("{} is not an option of from-json or from-diag", opt->name));
    std::string_view value;
    if (a.size() > opt->name.size()) {
      value = a.substr(opt->name.size() + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return usage_error(fmt::format("{} needs a value", opt->name));
    }
    uint64_t n;
    if (!parse_number(value, opt->max, n))
      return usage_error(
          fmt::format("invalid {} value '{}' (0 to {})", opt->name, value, opt->max));
    if (opt->name == "--max-depth") {
      parsed.max_depth = uint32_t(n);
    } else if (opt->name == "--max-string-length") {
      parsed.max_string_length = n;
    } else if (opt->name == "--max-container-items") {
      parsed.max_container_items = n;
    } else if (opt->name == "--max-items") {
      parsed.max_items = n;
    } else {
      parsed.max_memory = size_t(n);
    }
  }
  switch (cmd) {
    case command::diag: return run_streamed(parsed, printer::diag);
    case command::to_json: return run_streamed(parsed, printer::json);
    case command::canonical: return run_streamed(parsed, printer::canonical);
    case command::from_json:
    case command::from_diag: return run_from_text(parsed, cmd);
    case command::check: break;
  }
  return run_check(parsed);
}

int run_main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  const std::string_view name = args[0];
  if (name == "--help" || name == "-h") {
    print_usage(stdout);
    return k_exit_ok;
  }
  if (name == "--version") {
    fmt::print("cbor-fast {}\n", CBOR_FAST_VERSION_STRING);
    return k_exit_ok;
  }
  const std::vector<std::string_view> rest(args.begin() + 1, args.end());
  if (name == "diag") return main_command(command::diag, rest);
  if (name == "check") return main_command(command::check, rest);
  if (name == "to-json") return main_command(command::to_json, rest);
  if (name == "from-json") return main_command(command::from_json, rest);
  if (name == "from-diag") return main_command(command::from_diag, rest);
  if (name == "canonical") return main_command(command::canonical, rest);
  return usage_error(fmt::format("unknown command '{}'", name));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const std::exception& e) {
    // Reading a huge input can run out of memory; say so instead of aborting.
    std::fprintf(stderr, "cbor-fast: error: %s\n", e.what());
    return k_exit_usage;
  }
}
