/*
 * Proof that the memory ceiling of the hostile-input runs is real: asks
 * malloc() for MIB mebibytes and touches every page. Prints "allocated" (exit
 * 0) or "refused" (exit 1). run.py expects "refused" for 1024 MiB and
 * "allocated" for 16 MiB under the same `ulimit -v` as the runners, so an
 * unbounded allocation in a runner would fail the same way.
 *
 *   cbor_fast_hostile_probe MIB
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  size_t size;
  char* p;
  if (argc != 2) {
    fprintf(stderr, "usage: cbor_fast_hostile_probe MIB\n");
    return 2;
  }
  size = (size_t)strtoul(argv[1], NULL, 10) << 20;
  p = (char*)malloc(size);
  if (p == NULL) {
    puts("refused");
    return 1;
  }
  memset(p, 1, size);
  printf("allocated\n");
  /* Keeps the stores alive. */
  if (p[size / 2] != 1) return 3;
  free(p);
  return 0;
}
