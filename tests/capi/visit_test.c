/*
 * cbor_reader_visit(): every callback gets exactly the item cbor_reader_next()
 * gives at that point (a second reader over the same input is stepped inside
 * each callback and compared), with the same final status, error offset and
 * reader offset: for a sample of every kind, RFC 8949 Appendix A, the corpus,
 * every malformed vector, 100k levels of nesting and input fed in parts. Then
 * stopping and resuming, NULL arguments and every struct_size rule.
 */
#include <stdlib.h>
#include <string.h>

#include "cbor_fast.h"
#include "check.h"
#include "shared_vectors.h"

/* [1, "ab", {"k": -2.5}, h'00ff', (_ "x" "y"), 1(3), [_ null true]] then
 * 0, 24, -2^64, simple(16), undefined, false, 1.5 (half), 100000.0 (single),
 * (_ h'01'), {_ 1: 2}, [] */
static const uint8_t k_sample[] = {
    0x87, 0x01, 0x62, 0x61, 0x62, 0xa1, 0x61, 0x6b, 0xf9, 0xc1, 0x00, 0x42, 0x00, 0xff, 0x7f,
    0x61, 0x78, 0x61, 0x79, 0xff, 0xc1, 0x03, 0x9f, 0xf6, 0xf5, 0xff, 0x00, 0x18, 0x18, 0x3b,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0, 0xf7, 0xf4, 0xf9, 0x3e, 0x00, 0xfa,
    0x47, 0xc3, 0x50, 0x00, 0x5f, 0x41, 0x01, 0xff, 0xbf, 0x01, 0x02, 0xff, 0x80};
/* Items cbor_reader_next() yields from k_sample (END items included). */
#define K_SAMPLE_ITEMS 36u

/* The state every callback shares: a reference reader over the same input. */
typedef struct follow {
  cbor_reader* ref;
  size_t seen;       /* callbacks so far */
  size_t mismatches; /* callbacks whose item was not the reference's */
  size_t stop_at;    /* return nonzero from the callback that makes seen == stop_at */
  size_t fallbacks;  /* on_item calls */
} follow;

/* The reference's next item into *it; counts a mismatch when there is none. */
static int take(follow* f, cbor_fast_item* it) {
  cbor_fast_status s;
  it->struct_size = sizeof *it;
  s = cbor_reader_next(f->ref, it);
  ++f->seen;
  if (s != CBOR_FAST_OK) {
    if (f->mismatches++ == 0)
      fprintf(stderr, "    callback %lu: the reference returned %s\n", (unsigned long)f->seen,
              cbor_status_name(s));
    return 0;
  }
  return 1;
}

/* Counts a mismatch when ok is 0; the callback's return value. */
static int judge(follow* f, int ok, const cbor_fast_item* it) {
  if (!ok && f->mismatches++ == 0)
    fprintf(stderr, "    callback %lu differs from the reference item at offset %lu (type %d)\n",
            (unsigned long)f->seen, (unsigned long)it->offset, (int)it->type);
  return f->seen == f->stop_at;
}

static int on_item(void* c, const cbor_fast_item* got) {
  follow* f = (follow*)c;
  cbor_fast_item it;
  ++f->fallbacks;
  if (!take(f, &it)) return 0;
  return judge(f,
               got->struct_size == sizeof *got && got->type == it.type && got->flags == it.flags &&
                   got->depth == it.depth && got->offset == it.offset &&
                   got->head_size == it.head_size && got->float_width == it.float_width &&
                   got->value == it.value &&
                   memcmp(&got->float_value, &it.float_value, sizeof it.float_value) == 0 &&
                   got->data == it.data && got->size == it.size,
               &it);
}
static int on_uint(void* c, uint64_t v) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_UINT && it.value == v, &it);
}
static int on_negative(void* c, uint64_t n) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_NEGATIVE && it.value == n, &it);
}
static int string_like(void* c, cbor_fast_type type, const uint8_t* p, size_t n, uint32_t flags) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c,
               it.type == type && it.data == p && it.size == n && it.flags == flags &&
                   ((flags & CBOR_FAST_ITEM_INDEFINITE) != 0) == (p == NULL),
               &it);
}
static int on_bytes(void* c, const uint8_t* p, size_t n, uint32_t flags) {
  return string_like(c, CBOR_FAST_TYPE_BYTES, p, n, flags);
}
static int on_text(void* c, const uint8_t* p, size_t n, uint32_t flags) {
  return string_like(c, CBOR_FAST_TYPE_TEXT, p, n, flags);
}
static int on_array(void* c, uint64_t n, uint32_t flags) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_ARRAY && it.value == n && it.flags == flags,
               &it);
}
static int on_map(void* c, uint64_t n, uint32_t flags) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_MAP && it.value == n && it.flags == flags,
               &it);
}
static int on_end(void* c, uint32_t flags) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_END && it.flags == flags, &it);
}
static int on_tag(void* c, uint64_t t) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_TAG && it.value == t, &it);
}
static int on_simple(void* c, uint32_t v) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_SIMPLE && it.value == v, &it);
}
static int on_bool(void* c, int v) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge(
      (follow*)c,
      it.type == CBOR_FAST_TYPE_BOOL && (v == 0 || v == 1) && it.value == 20u + (unsigned)v, &it);
}
static int on_null(void* c) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_NULL, &it);
}
static int on_undefined(void* c) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c, it.type == CBOR_FAST_TYPE_UNDEFINED, &it);
}
static int on_float(void* c, double v, uint64_t bits, uint32_t width) {
  cbor_fast_item it;
  if (!take((follow*)c, &it)) return 0;
  return judge((follow*)c,
               it.type == CBOR_FAST_TYPE_FLOAT && memcmp(&v, &it.float_value, sizeof v) == 0 &&
                   it.value == bits && it.float_width == width,
               &it);
}
/* For callbacks past a shorter struct_size: never to be called. */
static int never(void* c) {
  follow* f = (follow*)c;
  if (f->mismatches++ == 0) fprintf(stderr, "    a callback past struct_size was called\n");
  return 0;
}

/* Every callback set (on_item too, which then never runs). */
static cbor_fast_visit_callbacks all_callbacks(void) {
  cbor_fast_visit_callbacks cb = CBOR_FAST_VISIT_CALLBACKS_INIT;
  cb.on_item = on_item;
  cb.on_uint = on_uint;
  cb.on_negative = on_negative;
  cb.on_bytes = on_bytes;
  cb.on_text = on_text;
  cb.on_array = on_array;
  cb.on_map = on_map;
  cb.on_end = on_end;
  cb.on_tag = on_tag;
  cb.on_simple = on_simple;
  cb.on_bool = on_bool;
  cb.on_null = on_null;
  cb.on_undefined = on_undefined;
  cb.on_float = on_float;
  return cb;
}

/* Only the fallback: every item as a full cbor_fast_item (offsets, depths). */
static cbor_fast_visit_callbacks item_callbacks(void) {
  cbor_fast_visit_callbacks cb = CBOR_FAST_VISIT_CALLBACKS_INIT;
  cb.on_item = on_item;
  return cb;
}

/* Configures both readers alike. */
static void set_both(cbor_reader* a, cbor_reader* b, cbor_fast_option o, uint64_t v) {
  CHECK_STATUS(cbor_reader_set(a, o, v), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_set(b, o, v), CBOR_FAST_OK);
}

/* After the visit's last status: the reference's next call gives the same,
 * both readers stand at the same offset with the same error, and a second
 * visit repeats the status without a callback. */
static void compare_ends(cbor_reader* r, follow* f, const cbor_fast_visit_callbacks* cb,
                         cbor_fast_status got) {
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  cbor_fast_error e1 = CBOR_FAST_ERROR_INIT, e2 = CBOR_FAST_ERROR_INIT;
  const size_t seen = f->seen;
  CHECK_STATUS(cbor_reader_next(f->ref, &it), got);
  CHECK_EQ_UINT(cbor_reader_offset(r), cbor_reader_offset(f->ref));
  CHECK_EQ_UINT(cbor_reader_depth(r), cbor_reader_depth(f->ref));
  CHECK_STATUS(cbor_reader_error(r, &e1), cbor_reader_error(f->ref, &e2));
  CHECK_EQ_UINT(e1.offset, e2.offset);
  CHECK_EQ_UINT(e1.depth, e2.depth);
  CHECK_STATUS(cbor_reader_visit(r, cb, f), got);
  CHECK_EQ_UINT(f->seen, seen);
}

/* Visits in[0, size) to its end or error; returns the status, *items the
 * callbacks; every item checked against cbor_reader_next(). max_depth 0:
 * the default. */
static cbor_fast_status visit_all(const uint8_t* in, size_t size,
                                  const cbor_fast_visit_callbacks* cb, uint64_t max_depth,
                                  size_t* items) {
  cbor_reader* r = NULL;
  follow f = {NULL, 0, 0, (size_t)-1, 0};
  cbor_fast_status s;
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_new(in, size, NULL, &f.ref), CBOR_FAST_OK);
  if (max_depth != 0) set_both(r, f.ref, CBOR_FAST_OPT_MAX_DEPTH, max_depth);
  s = cbor_reader_visit(r, cb, &f);
  CHECK(s != CBOR_FAST_OK);
  CHECK_EQ_UINT(f.mismatches, 0);
  compare_ends(r, &f, cb, s);
  if (items != NULL) *items = f.seen;
  cbor_reader_free(r);
  cbor_reader_free(f.ref);
  return s;
}

static void test_sample_every_kind(void) {
  size_t n = 0;
  const cbor_fast_visit_callbacks all = all_callbacks();
  const cbor_fast_visit_callbacks items = item_callbacks();
  CHECK_STATUS(visit_all(k_sample, sizeof k_sample, &all, 0, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  CHECK_STATUS(visit_all(k_sample, sizeof k_sample, &items, 0, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  /* No input at all. */
  CHECK_STATUS(visit_all(k_sample, 0, &all, 0, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, 0);
}

/* A callback of each kind stops the visit: OK, the reader right after the
 * item; cbor_reader_next() and another visit go on from there. */
static void test_stop_and_resume(void) {
  size_t k;
  const cbor_fast_visit_callbacks all = all_callbacks();
  const cbor_fast_visit_callbacks items = item_callbacks();
  for (k = 1; k <= K_SAMPLE_ITEMS; ++k) {
    int pass;
    for (pass = 0; pass < 2; ++pass) {
      const cbor_fast_visit_callbacks* cb = pass == 0 ? &all : &items;
      cbor_reader* r = NULL;
      follow f = {NULL, 0, 0, 0, 0};
      cbor_fast_status s;
      f.stop_at = k;
      CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
      CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &f.ref), CBOR_FAST_OK);
      CHECK_STATUS(cbor_reader_visit(r, cb, &f), CBOR_FAST_OK);
      CHECK_EQ_UINT(f.seen, k);
      CHECK_EQ_UINT(cbor_reader_offset(r), cbor_reader_offset(f.ref));
      CHECK_EQ_UINT(cbor_reader_depth(r), cbor_reader_depth(f.ref));
      /* One item by next() on the visited reader: the reference's next one. */
      if (k < K_SAMPLE_ITEMS) {
        cbor_fast_item a = CBOR_FAST_ITEM_INIT, b = CBOR_FAST_ITEM_INIT;
        CHECK_STATUS(cbor_reader_next(r, &a), CBOR_FAST_OK);
        CHECK_STATUS(cbor_reader_next(f.ref, &b), CBOR_FAST_OK);
        CHECK(a.type == b.type && a.offset == b.offset && a.depth == b.depth &&
              a.value == b.value && a.flags == b.flags);
        ++f.seen;
      }
      /* The rest, stopping every 5 items. */
      do {
        f.stop_at = f.seen + 5;
        s = cbor_reader_visit(r, cb, &f);
      } while (s == CBOR_FAST_OK && f.seen < K_SAMPLE_ITEMS + 10);
      CHECK_STATUS(s, CBOR_FAST_END);
      CHECK_EQ_UINT(f.seen, K_SAMPLE_ITEMS);
      CHECK_EQ_UINT(f.mismatches, 0);
      compare_ends(r, &f, cb, s);
      cbor_reader_free(r);
      cbor_reader_free(f.ref);
    }
  }
}

static uint8_t g_in[1024];

static void test_appendix_a(void) {
  size_t i;
  const cbor_fast_visit_callbacks all = all_callbacks();
  const cbor_fast_visit_callbacks items = item_callbacks();
  for (i = 0; i < SHARED_COUNT(k_shared_appendix_a); ++i) {
    const size_t n = unhex(k_shared_appendix_a[i].hex, g_in, sizeof g_in);
    check_current_ = k_shared_appendix_a[i].name;
    CHECK_STATUS(visit_all(g_in, n, &all, 0, NULL), CBOR_FAST_END);
    CHECK_STATUS(visit_all(g_in, n, &items, 0, NULL), CBOR_FAST_END);
  }
  check_current_ = "";
}

/* Every malformed vector: the items before the error, then its status at its
 * offset, as cbor_reader_next() reports them. */
static void test_malformed(void) {
  size_t i;
  const cbor_fast_visit_callbacks all = all_callbacks();
  const cbor_fast_visit_callbacks items = item_callbacks();
  CHECK(SHARED_COUNT(k_shared_malformed) >= 90);
  for (i = 0; i < SHARED_COUNT(k_shared_malformed); ++i) {
    const shared_malformed* row = &k_shared_malformed[i];
    const size_t n = unhex(row->hex, g_in, sizeof g_in);
    cbor_reader* r = NULL;
    cbor_fast_error e = CBOR_FAST_ERROR_INIT;
    follow f = {NULL, 0, 0, (size_t)-1, 0};
    check_current_ = row->name;
    CHECK_STATUS(visit_all(g_in, n, &all, 0, NULL), row->status);
    CHECK_STATUS(visit_all(g_in, n, &items, 0, NULL), row->status);
    CHECK_STATUS(cbor_reader_new(g_in, n, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_new(g_in, n, NULL, &f.ref), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_visit(r, &all, &f), row->status);
    CHECK_STATUS(cbor_reader_error(r, &e), row->status);
    CHECK_EQ_UINT(e.offset, row->offset);
    cbor_reader_free(r);
    cbor_reader_free(f.ref);
  }
  check_current_ = "";
}

static void test_corpus(void) {
  static const char* const names[] = {"twitter", "citm_catalog", "canada"};
  const cbor_fast_visit_callbacks all = all_callbacks();
  const cbor_fast_visit_callbacks items = item_callbacks();
  size_t i;
  for (i = 0; i < 3; ++i) {
    char path[1024];
    size_t size = 0, n_all = 0, n_items = 0;
    uint8_t* data;
    snprintf(path, sizeof path, "%s/%s.cbor", CBOR_FAST_CORPUS_DIR, names[i]);
    check_current_ = names[i];
    data = read_whole(path, &size);
    CHECK(data != NULL);
    if (data == NULL) continue;
    CHECK_STATUS(visit_all(data, size, &all, 0, &n_all), CBOR_FAST_END);
    CHECK_STATUS(visit_all(data, size, &items, 0, &n_items), CBOR_FAST_END);
    CHECK(n_all > 10000);
    CHECK_EQ_UINT(n_items, n_all);
    free(data);
  }
  check_current_ = "";
}

/* 100k levels: the default depth limit stops it cleanly at level 512; with
 * the limit lifted every item arrives (no recursion anywhere). */
static void test_deep_nesting(void) {
  const size_t levels = 100000;
  const size_t size = 2 * levels + 1;
  uint8_t* in = (uint8_t*)malloc(size);
  const cbor_fast_visit_callbacks all = all_callbacks();
  cbor_reader* r = NULL;
  cbor_fast_error e = CBOR_FAST_ERROR_INIT;
  follow f = {NULL, 0, 0, (size_t)-1, 0};
  size_t n = 0;
  CHECK(in != NULL);
  if (in == NULL) return;
  /* Definite: [[[ ... 0 ... ]]] (no END bytes). */
  memset(in, 0x81, levels);
  in[levels] = 0x00;
  CHECK_STATUS(visit_all(in, levels + 1, &all, 0, &n), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(n, 512);
  CHECK_STATUS(cbor_reader_new(in, levels + 1, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_new(in, levels + 1, NULL, &f.ref), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_visit(r, &all, &f), CBOR_FAST_ERR_DEPTH);
  CHECK_STATUS(cbor_reader_error(r, &e), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(e.offset, 512);
  cbor_reader_free(r);
  cbor_reader_free(f.ref);
  CHECK_STATUS(visit_all(in, levels + 1, &all, UINT32_MAX, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, 2 * levels + 1);
  /* Indefinite: [_ [_ ... 0 ... ] ] with 100k breaks. */
  memset(in, 0x9f, levels);
  in[levels] = 0x00;
  memset(in + levels + 1, 0xff, levels);
  CHECK_STATUS(visit_all(in, size, &all, 0, &n), CBOR_FAST_ERR_DEPTH);
  CHECK_EQ_UINT(n, 512);
  CHECK_STATUS(visit_all(in, size, &all, UINT32_MAX, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, 2 * levels + 1);
  /* Missing the last break: truncated, after every other item. */
  CHECK_STATUS(visit_all(in, size - 1, &all, UINT32_MAX, &n), CBOR_FAST_ERR_TRUNCATED);
  CHECK_EQ_UINT(n, 2 * levels);
  free(in);
}

/* Streaming: the input shown `step` bytes more at a time; each visit
 * delivers what has arrived and returns NEED_MORE at a partial item. */
static void test_streaming(void) {
  size_t step;
  const cbor_fast_visit_callbacks all = all_callbacks();
  for (step = 1; step <= 8; ++step) {
    cbor_reader* r = NULL;
    follow f = {NULL, 0, 0, (size_t)-1, 0};
    size_t shown = 0, need_more = 0;
    cbor_fast_status s;
    CHECK_STATUS(cbor_reader_new(k_sample, 0, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 1), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &f.ref), CBOR_FAST_OK);
    for (;;) {
      s = cbor_reader_visit(r, &all, &f);
      if (s != CBOR_FAST_NEED_MORE) break;
      ++need_more;
      if (shown == sizeof k_sample) {
        CHECK_STATUS(cbor_reader_set(r, CBOR_FAST_OPT_STREAMING, 0), CBOR_FAST_OK);
        continue;
      }
      shown = shown + step < sizeof k_sample ? shown + step : sizeof k_sample;
      CHECK_STATUS(cbor_reader_feed(r, k_sample, shown, 0), CBOR_FAST_OK);
    }
    CHECK_STATUS(s, CBOR_FAST_END);
    CHECK(need_more >= sizeof k_sample / step);
    CHECK_EQ_UINT(f.seen, K_SAMPLE_ITEMS);
    CHECK_EQ_UINT(f.mismatches, 0);
    compare_ends(r, &f, &all, s);
    cbor_reader_free(r);
    cbor_reader_free(f.ref);
  }
}

static void test_null_arguments(void) {
  const cbor_fast_visit_callbacks all = all_callbacks();
  cbor_reader* r = NULL;
  cbor_fast_item it = CBOR_FAST_ITEM_INIT;
  follow f = {NULL, 0, 0, (size_t)-1, 0};
  CHECK_STATUS(cbor_reader_visit(NULL, &all, &f), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_visit(NULL, NULL, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_visit(r, NULL, &f), CBOR_FAST_ERR_INVALID_ARGUMENT);
  /* Not sticky, nothing consumed. */
  CHECK_EQ_UINT(cbor_reader_offset(r), 0);
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_next(r, &it), CBOR_FAST_OK);
  CHECK_EQ_UINT(it.offset, 0);
  CHECK_EQ_INT(it.type, CBOR_FAST_TYPE_ARRAY);
  CHECK_EQ_UINT(f.seen, 0);
  cbor_reader_free(r);
}

/* No callback at all: every item passes unseen, to the end. */
static void test_no_callbacks(void) {
  cbor_fast_visit_callbacks none = CBOR_FAST_VISIT_CALLBACKS_INIT;
  cbor_reader* r = NULL;
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_visit(r, &none, NULL), CBOR_FAST_END);
  CHECK_EQ_UINT(cbor_reader_offset(r), sizeof k_sample);
  CHECK_STATUS(cbor_reader_finish(r), CBOR_FAST_OK);
  cbor_reader_free(r);
}

/* A newer header's longer struct. */
typedef struct longer_callbacks {
  cbor_fast_visit_callbacks cb;
  void* unknown;
} longer_callbacks;

static void test_struct_size(void) {
  const uint32_t full = (uint32_t)sizeof(cbor_fast_visit_callbacks);
  const uint32_t first = (uint32_t)offsetof(cbor_fast_visit_callbacks, on_item);
  const uint32_t ptr = (uint32_t)sizeof(void*);
  cbor_fast_visit_callbacks cb = all_callbacks();
  longer_callbacks longer;
  size_t n = 0;
  cbor_reader* r = NULL;
  const uint32_t bad[] = {1,        first - 1,       first + 1, first + ptr + 1, full - 1,
                          full + 1, full + 64 + ptr, 0x10000,   0xffffffffu};
  size_t i;
  /* 0: the whole struct. */
  cb.struct_size = 0;
  CHECK_STATUS(visit_all(k_sample, sizeof k_sample, &cb, 0, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  /* An older, shorter layout ending after on_map: on_end and later count as
   * NULL (they would fail the test), their items go to on_item. */
  {
    follow f = {NULL, 0, 0, (size_t)-1, 0};
    cbor_fast_status s;
    cb.struct_size = (uint32_t)offsetof(cbor_fast_visit_callbacks, on_end);
    cb.on_null = never;
    cb.on_undefined = never;
    CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
    CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &f.ref), CBOR_FAST_OK);
    s = cbor_reader_visit(r, &cb, &f);
    CHECK_STATUS(s, CBOR_FAST_END);
    CHECK_EQ_UINT(f.seen, K_SAMPLE_ITEMS);
    CHECK_EQ_UINT(f.mismatches, 0);
    /* 7 END, a tag, a simple value, 2 booleans, null, undefined, 3 floats */
    CHECK_EQ_UINT(f.fallbacks, 16);
    cbor_reader_free(r);
    cbor_reader_free(f.ref);
  }
  /* struct_size alone: no callback, every item through on_item... which lies
   * past it too: nothing is called. */
  {
    follow f = {NULL, 0, 0, (size_t)-1, 0};
    cb = all_callbacks();
    cb.on_item = NULL;
    cb.on_null = never;
    cb.struct_size = first;
    CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
    f.ref = NULL;
    CHECK_STATUS(cbor_reader_visit(r, &cb, &f), CBOR_FAST_END);
    CHECK_EQ_UINT(f.seen, 0);
    CHECK_EQ_UINT(cbor_reader_offset(r), sizeof k_sample);
    cbor_reader_free(r);
  }
  /* Sizes no version has: refused before anything is read or called. */
  cb = all_callbacks();
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    follow f = {NULL, 0, 0, (size_t)-1, 0};
    cb.struct_size = bad[i];
    CHECK_STATUS(cbor_reader_visit(r, &cb, &f), CBOR_FAST_ERR_INVALID_ARGUMENT);
    CHECK_EQ_UINT(f.seen, 0);
  }
  CHECK_EQ_UINT(cbor_reader_offset(r), 0);
  CHECK_STATUS(cbor_reader_error(r, NULL), CBOR_FAST_OK);
  cbor_reader_free(r);
  /* A newer header's struct: accepted while its unknown callback is NULL. */
  longer.cb = all_callbacks();
  longer.cb.struct_size = (uint32_t)sizeof longer;
  longer.unknown = NULL;
  CHECK_STATUS(visit_all(k_sample, sizeof k_sample, &longer.cb, 0, &n), CBOR_FAST_END);
  CHECK_EQ_UINT(n, K_SAMPLE_ITEMS);
  longer.unknown = &longer;
  CHECK_STATUS(cbor_reader_new(k_sample, sizeof k_sample, NULL, &r), CBOR_FAST_OK);
  CHECK_STATUS(cbor_reader_visit(r, &longer.cb, NULL), CBOR_FAST_ERR_INVALID_ARGUMENT);
  CHECK_EQ_UINT(cbor_reader_offset(r), 0);
  cbor_reader_free(r);
}

int main(void) {
  RUN_TEST(test_sample_every_kind);
  RUN_TEST(test_stop_and_resume);
  RUN_TEST(test_appendix_a);
  RUN_TEST(test_malformed);
  RUN_TEST(test_corpus);
  RUN_TEST(test_deep_nesting);
  RUN_TEST(test_streaming);
  RUN_TEST(test_null_arguments);
  RUN_TEST(test_no_callbacks);
  RUN_TEST(test_struct_size);
  return check_summary();
}
