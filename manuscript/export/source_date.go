package export

import (
	"os"
	"strconv"
	"time"
)

// sourceDate is SOURCE_DATE_EPOCH's time when the variable is set to a
// whole number of seconds, else fallback, to the second.
func sourceDate(fallback time.Time) time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return fallback.UTC().Truncate(time.Second)
}
