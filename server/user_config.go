package server

import (
	"context"
	"os"
	"time"

	"github.com/quire-ink/quire/codex/settings"
)

// userConfigPoll is how often quire looks at the writer's config.yaml.
// The file lies outside every book, so no book's watcher sees it change;
// one stat a second costs nothing, and works where its folder does not
// exist yet or a file watcher is not to be had.
const userConfigPoll = time.Second

// fileStamp is what tells a file changed without reading it.
type fileStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

func stampOf(path string) fileStamp {
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: info.Size(), mod: info.ModTime()}
}

// followUserConfig applies the writer's config.yaml to every open book
// when it changes outside the editor (a provider chosen in a terminal
// with quire models --use, or the file edited by hand), and tells the
// client through quire/status, whose provider follows it: the editor's
// advisor item would otherwise speak of the provider as it was.
func (s *Server) followUserConfig(ctx context.Context) {
	path, err := settings.UserConfigPath()
	if err != nil {
		s.log.Debug("config.yaml not followed", "err", err)
		return
	}
	last := stampOf(path)
	tick := time.NewTicker(userConfigPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := stampOf(path)
		if now == last {
			continue
		}
		last = now
		for _, p := range s.sess.books() {
			if !p.loaded() {
				continue
			}
			p.followMu.Lock()
			err := p.reloadConfig(ctx)
			p.followMu.Unlock()
			if err != nil {
				s.log.Warn("config.yaml not applied", "root", p.real, "err", err)
			}
			s.publishStatus(ctx, p)
		}
	}
}
