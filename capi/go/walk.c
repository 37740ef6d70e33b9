#include "walk.h"

#include <stdlib.h>
#include <string.h>

static cbor_fast_status walk_new(cbor_doc* doc, cf_walk** out) {
  size_t n = cbor_doc_node_count(doc);
  cf_walk* w;
  if (n > CF_BATCH) n = CF_BATCH;
  if (n == 0) n = 1;
  w = (cf_walk*)calloc(1, sizeof(cf_walk));
  if (w == NULL) return CBOR_FAST_ERR_OUT_OF_MEMORY;
  w->recs = (cf_rec*)malloc(n * sizeof(cf_rec));
  if (w->recs == NULL) {
    free(w);
    return CBOR_FAST_ERR_OUT_OF_MEMORY;
  }
  w->rec_cap = n;
  w->doc = doc;
  w->cur = cbor_doc_root(doc);
  *out = w;
  return CBOR_FAST_OK;
}

cbor_fast_status cf_decode(const void* data, size_t size, uint32_t flags,
                           const cbor_fast_decode_options* options, cf_walk** out,
                           cbor_fast_error* error) {
  cbor_doc* doc = NULL;
  cbor_fast_status s;
  *out = NULL;
  s = cbor_decode(data, size, flags, options, &doc, error);
  if (s != CBOR_FAST_OK) return s;
  s = walk_new(doc, out);
  if (s != CBOR_FAST_OK) cbor_doc_free(doc);
  return s;
}

cbor_fast_status cf_seq_next(cbor_seq* seq, uint32_t flags, cf_walk** out) {
  cbor_doc* doc = NULL;
  cbor_fast_status s;
  *out = NULL;
  s = cbor_seq_next_doc(seq, flags, &doc);
  if (s != CBOR_FAST_OK) return s;
  s = walk_new(doc, out);
  if (s != CBOR_FAST_OK) cbor_doc_free(doc);
  return s;
}

void cf_walk_free(cf_walk* w) {
  if (w == NULL) return;
  cbor_doc_free(w->doc);
  free(w->stack);
  free(w->recs);
  free(w);
}

/* Fills *r from node n; returns 1 if the walk should descend into n's children. */
static int fill(cf_rec* r, const cbor_node* n) {
  const cbor_fast_type t = cbor_node_type(n);
  memset(r, 0, sizeof *r);
  r->kind = (uint8_t)t;
  switch (t) {
    case CBOR_FAST_TYPE_UINT: cbor_node_get_uint64(n, &r->value); return 0;
    case CBOR_FAST_TYPE_NEGATIVE: {
      int neg = 0;
      cbor_node_get_int_raw(n, &r->value, &neg);
      r->negative = 1;
      return 0;
    }
    case CBOR_FAST_TYPE_BYTES: {
      size_t size = 0;
      cbor_node_get_bytes(n, &r->data, &size);
      r->value = size;
      return 0;
    }
    case CBOR_FAST_TYPE_TEXT: {
      const char* p = NULL;
      size_t size = 0;
      cbor_node_get_text(n, &p, &size);
      r->data = (const uint8_t*)p;
      r->value = size;
      return 0;
    }
    case CBOR_FAST_TYPE_ARRAY:
    case CBOR_FAST_TYPE_MAP: r->value = cbor_node_size(n); return 1;
    case CBOR_FAST_TYPE_TAG: {
      uint64_t raw = 0;
      const uint8_t* mag = NULL;
      size_t size = 0;
      int neg = 0;
      cbor_node_get_tag(n, &r->value);
      /* Tag 2/3 over a byte string is a bignum: one record, content skipped. */
      if ((r->value == 2 || r->value == 3) &&
          cbor_node_get_bignum(n, &raw, &mag, &size, &neg) == CBOR_FAST_OK) {
        r->bignum = 1;
        r->negative = (uint8_t)(neg != 0);
        r->data = mag;
        r->value = size;
        return 0;
      }
      return 1;
    }
    case CBOR_FAST_TYPE_SIMPLE: {
      uint8_t v = 0;
      cbor_node_get_simple(n, &v);
      r->value = v;
      return 0;
    }
    case CBOR_FAST_TYPE_BOOL: {
      int b = 0;
      cbor_node_get_bool(n, &b);
      r->value = (uint64_t)(b != 0);
      return 0;
    }
    case CBOR_FAST_TYPE_FLOAT: {
      double d = 0.0;
      cbor_node_get_double(n, &d);
      memcpy(&r->value, &d, sizeof d);
      return 0;
    }
    default: return 0;
  }
}

static int push(cf_walk* w, const cbor_node* n) {
  if (w->depth == w->stack_cap) {
    const size_t cap = w->stack_cap != 0 ? w->stack_cap * 2 : 64;
    const cbor_node** s = (const cbor_node**)realloc((void*)w->stack, cap * sizeof *s);
    if (s == NULL) return 0;
    w->stack = s;
    w->stack_cap = cap;
  }
  w->stack[w->depth++] = n;
  return 1;
}

cbor_fast_status cf_walk_fill(cf_walk* w, size_t* count) {
  size_t k = 0;
  if (w == NULL || count == NULL) return CBOR_FAST_ERR_INVALID_ARGUMENT;
  while (w->cur != NULL && k < w->rec_cap) {
    const cbor_node* n = w->cur;
    const cbor_node* child = fill(&w->recs[k++], n) ? cbor_node_child(n) : NULL;
    if (child != NULL) {
      if (!push(w, n)) {
        *count = 0;
        return CBOR_FAST_ERR_OUT_OF_MEMORY;
      }
      w->cur = child;
      continue;
    }
    /* Climb until a node with a next sibling; the root has none. */
    for (;;) {
      const cbor_node* next;
      if (w->depth == 0) {
        w->cur = NULL;
        break;
      }
      next = cbor_node_next(n);
      if (next != NULL) {
        w->cur = next;
        break;
      }
      n = w->stack[--w->depth];
    }
  }
  *count = k;
  return CBOR_FAST_OK;
}

static uint64_t load_le64(const uint8_t* p) {
  uint64_t v = 0;
  int i;
  for (i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

cbor_fast_status cf_write_tape(cbor_writer* w, const uint8_t* tape, size_t size, size_t* failed) {
  size_t pos = 0;
  while (pos + 9 <= size) {
    const uint8_t op = tape[pos];
    const uint64_t arg = load_le64(tape + pos + 1);
    const uint8_t* data = tape + pos + 9;
    size_t next = pos + 9;
    cbor_fast_status s;
    switch (op) {
      case CF_OP_UINT: s = cbor_writer_uint(w, arg); break;
      case CF_OP_NEGATIVE: s = cbor_writer_negative(w, arg); break;
      case CF_OP_FLOAT: {
        double d;
        memcpy(&d, &arg, sizeof d);
        s = cbor_writer_float(w, d, CBOR_FAST_FLOAT_SHORTEST);
        break;
      }
      case CF_OP_BYTES:
      case CF_OP_TEXT:
      case CF_OP_BIGNUM:
      case CF_OP_BIGNUM_NEG:
        if (arg > size - next) {
          s = CBOR_FAST_ERR_INVALID_ARGUMENT;
          break;
        }
        next += (size_t)arg;
        if (op == CF_OP_BYTES)
          s = cbor_writer_bytes(w, data, (size_t)arg);
        else if (op == CF_OP_TEXT)
          s = cbor_writer_text(w, (const char*)data, (size_t)arg);
        else
          s = cbor_writer_bignum(w, data, (size_t)arg, op == CF_OP_BIGNUM_NEG);
        break;
      case CF_OP_ARRAY: s = cbor_writer_array(w, arg); break;
      case CF_OP_MAP: s = cbor_writer_map(w, arg); break;
      case CF_OP_TAG: s = cbor_writer_tag(w, arg); break;
      case CF_OP_SIMPLE:
        s = arg <= 255 ? cbor_writer_simple(w, (uint8_t)arg) : CBOR_FAST_ERR_INVALID_ARGUMENT;
        break;
      case CF_OP_BOOL: s = cbor_writer_bool(w, arg != 0); break;
      case CF_OP_NULL: s = cbor_writer_null(w); break;
      case CF_OP_UNDEFINED: s = cbor_writer_undefined(w); break;
      case CF_OP_END: s = cbor_writer_end(w); break;
      default: s = CBOR_FAST_ERR_INVALID_ARGUMENT; break;
    }
    if (s != CBOR_FAST_OK) {
      *failed = pos;
      return s;
    }
    pos = next;
  }
  *failed = size;
  return pos == size ? CBOR_FAST_OK : CBOR_FAST_ERR_INVALID_ARGUMENT;
}
