package doctor

import (
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/lazyre"
)

// MaxLog bounds how much of agy's log doctor reads: the end of it.
const MaxLog = 4 << 20

// LoadBlock is what agy's log says of one loading of hooks: the failures
// it logged, up to the line that counts what it loaded (hooks_manager
// logs failures first, then "loaded N named hooks from M hooks.json
// file(s)"). The last block of a log may have no count yet.
type LoadBlock struct {
	// Loaded is the count line as agy wrote it, "" when the block has
	// none; Hooks and Files are its numbers.
	Loaded       string
	Hooks, Files int
	// FileFailures: "failed to parse hooks.json at PATH: ERR".
	FileFailures []FileFailure
	// PluginFailures: "Failed to parse hooks for plugin P: ERR".
	PluginFailures []PluginFailure
}

// FileFailure is a hooks.json agy could not parse, as it logged it.
type FileFailure struct {
	// Path is as agy wrote it (it may start with ~).
	Path, Message string
}

// PluginFailure is a plugin whose hooks agy could not parse.
type PluginFailure struct {
	Plugin, Message string
}

var (
	// glogPrefix is what precedes a message in a line of agy's log:
	// "I0606 16:56:53.612345   12345 hooks_manager.go:53] " (Go's glog
	// format), or the shortened "W hooks.go:73] " third parties quote.
	glogPrefix   = lazyre.New(`^(?:[IWEF]\S*(?:\s+\S+)*?\s+)?[A-Za-z0-9_.-]+\.go:\d+\]\s?`)
	loadedLine   = lazyre.New(`^loaded (\d{1,9}) named hooks? from (\d{1,9}) hooks\.json file\(s\)`)
	fileFailed   = lazyre.New(`(?i)^failed to parse hooks\.json at (.+?):(?:\s+(.*))?$`)
	pluginFailed = lazyre.New(`(?i)^failed to parse hooks for plugin (.+?):(?:\s+(.*))?$`)
)

// ParseLog reads the lines of agy's log (recorded shapes in
// testdata/answers/cli-log-*.txt) into blocks of hook loading, oldest
// first. A failure's message may continue on the next line, which then
// has no prefix of its own (third parties quote it so); it is joined.
// Lines that say nothing about hooks are skipped.
func ParseLog(data []byte) []LoadBlock {
	var blocks []LoadBlock
	cur := LoadBlock{}
	// pending is a failure whose message ended at its colon.
	var pendingFile *FileFailure
	var pendingPlugin *PluginFailure
	flush := func() {
		if pendingFile != nil {
			cur.FileFailures = append(cur.FileFailures, *pendingFile)
		}
		if pendingPlugin != nil {
			cur.PluginFailures = append(cur.PluginFailures, *pendingPlugin)
		}
		pendingFile, pendingPlugin = nil, nil
	}
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r \t")
		msg := line
		prefixed := false
		if loc := glogPrefix().FindStringIndex(line); loc != nil {
			msg, prefixed = line[loc[1]:], true
		}
		msg = strings.TrimSpace(msg)
		if !prefixed && msg != "" && (pendingFile != nil || pendingPlugin != nil) {
			// The rest of a message that ended at its colon.
			if pendingFile != nil && pendingFile.Message == "" {
				pendingFile.Message = clip(msg)
			} else if pendingPlugin != nil && pendingPlugin.Message == "" {
				pendingPlugin.Message = clip(msg)
			}
			flush()
			continue
		}
		flush()
		if m := loadedLine().FindStringSubmatch(msg); m != nil {
			cur.Loaded = m[0]
			cur.Hooks, _ = strconv.Atoi(m[1])
			cur.Files, _ = strconv.Atoi(m[2])
			blocks = append(blocks, cur)
			cur = LoadBlock{}
			continue
		}
		if m := fileFailed().FindStringSubmatch(msg); m != nil {
			pendingFile = &FileFailure{Path: m[1], Message: clip(m[2])}
			if m[2] != "" {
				flush()
			}
			continue
		}
		if m := pluginFailed().FindStringSubmatch(msg); m != nil {
			pendingPlugin = &PluginFailure{Plugin: m[1], Message: clip(m[2])}
			if m[2] != "" {
				flush()
			}
		}
	}
	flush()
	if len(cur.FileFailures)+len(cur.PluginFailures) > 0 {
		blocks = append(blocks, cur)
	}
	return blocks
}
