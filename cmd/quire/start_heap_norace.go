//go:build !race

package main

// reserveStartHeap is true in every build a writer runs
// (start_heap_race.go says why a race build does not reserve).
const reserveStartHeap = true
