package evalserver

import "sync"

// Script is what a scripted server plays: its replies in order, the next
// one to send and the requests received. The eval server and the
// providertest fake both keep theirs in one, so the bookkeeping behind
// Requests and Remaining is written once. The zero value is an empty
// script; it is safe for concurrent use.
type Script[S, R any] struct {
	mu       sync.Mutex
	steps    []S
	next     int
	requests []R
	// loop replays the script from the start when it runs out and
	// records nothing, so a benchmark's script does not grow.
	loop bool
}

// Load replaces the script and forgets every recorded request.
func (s *Script[S, R]) Load(steps []S) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append([]S(nil), steps...)
	s.next = 0
	s.requests = nil
}

// Repeat makes the script replay forever without recording requests.
func (s *Script[S, R]) Repeat() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loop = true
}

// Requests are the requests recorded since the last Load, in order.
func (s *Script[S, R]) Requests() []R {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]R(nil), s.requests...)
}

// Remaining is how many steps were not played.
func (s *Script[S, R]) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.steps) - s.next
}

// Take records req (unless the script repeats) and hands out the next
// step with its number, counting from 1. When the script has run out, ok
// is false and n is the number of requests recorded.
func (s *Script[S, R]) Take(req R) (step S, n int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.steps) && s.loop {
		s.next = 0
	}
	if !s.loop {
		s.requests = append(s.requests, req)
	}
	if s.next >= len(s.steps) {
		return step, len(s.requests), false
	}
	step = s.steps[s.next]
	s.next++
	return step, s.next, true
}
