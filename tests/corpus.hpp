// The benchmark corpus (../shared/corpus: twitter, citm_catalog and canada as
// CBOR and as their JSON originals) for the C++ tests: the one file loader.
// The build defines CBOR_FAST_CORPUS_DIR; under CI=true a missing corpus is a
// configuration error, so a test that finds a file missing fails.
#ifndef CBOR_FAST_TESTS_CORPUS_HPP
#define CBOR_FAST_TESTS_CORPUS_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#ifndef CBOR_FAST_CORPUS_DIR
#error "CBOR_FAST_CORPUS_DIR must be defined by the build"
#endif

namespace cbor_fast_test {

/// The three corpus documents, smallest first.
inline const char* const k_corpus_names[] = {"twitter", "citm_catalog", "canada"};

/// Where corpus file `name` + `extension` is ("canada", ".json").
inline std::string corpus_path(const std::string& name, const char* extension = ".cbor") {
  return std::string(CBOR_FAST_CORPUS_DIR) + "/" + name + extension;
}

/// The whole of the file at `path` into `out`; false when it cannot be opened
/// or read (out then holds what was read).
inline bool read_file(const std::string& path, std::vector<uint8_t>& out) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out.clear();
  uint8_t buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

/// Corpus file `name` + `extension` into `out`: read_file(corpus_path(...)).
inline bool read_corpus(const std::string& name, std::vector<uint8_t>& out,
                        const char* extension = ".cbor") {
  return read_file(corpus_path(name, extension), out);
}

}  // namespace cbor_fast_test

#endif  // CBOR_FAST_TESTS_CORPUS_HPP
