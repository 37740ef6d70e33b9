//go:build race

package cborfast

// underRace: built with -race (go.test_race), where sync.Pool drops a
// quarter of what is put back, so a pooled state's scratch is often new.
const underRace = true
