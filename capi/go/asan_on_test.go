//go:build asan

package cborfast

// underASan: built with -asan (go.test_cgocheck2 in the sanitized build),
// where Go's own allocations are instrumented and counted differently.
const underASan = true
