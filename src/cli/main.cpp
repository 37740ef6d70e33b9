// cbor-fast: command-line front end of libcbor_fast.
//
//   cbor-fast diag [--strict] [--max-depth N] [FILE|-]
//
// prints each top-level item of a CBOR sequence (RFC 8742) as one line of
// diagnostic notation (RFC 8949 section 8). Exit status: 0 success, 1 the
// input is malformed (one error line on stderr), 2 usage or I/O error.
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

#include "cbor_fast/diag.hpp"
#include "cbor_fast/reader.hpp"
#include "cbor_fast/version.hpp"

#ifndef CBOR_FAST_EXAMPLE_PATH
#error "CBOR_FAST_EXAMPLE_PATH must name the bundled example.cbor"
#endif

namespace {

constexpr int k_exit_ok = 0;
constexpr int k_exit_malformed = 1;
constexpr int k_exit_usage = 2;

/// Output is collected and written in blocks of about this size.
constexpr size_t k_flush_size = size_t{1} << 16;

void print_usage(std::FILE* to) {
  fmt::print(to,
             "Usage: cbor-fast diag [--strict] [--max-depth N] [FILE|-]\n"
             "       cbor-fast --help | --version\n"
             "\n"
             "diag   Print each top-level item of a CBOR sequence (RFC 8742) as one\n"
             "       line of diagnostic notation (RFC 8949 section 8).\n"
             "\n"
             "  --strict       reject text strings that are not valid UTF-8\n"
             "  --max-depth N  allow at most N nested containers and tags (default {})\n"
             "  FILE           the input; '-' reads standard input; without FILE the\n"
             "                 bundled example is read:\n"
             "                 {}\n"
             "\n"
             "Exit status: 0 success, 1 malformed input, 2 usage or I/O error.\n",
             cbor_fast::reader_options{}.max_depth, CBOR_FAST_EXAMPLE_PATH);
}

int usage_error(std::string_view message) {
  fmt::print(stderr, "cbor-fast: error: {} (see 'cbor-fast --help')\n", message);
  return k_exit_usage;
}

int io_error(std::string_view what, std::string_view name, int err) {
  fmt::print(stderr, "cbor-fast: error: {} {}: {}\n", what, name, std::strerror(err));
  return k_exit_usage;
}

/// Reads all of `f`; false (errno kept) on a read error.
bool read_all(std::FILE* f, std::string& out) {
  char block[1 << 16];
  size_t n;
  while ((n = std::fread(block, 1, sizeof block, f)) > 0) out.append(block, n);
  return std::ferror(f) == 0;
}

bool write_out(const std::string& text) {
  return text.empty() || std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
}

struct diag_args {
  bool strict = false;
  uint32_t max_depth = cbor_fast::reader_options{}.max_depth;
  std::string file = CBOR_FAST_EXAMPLE_PATH;
};

int run_diag(const diag_args& args) {
  std::string input;
  if (args.file == "-") {
    if (!read_all(stdin, input)) return io_error("cannot read", "standard input", errno);
  } else {
    std::FILE* f = std::fopen(args.file.c_str(), "rb");
    if (f == nullptr) return io_error("cannot open", args.file, errno);
    const bool ok = read_all(f, input);
    const int err = errno;
    std::fclose(f);
    if (!ok) return io_error("cannot read", args.file, err);
  }

  cbor_fast::reader_options options;
  options.validate_utf8 = args.strict;
  options.max_depth = args.max_depth;
  cbor_fast::reader r(std::string_view{input}, options);

  std::string out;
  cbor_fast::status s;
  bool write_ok = true;
  for (;;) {
    const size_t line_start = out.size();
    s = cbor_fast::diag_next(r, out);
    if (s != cbor_fast::status::ok) {
      // Only whole items reach stdout: drop the partial text of a failed one.
      out.resize(line_start);
      break;
    }
    out += '\n';
    if (out.size() >= k_flush_size) {
      write_ok = write_out(out);
      out.clear();
      if (!write_ok) break;
    }
  }
  write_ok = write_ok && write_out(out) && std::fflush(stdout) == 0;
  if (!write_ok) return io_error("cannot write to", "standard output", errno);

  if (s == cbor_fast::status::end) return k_exit_ok;
  // diag_next can also fail on its own (out of memory); then the reader has
  // no error recorded and its position is the best offset there is.
  const cbor_fast::error_info& e = r.error();
  const size_t offset = e.code == s ? e.offset : r.offset();
  fmt::print(stderr, "cbor-fast: error: {} ({}) at byte offset {}\n", cbor_fast::status_name(s),
             cbor_fast::status_message(s), offset);
  return k_exit_malformed;
}

bool parse_depth(std::string_view text, uint32_t& out) {
  const char* end = text.data() + text.size();
  const auto res = std::from_chars(text.data(), end, out);
  return !text.empty() && res.ec == std::errc{} && res.ptr == end;
}

int main_diag(const std::vector<std::string_view>& args) {
  diag_args parsed;
  bool have_file = false;
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool is_option = !options_done && a.size() > 1 && a[0] == '-';
    if (!is_option) {
      if (have_file) return usage_error(fmt::format("unexpected argument '{}'", a));
      parsed.file = std::string(a);
      have_file = true;
    } else if (a == "--") {
      options_done = true;
    } else if (a == "--help" || a == "-h") {
      print_usage(stdout);
      return k_exit_ok;
    } else if (a == "--strict") {
      parsed.strict = true;
    } else if (a == "--max-depth" || a.substr(0, 12) == "--max-depth=") {
      std::string_view value;
      if (a.size() > 11) {
        value = a.substr(12);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return usage_error("--max-depth needs a value");
      }
      if (!parse_depth(value, parsed.max_depth))
        return usage_error(fmt::format("invalid --max-depth value '{}' (0 to 4294967295)", value));
    } else {
      return usage_error(fmt::format("unknown option '{}'", a));
    }
  }
  return run_diag(parsed);
}

int run_main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  const std::string_view command = args[0];
  if (command == "--help" || command == "-h") {
    print_usage(stdout);
    return k_exit_ok;
  }
  if (command == "--version") {
    fmt::print("cbor-fast {}\n", CBOR_FAST_VERSION_STRING);
    return k_exit_ok;
  }
  if (command == "diag") return main_diag({args.begin() + 1, args.end()});
  return usage_error(fmt::format("unknown command '{}'", command));
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
