/*
 * A tiny test harness for the C API tests (C99; no dependency but libc and
 * cbor_fast.h). Each failed check prints file:line, the expression and both
 * values; main() ends with `return check_summary();`, which prints
 * "N passed, M failed" and returns non-zero when anything failed.
 *
 *   static void test_something(void) { CHECK_STATUS(cbor_writer_uint(w, 1), CBOR_FAST_OK); }
 *   int main(void) { RUN_TEST(test_something); return check_summary(); }
 */
#ifndef CBOR_FAST_TESTS_CHECK_H
#define CBOR_FAST_TESTS_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"

/* One translation unit per test program: plain statics are enough. */
static int check_passed_ = 0;
static int check_failed_ = 0;
static const char* check_current_ = "";

/* Counts one check; prints the location (and which test) when it failed. */
static inline int check_record_(int ok, const char* file, int line, const char* expr) {
  if (ok) {
    ++check_passed_;
    return 1;
  }
  ++check_failed_;
  fprintf(stderr, "%s:%d: FAILED in %s: %s\n", file, line, check_current_, expr);
  return 0;
}

static inline void check_hex_(const char* label, const void* data, size_t size) {
  const unsigned char* p = (const unsigned char*)data;
  size_t i;
  fprintf(stderr, "    %s (%lu bytes):", label, (unsigned long)size);
  if (data == NULL) {
    fprintf(stderr, " NULL\n");
    return;
  }
  for (i = 0; i < size && i < 64; ++i) fprintf(stderr, " %02x", p[i]);
  fprintf(stderr, "%s\n", size > 64 ? " ..." : "");
}

/** Any condition. */
#define CHECK(cond) ((void)check_record_((cond) ? 1 : 0, __FILE__, __LINE__, #cond))

/** Signed integers (up to 64 bits). */
#define CHECK_EQ_INT(actual, expected)                                                      \
  do {                                                                                      \
    long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);             \
    if (!check_record_(check_a_ == check_e_, __FILE__, __LINE__, #actual " == " #expected)) \
      fprintf(stderr, "    got %lld, expected %lld\n", check_a_, check_e_);                 \
  } while (0)

/** Unsigned integers, sizes and offsets (up to 64 bits). */
#define CHECK_EQ_UINT(actual, expected)                                                     \
  do {                                                                                      \
    unsigned long long check_a_ = (unsigned long long)(actual);                             \
    unsigned long long check_e_ = (unsigned long long)(expected);                           \
    if (!check_record_(check_a_ == check_e_, __FILE__, __LINE__, #actual " == " #expected)) \
      fprintf(stderr, "    got %llu, expected %llu\n", check_a_, check_e_);                 \
  } while (0)

/** A cbor_fast_status, printed by name. */
#define CHECK_STATUS(actual, expected)                                                      \
  do {                                                                                      \
    cbor_fast_status check_a_ = (actual), check_e_ = (expected);                            \
    if (!check_record_(check_a_ == check_e_, __FILE__, __LINE__, #actual " == " #expected)) \
      fprintf(stderr, "    got %s (%d), expected %s (%d)\n", cbor_status_name(check_a_),    \
              (int)check_a_, cbor_status_name(check_e_), (int)check_e_);                    \
  } while (0)

/** NUL-terminated strings (NULL compares equal only to NULL). */
#define CHECK_EQ_STR(actual, expected)                                                        \
  do {                                                                                        \
    const char* check_a_ = (actual);                                                          \
    const char* check_e_ = (expected);                                                        \
    int check_ok_ = (check_a_ == NULL || check_e_ == NULL) ? check_a_ == check_e_             \
                                                           : strcmp(check_a_, check_e_) == 0; \
    if (!check_record_(check_ok_, __FILE__, __LINE__, #actual " == " #expected))              \
      fprintf(stderr, "    got \"%s\", expected \"%s\"\n", check_a_ ? check_a_ : "(null)",    \
              check_e_ ? check_e_ : "(null)");                                                \
  } while (0)

/** Bytes: data[0, size) equals the string literal or array `expected` of expected_size bytes. */
#define CHECK_EQ_BYTES(data, size, expected, expected_size)                                   \
  do {                                                                                        \
    const void* check_d_ = (data);                                                            \
    size_t check_n_ = (size), check_en_ = (expected_size);                                    \
    int check_ok_ =                                                                           \
        check_n_ == check_en_ &&                                                              \
        (check_n_ == 0 || (check_d_ != NULL && memcmp(check_d_, (expected), check_n_) == 0)); \
    if (!check_record_(check_ok_, __FILE__, __LINE__, #data " == " #expected)) {              \
      check_hex_("got", check_d_, check_n_);                                                  \
      check_hex_("expected", (expected), check_en_);                                          \
    }                                                                                         \
  } while (0)

/** Runs one test function, naming it in failure messages. */
#define RUN_TEST(fn)      \
  do {                    \
    check_current_ = #fn; \
    fn();                 \
    check_current_ = "";  \
  } while (0)

/* Hex digits (lower case) to bytes, anything else ignored: returns the byte count. */
static inline size_t unhex(const char* h, uint8_t* out, size_t cap) {
  size_t n = 0;
  int high = -1;
  for (; *h != '\0'; ++h) {
    int v;
    if (*h >= '0' && *h <= '9') {
      v = *h - '0';
    } else if (*h >= 'a' && *h <= 'f') {
      v = *h - 'a' + 10;
    } else {
      continue;
    }
    if (high < 0) {
      high = v;
    } else if (n < cap) {
      out[n++] = (uint8_t)(high * 16 + v);
      high = -1;
    }
  }
  return n;
}

/* A whole file in a malloc'ed buffer (the caller frees it), its length in
 * *size; NULL (and *size 0) if it cannot be read or is empty. */
static inline uint8_t* read_whole(const char* path, size_t* size) {
  FILE* file = fopen(path, "rb");
  uint8_t* data = NULL;
  long n;
  *size = 0;
  if (file == NULL) return NULL;
  if (fseek(file, 0, SEEK_END) == 0 && (n = ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0) {
    data = (uint8_t*)malloc((size_t)n);
    if (data != NULL && fread(data, 1, (size_t)n, file) == (size_t)n) {
      *size = (size_t)n;
    } else {
      free(data);
      data = NULL;
    }
  }
  fclose(file);
  return data;
}

/** Prints the summary line; the process exit code (0 only if nothing failed). */
static inline int check_summary(void) {
  printf("%d passed, %d failed\n", check_passed_, check_failed_);
  return check_failed_ == 0 && check_passed_ > 0 ? 0 : 1;
}

/* A cbor_fast_source_fn over memory that hands out at most `piece` bytes per
 * call, so a stream really reads in parts; fail_at_end: fail (return 1)
 * once the data is used up instead of reporting the end. */
typedef struct piece_source {
  const uint8_t* data;
  size_t size;
  size_t at;
  size_t piece;
  int fail_at_end;
} piece_source;

static inline int read_pieces(void* context, uint8_t* buffer, size_t capacity, size_t* got) {
  piece_source* s = (piece_source*)context;
  size_t n = s->size - s->at;
  if (n == 0 && s->fail_at_end) return 1;
  if (n > s->piece) n = s->piece;
  if (n > capacity) n = capacity;
  memcpy(buffer, s->data + s->at, n);
  s->at += n;
  *got = n;
  return 0;
}

#endif /* CBOR_FAST_TESTS_CHECK_H */
