module libcbor_fast/cborfast/compare

go 1.19

require (
	github.com/fxamacker/cbor/v2 v2.4.0
	github.com/x448/float16 v0.8.4 // indirect
	libcbor_fast/cborfast v0.0.0
)

// Debian's sources (golang-github-fxamacker-cbor-dev and its dependency
// golang-github-x448-float16-dev), so nothing is downloaded.
replace (
	github.com/fxamacker/cbor/v2 => /usr/share/gocode/src/github.com/fxamacker/cbor
	github.com/x448/float16 => /usr/share/gocode/src/github.com/x448/float16
	libcbor_fast/cborfast => ../
)
