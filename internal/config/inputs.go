package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// recorder collects what decoding depends on besides the config's text,
// so that a later run can tell, without decoding, that nothing changed.
type recorder struct {
	mu     sync.Mutex
	inputs map[model.Input]bool
}

func newRecorder() *recorder { return &recorder{inputs: map[model.Input]bool{}} }

func (r *recorder) add(kind, name, sum string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inputs[model.Input{Kind: kind, Name: name, Sum: sum}] = true
}

func (r *recorder) list() []model.Input {
	if r == nil {
		return nil
	}
	out := make([]model.Input, 0, len(r.inputs))
	for in := range r.inputs {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Sum < b.Sum
	})
	return out
}

func sumBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// envSum stands for a variable's value, or its absence.
func envSum(name string) string {
	v, ok := os.LookupEnv(name)
	if !ok {
		return "unset"
	}
	return sumBytes([]byte(v))
}

// statSum describes a secret file without reading it: a rotated secret
// changes its size, time or inode.
func statSum(path string) string {
	// Where the secret is now: a runtime placeholder is this session's.
	full, err := secretpath.Expand(path, secretpath.Host())
	if err != nil {
		return "missing"
	}
	st, err := os.Stat(full)
	if err != nil {
		return "missing"
	}
	ino := uint64(0)
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = uint64(sys.Ino)
	}
	return fmt.Sprintf("%d:%d:%d", st.Size(), st.ModTime().UnixNano(), ino)
}

// dirSum stands for the config files a folder holds, by name: the same
// whether the folder was named by a relative or an absolute path.
func dirSum(files []string) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return sumBytes([]byte(strings.Join(names, "\n")))
}

// treeSum stands for a skill source folder: its files, contents and
// executable bits.
func treeSum(files []model.File) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%s %s %v\n", f.Path, f.SHA256, f.Executable)
	}
	return sumBytes([]byte(b.String()))
}

// InputsUnchanged reports whether every input looks now as it did when it
// was recorded. It reads the files again but decodes nothing.
func InputsUnchanged(inputs []model.Input) bool {
	for _, in := range inputs {
		var now string
		switch in.Kind {
		case "file":
			data, err := readLimited(in.Name)
			if err != nil {
				return false
			}
			now = sumBytes(data)
		case "dir":
			files, diags := ConfigFiles(in.Name)
			if diags.HasErrors() {
				return false
			}
			now = dirSum(files)
		case "tree":
			files, err := readSkillFolder(in.Name)
			if err != nil {
				return false
			}
			now = treeSum(files)
		case "env":
			now = envSum(in.Name)
		case "stat":
			now = statSum(in.Name)
		default:
			return false // recorded by another version: decode again
		}
		if now != in.Sum {
			return false
		}
	}
	return len(inputs) > 0
}
