/*
 * Hostile-input runner for the C API document decoder: decodes FILE with
 * cbor_decode() (exactly one item), or with --sequence every item with
 * cbor_seq_next_doc(), and prints one line, "<status_name> <offset>": the
 * error's offset, or "ok <offset>" with the offset just past the last item.
 *
 *   cbor_fast_hostile_capi [LIMITS] [--max-memory N] [--copy-strings] [--sequence] FILE
 *
 * LIMITS use the spelling of `cbor-fast check`. Written in C99 and linked to
 * the plain (uninstrumented) libcbor_fast.so so that it can run under
 * `ulimit -v` (see README.md).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"

static int usage(const char* message) {
  fprintf(stderr, "cbor_fast_hostile_capi: %s\n", message);
  return 2;
}

static int parse_u64(const char* text, uint64_t* out) {
  char* end = NULL;
  unsigned long long v;
  if (text == NULL || *text < '0' || *text > '9') return 0;
  errno = 0;
  v = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return 0;
  *out = (uint64_t)v;
  return 1;
}

/* Reads the whole file into a malloc()ed buffer (NULL on failure). */
static uint8_t* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  uint8_t* data;
  size_t used = 0, capacity = (size_t)1 << 16, n;
  int failed = 0;
  if (f == NULL) return NULL;
  data = (uint8_t*)malloc(capacity);
  if (data == NULL) {
    fclose(f);
    return NULL;
  }
  for (;;) {
    if (used == capacity) {
      uint8_t* p = (uint8_t*)realloc(data, capacity * 2);
      if (p == NULL) {
        failed = 1;
        break;
      }
      data = p;
      capacity *= 2;
    }
    n = fread(data + used, 1, capacity - used, f);
    if (n == 0) break;
    used += n;
  }
  if (ferror(f)) failed = 1;
  fclose(f);
  if (failed) {
    free(data);
    return NULL;
  }
  *size = used;
  return data;
}

int main(int argc, char** argv) {
  cbor_fast_decode_options options = CBOR_FAST_DECODE_OPTIONS_INIT;
  cbor_fast_error error = CBOR_FAST_ERROR_INIT;
  uint32_t flags = CBOR_FAST_DECODE_NONE;
  int sequence = 0;
  const char* file = NULL;
  uint8_t* data;
  size_t size = 0;
  cbor_fast_status s;
  size_t offset = 0;
  int i;

  for (i = 1; i < argc; ++i) {
    const char* a = argv[i];
    uint64_t n = 0;
    if (strcmp(a, "--max-depth") == 0 || strcmp(a, "--max-string-length") == 0 ||
        strcmp(a, "--max-container-items") == 0 || strcmp(a, "--max-items") == 0 ||
        strcmp(a, "--max-memory") == 0) {
      if (i + 1 >= argc || !parse_u64(argv[i + 1], &n)) return usage("bad or missing number");
      ++i;
      /* 0 means "default" in the C struct: the table never asks for 0. */
      if (n == 0) return usage("0 is the C API's default, not a limit");
      if (strcmp(a, "--max-depth") == 0) {
        if (n > UINT32_MAX) return usage("--max-depth out of range");
        options.max_depth = (uint32_t)n;
      } else if (strcmp(a, "--max-string-length") == 0) {
        options.max_string_length = n;
      } else if (strcmp(a, "--max-container-items") == 0) {
        options.max_container_items = n;
      } else if (strcmp(a, "--max-items") == 0) {
        options.max_items = n;
      } else {
        options.max_memory = n;
      }
    } else if (strcmp(a, "--strict") == 0) {
      flags |= CBOR_FAST_DECODE_VALIDATE_UTF8;
    } else if (strcmp(a, "--no-duplicate-keys") == 0) {
      flags |= CBOR_FAST_DECODE_REJECT_DUPLICATE_KEYS;
    } else if (strcmp(a, "--deterministic") == 0) {
      flags |= CBOR_FAST_DECODE_DETERMINISTIC;
    } else if (strcmp(a, "--copy-strings") == 0) {
      flags |= CBOR_FAST_DECODE_COPY_STRINGS;
    } else if (strcmp(a, "--sequence") == 0) {
      sequence = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage("unknown option");
    } else {
      file = a;
    }
  }
  if (file == NULL) return usage("need FILE");
  data = read_file(file, &size);
  if (data == NULL) return usage("cannot read the input");

  if (!sequence) {
    cbor_doc* doc = NULL;
    s = cbor_decode(data, size, flags | CBOR_FAST_DECODE_EXACT, &options, &doc, &error);
    if (s == CBOR_FAST_OK)
      offset = cbor_doc_encoded_size(doc);
    else
      offset = error.offset;
    cbor_doc_free(doc);
  } else {
    cbor_seq* seq = NULL;
    s = cbor_seq_new(data, size, &options, &seq);
    if (s != CBOR_FAST_OK) {
      free(data);
      return usage("cbor_seq_new failed");
    }
    for (;;) {
      cbor_doc* doc = NULL;
      s = cbor_seq_next_doc(seq, flags, &doc);
      if (s != CBOR_FAST_OK) break;
      /* The offset just past this item in the whole input. */
      offset = cbor_doc_encoded_size(doc);
      cbor_doc_free(doc);
    }
    if (s == CBOR_FAST_END) {
      s = CBOR_FAST_OK;
    } else {
      cbor_seq_error(seq, &error);
      offset = error.offset;
    }
    cbor_seq_free(seq);
  }
  printf("%s %lu\n", cbor_status_name(s), (unsigned long)offset);
  free(data);
  return 0;
}
