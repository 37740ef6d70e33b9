// Hostile-input runner for the C++ pull reader: reads FILE as a CBOR sequence
// with cbor_fast::reader twice, once pulling every item with next() and once
// passing over each top-level item with skip(), and prints one line for each,
// "next <status_name> <offset>" and "skip <status_name> <offset>": the sticky
// error and its offset, or "ok <offset>" with the offset reached after the
// last item (finish() must agree).
//
//   cbor_fast_hostile_reader [LIMITS] FILE
//
// LIMITS use the spelling of `cbor-fast diag` (--max-depth N, --strict, ...).
// Built without sanitizers against the plain static library so that it can
// run under `ulimit -v` (see README.md).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cbor_fast/reader.hpp"

namespace {

int usage(const char* message) {
  std::fprintf(stderr, "cbor_fast_hostile_reader: %s\n", message);
  return 2;
}

bool parse_u64(const char* text, uint64_t& out) {
  if (text == nullptr || *text < '0' || *text > '9') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  out = v;
  return true;
}

bool read_file(const char* path, std::vector<uint8_t>& out) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  uint8_t block[1 << 16];
  size_t n;
  while ((n = std::fread(block, 1, sizeof block, f)) > 0) out.insert(out.end(), block, block + n);
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

/// Reads the whole input with next() or skip() and prints what it came to.
void run(const std::vector<uint8_t>& input, const cbor_fast::reader_options& options,
         const std::string& mode) {
  cbor_fast::reader r(input.data(), input.size(), options);
  cbor_fast::status s;
  if (mode == "next") {
    cbor_fast::item it;
    while ((s = r.next(it)) == cbor_fast::status::ok) {}
  } else {
    while ((s = r.skip()) == cbor_fast::status::ok) {}
  }
  if (s == cbor_fast::status::end) s = r.finish();
  const cbor_fast::error_info& e = r.error();
  // ok, or a status that is not the sticky error (finish() finding trailing
  // bytes, say): the reader's position.
  const size_t offset = s != cbor_fast::status::ok && e.code == s ? e.offset : r.offset();
  std::printf("%s %s %zu\n", mode.c_str(), cbor_fast::status_name(s), offset);
}

}  // namespace

int main(int argc, char** argv) {
  cbor_fast::reader_options options;
  const char* file = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    uint64_t n = 0;
    const bool numeric = a == "--max-depth" || a == "--max-string-length" ||
                         a == "--max-container-items" || a == "--max-items";
    if (numeric) {
      if (i + 1 >= argc || !parse_u64(argv[++i], n)) return usage("bad or missing number");
      if (a == "--max-depth") {
        if (n > UINT32_MAX) return usage("--max-depth out of range");
        options.max_depth = uint32_t(n);
      } else if (a == "--max-string-length") {
        options.max_string_length = n;
      } else if (a == "--max-container-items") {
        options.max_container_items = n;
      } else {
        options.max_items = n;
      }
    } else if (a == "--strict") {
      options.validate_utf8 = true;
    } else if (a == "--no-duplicate-keys") {
      options.reject_duplicate_keys = true;
    } else if (a == "--deterministic") {
      options.deterministic = true;
    } else if (a == "--sequence") {
      // The reader always reads a sequence.
    } else if (a.size() > 1 && a[0] == '-') {
      return usage("unknown option");
    } else {
      file = argv[i];
    }
  }
  if (file == nullptr) return usage("need FILE");

  std::vector<uint8_t> input;
  if (!read_file(file, input)) return usage("cannot read the input");
  run(input, options, "next");
  run(input, options, "skip");
  return 0;
}
