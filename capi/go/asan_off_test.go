//go:build !asan

package cborfast

// underASan: built with -asan (see asan_on_test.go).
const underASan = false
