package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/model"
)

// Bounds on a skill source folder: a skill is instructions plus a few
// scripts and references, not a repository.
const (
	maxSkillFiles = 1000
	maxSkillBytes = MaxFileSize
)

// readSkillFolder reads every file of a skill's source folder, sorted by
// path. Hidden entries (.git, editor files) are skipped. A symbolic link is
// refused: following it could copy anything on the machine into the tree.
func readSkillFolder(dir string) ([]model.File, error) {
	var files []model.File
	total := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && e.Name()[0] == '.' {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if p != dir {
			// Each name becomes a file or folder name under the rendered
			// skill: the rules of names agyconf writes apply to it too.
			if msg := PathSegmentProblem(e.Name()); msg != "" {
				return fmt.Errorf("%s: %s Rename it", strconv.Quote(p), msg)
			}
		}
		if e.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link; copy the file into the skill folder instead", p)
		}
		if e.IsDir() {
			return nil
		}
		if !e.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if len(files) == maxSkillFiles {
			return fmt.Errorf("%s holds more than %d files", dir, maxSkillFiles)
		}
		data, err := confine.ReadFile(p, int64(maxSkillBytes-total))
		var tl *confine.TooLargeError
		if errors.As(err, &tl) {
			return fmt.Errorf("%s holds more than %d bytes", dir, maxSkillBytes)
		}
		if err != nil {
			return err
		}
		total += len(data)
		if total > maxSkillBytes {
			return fmt.Errorf("%s holds more than %d bytes", dir, maxSkillBytes)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(data)
		files = append(files, model.File{
			Path:       filepath.ToSlash(rel),
			Data:       data,
			Executable: info.Mode().Perm()&0o111 != 0,
			SHA256:     hex.EncodeToString(h[:]),
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// checkSkillMD checks the frontmatter of a source folder's SKILL.md the way
// a skill block's own arguments are checked: a description is required, and
// a name, when given, must be the skill's.
func checkSkillMD(files []model.File, name string) string {
	for _, f := range files {
		if f.Path != "SKILL.md" {
			continue
		}
		if l := agy.LimitOf(agy.SkillBody); l.Exceeds(string(f.Data)) {
			return fmt.Sprintf("the file is %d %s; %s (%s)", l.Measure(string(f.Data)), l.Unit, l.Summary, l.Source.Ref)
		}
		fm, _, _, err := frontmatter.Split(f.Data)
		if err != nil {
			return err.Error()
		}
		m, err := frontmatter.Parse(fm)
		if err != nil {
			return fmt.Sprintf("the frontmatter is not valid YAML: %v", err)
		}
		if d, ok := m["description"].(string); !ok || strings.TrimSpace(d) == "" {
			return "the frontmatter needs a description: it is all the model sees before it decides to load the skill"
		}
		if n, ok := m["name"]; ok && n != name {
			return fmt.Sprintf("the frontmatter names the skill %v, but the block names it %q", n, name)
		}
		return ""
	}
	return "missing"
}
