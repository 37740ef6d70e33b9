/*
 * cbor_fast._ext: bulk number arrays and RFC 8746 typed arrays as array.array.
 *
 * Decoding goes through the library's own typed-array reader and bulk array
 * readers (cbor_reader_read_typed_array, cbor_reader_read_*_array): the tag
 * table, the range checks and the error offsets are the library's. Encoding
 * writes a buffer's bytes with cbor_writer_write_typed_array.
 */
#include "_ext.h"

#include <string.h>

static PyObject* array_type;

/* array.array, looked up once. It must be a type (cf_is_array() casts it to
 * one): a callable put there before the first use is refused. */
PyObject* cf_array_type(void) {
  if (array_type == NULL) {
    PyObject* m = PyImport_ImportModule("array");
    if (m == NULL) {
      return NULL;
    }
    PyObject* t = PyObject_GetAttrString(m, "array");
    Py_DECREF(m);
    if (t == NULL) {
      return NULL;
    }
    if (!PyType_Check(t)) {
      Py_DECREF(t);
      PyErr_SetString(PyExc_TypeError, "cbor_fast: array.array is not a type");
      return NULL;
    }
    array_type = t;
  }
  return array_type;
}

/* Bytes per element of an array typecode new_array() is given. */
static size_t typecode_size(char typecode) {
  switch (typecode) {
    case 'b':
    case 'B': return 1;
    case 'h':
    case 'H': return sizeof(short);
    case 'i':
    case 'I': return sizeof(int);
    case 'l':
    case 'L': return sizeof(long);
    case 'q':
    case 'Q': return sizeof(long long);
    case 'f': return sizeof(float);
    default: return sizeof(double);
  }
}

/* The writable buffer of an array new_array() made for `count` elements of
 * `typecode`, which must hold exactly their bytes: a type put in
 * array.array's place (a subclass whose __mul__ gives a bytearray) had
 * count * 8 bytes written into count. */
static int array_buffer(PyObject* arr, char typecode, size_t count, Py_buffer* view) {
  if (PyObject_GetBuffer(arr, view, PyBUF_WRITABLE) < 0) {
    return -1;
  }
  if ((size_t)view->len != count * typecode_size(typecode)) {
    PyBuffer_Release(view);
    PyErr_SetString(PyExc_TypeError,
                    "cbor_fast: array.array did not make an array of the size asked");
    return -1;
  }
  return 0;
}

int cf_is_array(PyObject* obj) {
  PyObject* type = cf_array_type();
  if (type == NULL) {
    PyErr_Clear();
    return 0;
  }
  return PyObject_TypeCheck(obj, (PyTypeObject*)type);
}

/* array(typecode) * count: zero-filled, one allocation. */
static PyObject* new_array(char typecode, size_t count) {
  PyObject* type = cf_array_type();
  if (type == NULL) {
    return NULL;
  }
  PyObject* one = PyObject_CallFunction(type, "C", (int)typecode);
  if (one == NULL) {
    return NULL;
  }
  /* array(typecode) is empty: extend by one zero element, then repeat */
  PyObject* zero =
      typecode == 'f' || typecode == 'd' ? PyFloat_FromDouble(0.0) : PyLong_FromLong(0);
  PyObject* appended = zero == NULL ? NULL : PyObject_CallMethod(one, "append", "O", zero);
  Py_XDECREF(zero);
  if (appended == NULL) {
    Py_DECREF(one);
    return NULL;
  }
  Py_DECREF(appended);
  PyObject* r = PySequence_Repeat(one, (Py_ssize_t)count);
  Py_DECREF(one);
  return r;
}

/* The array typecode holding elements of `size` bytes, signed or not. */
static char int_typecode(size_t size, int is_signed) {
  if (size == 1) {
    return is_signed ? 'b' : 'B';
  }
  if (size == sizeof(short)) {
    return is_signed ? 'h' : 'H';
  }
  if (size == sizeof(int)) {
    return is_signed ? 'i' : 'I';
  }
  if (size == sizeof(long long)) {
    return is_signed ? 'q' : 'Q';
  }
  return is_signed ? 'l' : 'L';
}

static void swap_in_place(uint8_t* p, size_t count, size_t size) {
  for (size_t i = 0; i < count; ++i, p += size) {
    for (size_t a = 0, b = size - 1; a < b; ++a, --b) {
      uint8_t t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
  }
}

PyObject* cf_typed_array_object(const cbor_fast_typed_array* a) {
  char typecode;
  int is_float = 0;
  switch (a->element) {
    case CBOR_FAST_TYPED_UINT8:
    case CBOR_FAST_TYPED_UINT8_CLAMPED:
    case CBOR_FAST_TYPED_UINT16:
    case CBOR_FAST_TYPED_UINT32:
    case CBOR_FAST_TYPED_UINT64: typecode = int_typecode(a->element_size, 0); break;
    case CBOR_FAST_TYPED_SINT8:
    case CBOR_FAST_TYPED_SINT16:
    case CBOR_FAST_TYPED_SINT32:
    case CBOR_FAST_TYPED_SINT64: typecode = int_typecode(a->element_size, 1); break;
    case CBOR_FAST_TYPED_FLOAT32: typecode = 'f'; break;
    case CBOR_FAST_TYPED_FLOAT64: typecode = 'd'; break;
    case CBOR_FAST_TYPED_FLOAT16:
      typecode = 'd';
      is_float = 1;
      break;
    default:
      PyErr_SetString(PyExc_ValueError, "cbor_fast: no array typecode for this typed array");
      return NULL;
  }
  PyObject* arr = new_array(typecode, a->count);
  if (arr == NULL || a->count == 0) {
    return arr;
  }
  Py_buffer view;
  if (array_buffer(arr, typecode, a->count, &view) < 0) {
    Py_DECREF(arr);
    return NULL;
  }
  if (is_float) {
    size_t bad = 0;
    cbor_fast_status st = cbor_typed_array_copy_double(a, (double*)view.buf, a->count, &bad);
    PyBuffer_Release(&view);
    if (st != CBOR_FAST_OK) {
      Py_DECREF(arr);
      PyErr_Format(PyExc_SystemError, "cbor_fast: float16 conversion failed (%d)", (int)st);
      return NULL;
    }
    return arr;
  }
  memcpy(view.buf, a->data, a->count * a->element_size);
  if (a->element_size > 1 && (a->little_endian != 0) != (cbor_host_is_little_endian() != 0)) {
    swap_in_place((uint8_t*)view.buf, a->count, a->element_size);
  }
  PyBuffer_Release(&view);
  return arr;
}

/* ---- loads_array --------------------------------------------------------------------- */

static PyObject* raise_at(int status, size_t offset) {
  if (status == CBOR_FAST_ERR_OUT_OF_MEMORY) {
    return PyErr_NoMemory();
  }
  PyObject* exc = PyObject_CallFunction(cf_state.decode_error, "in", status, (Py_ssize_t)offset);
  if (exc != NULL) {
    PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

typedef cbor_fast_status (*bulk_fn)(cbor_reader*, void*, size_t, size_t*);

static cbor_fast_status bulk_u64(cbor_reader* r, void* out, size_t cap, size_t* n) {
  return cbor_reader_read_uint64_array(r, (uint64_t*)out, cap, n);
}
static cbor_fast_status bulk_i64(cbor_reader* r, void* out, size_t cap, size_t* n) {
  return cbor_reader_read_int64_array(r, (int64_t*)out, cap, n);
}
static cbor_fast_status bulk_f64(cbor_reader* r, void* out, size_t cap, size_t* n) {
  return cbor_reader_read_double_array(r, (double*)out, cap, n);
}

/* The status and offset of a failed bulk read: the sticky error's, or (for
 * the non-sticky ones, which read nothing) the reader's position. */
static PyObject* bulk_failed(cbor_reader* r, cbor_fast_status st) {
  cbor_fast_error err = CBOR_FAST_ERROR_INIT;
  if (cbor_reader_error(r, &err) != CBOR_FAST_OK) {
    return raise_at(err.code, err.offset);
  }
  return raise_at(st, cbor_reader_offset(r));
}

/* Runs `fn` into a new array of `typecode`, sized from the declared count
 * (a definite array or typed array), or for an indefinite array from the
 * input size (every element takes a byte at least), then trimmed. */
static PyObject* read_bulk(const uint8_t* data, size_t size, bulk_fn fn, char typecode) {
  cbor_reader* r = NULL;
  if (cbor_reader_new(data, size, NULL, &r) != CBOR_FAST_OK) {
    return PyErr_NoMemory();
  }
  PyObject* arr = NULL;
  size_t count = 0;
  cbor_fast_status st = fn(r, NULL, 0, &count);
  if (st == CBOR_FAST_ERR_BUFFER_TOO_SMALL) {
    cbor_fast_error err = CBOR_FAST_ERROR_INIT;
    size_t capacity = count;
    if (cbor_reader_error(r, &err) != CBOR_FAST_OK) {
      /* an indefinite array: read again with room for every byte left */
      cbor_reader_reset(r, data, size);
      capacity = size;
    }
    arr = new_array(typecode, capacity);
    if (arr == NULL) {
      cbor_reader_free(r);
      return NULL;
    }
    Py_buffer view;
    if (array_buffer(arr, typecode, capacity, &view) < 0) {
      Py_DECREF(arr);
      cbor_reader_free(r);
      return NULL;
    }
    Py_BEGIN_ALLOW_THREADS st = fn(r, view.buf, capacity, &count);
    Py_END_ALLOW_THREADS PyBuffer_Release(&view);
    if (st == CBOR_FAST_OK && count < capacity &&
        PySequence_DelSlice(arr, (Py_ssize_t)count, (Py_ssize_t)capacity) < 0) {
      Py_DECREF(arr);
      cbor_reader_free(r);
      return NULL;
    }
  } else if (st == CBOR_FAST_OK) {
    arr = new_array(typecode, 0); /* an empty array */
  }
  if (st == CBOR_FAST_END) {
    Py_XDECREF(arr);
    cbor_reader_free(r);
    return raise_at(CBOR_FAST_ERR_TRUNCATED, 0);
  }
  if (st != CBOR_FAST_OK) {
    Py_XDECREF(arr);
    PyObject* none = bulk_failed(r, st);
    cbor_reader_free(r);
    return none;
  }
  if (arr != NULL) {
    st = cbor_reader_finish(r);
    if (st != CBOR_FAST_OK) {
      Py_CLEAR(arr);
      cbor_fast_error err = CBOR_FAST_ERROR_INIT;
      if (cbor_reader_error(r, &err) != CBOR_FAST_OK) {
        raise_at(err.code, err.offset);
      } else {
        raise_at(st, cbor_reader_offset(r));
      }
    }
  }
  cbor_reader_free(r);
  return arr;
}

PyObject* cf_loads_array(PyObject* self, PyObject* args, PyObject* kwargs) {
  (void)self;
  static const char* kwlist[] = {"data", "typecode", NULL};
  PyObject* data;
  int typecode = 'd';
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|C:loads_array", (char**)kwlist, &data,
                                   &typecode)) {
    return NULL;
  }
  bulk_fn fn;
  if (typecode == 'd') {
    fn = bulk_f64;
  } else if (typecode == 'q' || (typecode == 'l' && sizeof(long) == 8)) {
    fn = bulk_i64;
  } else if (typecode == 'Q' || (typecode == 'L' && sizeof(long) == 8)) {
    fn = bulk_u64;
  } else {
    PyErr_Format(PyExc_ValueError,
                 "loads_array: typecode must be 'd', 'q' or 'Q' (or 'l'/'L' where 8 bytes), not %R",
                 PyTuple_Size(args) > 1 ? PyTuple_GET_ITEM(args, 1) : Py_None);
    return NULL;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(data, &view, PyBUF_C_CONTIGUOUS) < 0) {
    PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                 Py_TYPE(data)->tp_name);
    return NULL;
  }
  PyObject* r = read_bulk((const uint8_t*)view.buf, (size_t)view.len, fn, (char)typecode);
  PyBuffer_Release(&view);
  return r;
}

/* ---- encoding ------------------------------------------------------------------------ */

/* The typed-array element of a buffer format (struct module syntax: one
 * optional byte-order character, then one type character); 0 if none.
 * *little gets the buffer's byte order. */
static uint32_t element_of(const char* format, Py_ssize_t itemsize, int* little) {
  int host_little = cbor_host_is_little_endian();
  *little = host_little;
  if (format == NULL) {
    format = "B";
  }
  switch (*format) {
    case '@':
    case '=': ++format; break;
    case '<':
      *little = 1;
      ++format;
      break;
    case '>':
    case '!':
      *little = 0;
      ++format;
      break;
    default: break;
  }
  if (format[0] == '\0' || format[1] != '\0') {
    return 0;
  }
  static const uint32_t unsigned_by_size[9] = {
      0, CBOR_FAST_TYPED_UINT8, CBOR_FAST_TYPED_UINT16, 0, CBOR_FAST_TYPED_UINT32, 0, 0,
      0, CBOR_FAST_TYPED_UINT64};
  static const uint32_t signed_by_size[9] = {
      0, CBOR_FAST_TYPED_SINT8, CBOR_FAST_TYPED_SINT16, 0, CBOR_FAST_TYPED_SINT32, 0, 0,
      0, CBOR_FAST_TYPED_SINT64};
  if (itemsize < 1 || itemsize > 8) {
    return 0;
  }
  switch (format[0]) {
    case 'B':
    case 'H':
    case 'I':
    case 'L':
    case 'Q':
    case 'N': return unsigned_by_size[itemsize];
    case 'b':
    case 'h':
    case 'i':
    case 'l':
    case 'q':
    case 'n': return signed_by_size[itemsize];
    case 'f': return itemsize == 4 ? CBOR_FAST_TYPED_FLOAT32 : 0;
    case 'd': return itemsize == 8 ? CBOR_FAST_TYPED_FLOAT64 : 0;
    case 'e': return itemsize == 2 ? CBOR_FAST_TYPED_FLOAT16 : 0; /* IEEE 754 half (struct, numpy) */
    default: return 0;
  }
}

static int check(cbor_fast_status st) { return st == CBOR_FAST_OK ? 0 : cf_writer_failed(st); }

/* Element i of a native-order buffer as a CBOR number. */
static cbor_fast_status write_element(cbor_writer* w, const uint8_t* p, uint32_t element, int swap,
                                      size_t size) {
  uint8_t tmp[8];
  if (swap) {
    for (size_t k = 0; k < size; ++k) {
      tmp[k] = p[size - 1 - k];
    }
    p = tmp;
  }
  switch (element) {
    case CBOR_FAST_TYPED_UINT8: return cbor_writer_uint(w, p[0]);
    case CBOR_FAST_TYPED_SINT8: return cbor_writer_int(w, (int8_t)p[0]);
    case CBOR_FAST_TYPED_UINT16: {
      uint16_t v;
      memcpy(&v, p, 2);
      return cbor_writer_uint(w, v);
    }
    case CBOR_FAST_TYPED_SINT16: {
      int16_t v;
      memcpy(&v, p, 2);
      return cbor_writer_int(w, v);
    }
    case CBOR_FAST_TYPED_UINT32: {
      uint32_t v;
      memcpy(&v, p, 4);
      return cbor_writer_uint(w, v);
    }
    case CBOR_FAST_TYPED_SINT32: {
      int32_t v;
      memcpy(&v, p, 4);
      return cbor_writer_int(w, v);
    }
    case CBOR_FAST_TYPED_UINT64: {
      uint64_t v;
      memcpy(&v, p, 8);
      return cbor_writer_uint(w, v);
    }
    case CBOR_FAST_TYPED_SINT64: {
      int64_t v;
      memcpy(&v, p, 8);
      return cbor_writer_int(w, v);
    }
    case CBOR_FAST_TYPED_FLOAT32: {
      float v;
      memcpy(&v, p, 4);
      return cf_write_double(w, (double)v);
    }
    case CBOR_FAST_TYPED_FLOAT64: {
      double v;
      memcpy(&v, p, 8);
      return cf_write_double(w, v);
    }
    default: return CBOR_FAST_ERR_INVALID_ARGUMENT;
  }
}

int cf_write_number_buffer(cbor_writer* w, PyObject* obj, int typed) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
    PyErr_Clear();
    return 0;
  }
  int little;
  uint32_t element = element_of(view.format, view.itemsize, &little);
  if (element == 0 || (element == CBOR_FAST_TYPED_UINT8 && !cf_is_array(obj))) {
    /* a memoryview of bytes ('B') stays a byte string */
    PyBuffer_Release(&view);
    return 0;
  }
  size_t size = (size_t)view.itemsize;
  size_t count = (size_t)view.len / size;
  const uint8_t* p = (const uint8_t*)view.buf;
  int rc = 0;
  if (typed) {
    if (view.ndim > 1) {
      /* RFC 8746 tag 40: [dimensions, elements in row-major order] */
      rc = check(cbor_writer_tag(w, 40));
      rc = rc < 0 ? rc : check(cbor_writer_array(w, 2));
      rc = rc < 0 ? rc : check(cbor_writer_array(w, (uint64_t)view.ndim));
      for (int i = 0; rc == 0 && i < view.ndim; ++i) {
        rc = check(cbor_writer_uint(w, (uint64_t)view.shape[i]));
      }
      rc = rc < 0 ? rc : check(cbor_writer_end(w));
    }
    if (rc == 0) {
      rc = check(cbor_writer_write_typed_array(w, element, little, p, count));
    }
    if (rc == 0 && view.ndim > 1) {
      rc = check(cbor_writer_end(w));
    }
  } else {
    int swap = size > 1 && little != cbor_host_is_little_endian();
    rc = check(cbor_writer_array(w, count));
    for (size_t i = 0; rc == 0 && i < count; ++i) {
      rc = check(write_element(w, p + i * size, element, swap, size));
    }
    rc = rc < 0 ? rc : check(cbor_writer_end(w));
  }
  PyBuffer_Release(&view);
  return rc < 0 ? -1 : 1;
}
