// The C++ API of an installed libcbor_fast, linked statically (cbor_fast::cxx).
#include <cbor_fast.h>
#include <cbor_fast/cbor_fast.hpp>

#include <cstdio>
#include <cstring>

int main() {
  cbor_fast::writer w;
  w.begin_array(2);
  w.write_text("ok");
  w.write_float(1.5);
  w.end();
  if (w.finish() != cbor_fast::status::ok) return 1;
  static const uint8_t expected[] = {0x82, 0x62, 'o', 'k', 0xf9, 0x3e, 0x00};
  if (w.size() != sizeof expected || std::memcmp(w.data(), expected, w.size()) != 0) return 2;

  cbor_fast::reader r(w.data(), w.size());
  cbor_fast::item it;
  int items = 0;
  while (r.next(it) == cbor_fast::status::ok) ++items;
  if (items != 4 || r.finish() != cbor_fast::status::ok) return 3;
  // The static library carries the C API as well.
  if (cbor_fast_version() != CBOR_FAST_VERSION) return 4;
  std::printf("cxx_consumer: %s ok\n", CBOR_FAST_VERSION_STRING);
  return 0;
}
