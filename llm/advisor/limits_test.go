package advisor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolCallAndAnswerLimitSettings(t *testing.T) {
	s, err := parseSettings([]byte("limits: {tool_calls: 3, answer_bytes: 100000}\n"))
	require.NoError(t, err)
	assert.Equal(t, 3, s.Limits.MaxCallsPerRound)
	assert.Equal(t, 100000, s.Limits.MaxAnswerBytes)
	_, err = parseSettings([]byte("limits: {tool_calls: 1000}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tool_calls must be a whole number from 1 to 64")
}
