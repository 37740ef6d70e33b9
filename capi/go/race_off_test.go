//go:build !race

package cborfast

// underRace: see race_on_test.go.
const underRace = false
