//go:build cborfast_shared

package cborfast

// -tags cborfast_shared: link libcbor_fast.so through cbor_fast.pc.

/*
#cgo pkg-config: cbor_fast
*/
import "C"
