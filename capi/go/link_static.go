//go:build !cborfast_shared

package cborfast

// Linked statically by default, like a native Go package: the binary needs
// no libcbor_fast.so at run time. pkg-config finds cbor_fast-static.pc
// (installed next to cbor_fast.pc, and in the build tree's plain/pkgconfig),
// whose Libs name the static archive and whose Libs.private add the C++
// runtime the archive needs. Build with -tags cborfast_shared to link the
// shared library through cbor_fast.pc instead.

/*
#cgo pkg-config: --static cbor_fast-static
*/
import "C"
