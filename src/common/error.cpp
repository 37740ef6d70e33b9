// Status names and messages, from the one table (cbor_fast/status.def).
#include "cbor_fast/error.hpp"

#include <ostream>

namespace cbor_fast {
inline namespace v1 {

namespace {
struct status_text {
  status code;
  const char* name;
  const char* message;
};

constexpr status_text k_texts[] = {
#define CBOR_FAST_STATUS(name, code, c_name, message) {status::name, #name, message},
#include "cbor_fast/status.def"
#undef CBOR_FAST_STATUS
};

const status_text* find(status s) noexcept {
  for (const auto& t : k_texts)
    if (t.code == s) return &t;
  return nullptr;
}
}  // namespace

const char* status_message(status s) noexcept {
  const status_text* t = find(s);
  return t ? t->message : "unknown status";
}

const char* status_name(status s) noexcept {
  const status_text* t = find(s);
  return t ? t->name : "unknown";
}

std::ostream& operator<<(std::ostream& os, status s) { return os << status_name(s); }

}  // namespace v1
}  // namespace cbor_fast
