package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/model"
)

// Markdown returns a markdown document's frontmatter (parsed, comments
// and the generated-file marker gone) and its body without leading and
// trailing blank lines: the normal form in which an imported document and
// its render are compared. A document without frontmatter has an empty map.
func Markdown(doc []byte) (map[string]any, string, error) {
	fm, body, _, err := frontmatter.Split(doc)
	if err == frontmatter.ErrNone {
		return map[string]any{}, normBody(string(doc)), nil
	}
	if err != nil {
		return nil, "", err
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		return nil, "", err
	}
	return m, normBody(string(body)), nil
}

func normBody(b string) string {
	b = strings.TrimLeft(b, "\n")
	return strings.TrimRight(b, "\n")
}

// markdownFile reads and splits one markdown file; on a problem it
// reports it and returns false.
func (im *importer) markdownFile(rel string, needFM bool) (map[string]any, string, bool) {
	data, ok := im.readFile(rel)
	if !ok {
		return nil, "", false
	}
	return im.markdownData(rel, data, needFM)
}

// markdownData is markdownFile for the bytes data of rel, read already.
func (im *importer) markdownData(rel string, data []byte, needFM bool) (map[string]any, string, bool) {
	if !utf8.Valid(data) {
		im.skip(rel, "", "is not valid UTF-8")
		return nil, "", false
	}
	fm, body, line, err := frontmatter.Split(data)
	if err == frontmatter.ErrNone {
		if needFM {
			im.skip(rel, "", "has no frontmatter (a --- block with name and description), which Antigravity needs")
			return nil, "", false
		}
		return map[string]any{}, normBody(string(data)), true
	}
	if err != nil {
		im.items = append(im.items, Item{Kind: KindNotImported, Path: rel, Line: 1, Column: 1, Reason: "does not parse: " + err.Error()})
		return nil, "", false
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		im.items = append(im.items, Item{Kind: KindNotImported, Path: rel, Line: line, Column: 1, Reason: "the frontmatter does not parse: " + err.Error()})
		return nil, "", false
	}
	return m, normBody(string(body)), true
}

func fmString(m map[string]any, k string) (string, bool, bool) {
	v, has := m[k]
	if !has {
		return "", false, true
	}
	s, ok := v.(string)
	return s, true, ok
}

func fmStrings(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := []string{}
	for _, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (im *importer) unknownKeys(rel string, m map[string]any, known ...string) {
	for _, k := range sortedKeys(m) {
		found := false
		for _, kk := range known {
			if k == kk {
				found = true
			}
		}
		if !found {
			im.skip(rel, k, "a frontmatter key the input language does not know; it is not written")
		}
	}
}

// skills imports every skill folder under dir; bodyDir is where bodies
// and copies go under Out.
func (im *importer) skills(dir, outDir string) []*model.Skill {
	var out []*model.Skill
	entries := im.listDir(dir)
	ahead := im.readAhead(dir, entries)
	for i, e := range entries {
		rel := join(dir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := im.tree.stat(rel); err == nil && fi.IsDir() {
				// As internal/config refuses a link as a skill's source.
				im.skip(rel, "", "a link to a folder; agyconf imports a skill folder only as a folder of its own (a link could bring anything into the tree): replace the link by the folder")
				continue
			}
		}
		if !e.IsDir() {
			if name, isMD := strings.CutSuffix(e.Name(), ".md"); isMD {
				if s := im.flatSkill(dir, rel, name, outDir); s != nil {
					out = append(out, s)
				}
			} else {
				im.skip(rel, "", "not a skill folder")
			}
			continue
		}
		if s := im.skill(rel, e.Name(), outDir, ahead.get(i)); s != nil {
			out = append(out, s)
		}
	}
	ahead.wait()
	return out
}

// skillRead is what reading a skill folder gave: its SKILL.md, and, when
// that read, the copy of the whole folder.
type skillRead struct {
	data     []byte
	info     fs.FileInfo
	err      error
	files    []model.File
	filesErr error
}

// prefetchWorkers read skill folders at once: reading is most of an
// import of many skills, and each folder is read apart from the others;
// at most prefetchWindow folders are read ahead of the one being judged,
// which bounds what is held of folders judged later (and maybe refused).
const (
	prefetchWorkers = 4
	prefetchWindow  = 32
)

// ahead reads the skill folders among a folder's entries on a few
// goroutines, ahead of the loop that judges them in order (in skill), so
// the report and the output are the same as reading one by one.
type ahead struct {
	read  []bool // entry i is read ahead: a folder with a declarable name
	res   []*skillRead
	done  []chan struct{}
	slots chan struct{}
	idle  sync.WaitGroup
}

func (im *importer) readAhead(dir string, entries []fs.DirEntry) *ahead {
	a := &ahead{read: make([]bool, len(entries)), res: make([]*skillRead, len(entries)),
		done: make([]chan struct{}, len(entries)), slots: make(chan struct{}, prefetchWindow)}
	for i, e := range entries {
		if e.IsDir() && skillNameProblem(e.Name()) == "" {
			a.read[i], a.done[i] = true, make(chan struct{})
		}
	}
	next := make(chan int)
	for w := 0; w < prefetchWorkers; w++ {
		a.idle.Add(1)
		go func() {
			defer a.idle.Done()
			for i := range next {
				a.res[i] = im.readSkill(join(dir, entries[i].Name()))
				close(a.done[i])
			}
		}()
	}
	a.idle.Add(1)
	go func() {
		defer a.idle.Done()
		defer close(next)
		for i := range entries {
			if a.read[i] {
				a.slots <- struct{}{} // freed by get(i)
				next <- i
			}
		}
	}()
	return a
}

// get is what was read of entry i (nil for an entry not read ahead); the
// loop asks for every entry read ahead, in order.
func (a *ahead) get(i int) *skillRead {
	if !a.read[i] {
		return nil
	}
	<-a.done[i]
	r := a.res[i]
	a.res[i] = nil
	<-a.slots
	return r
}

// wait returns once every goroutine is done: each entry read ahead has
// been asked for by then.
func (a *ahead) wait() { a.idle.Wait() }

// readSkill reads the skill folder rel; it only reads (it runs on several
// goroutines at once).
func (im *importer) readSkill(rel string) *skillRead {
	r := &skillRead{}
	// Read once: the copy of the folder takes these bytes too.
	r.data, r.info, r.err = im.tree.readFile(join(rel, "SKILL.md"), maxLiveFile)
	if r.err == nil {
		r.files, r.filesErr = im.readTree(rel, r.data, r.info)
	}
	return r
}

func (im *importer) skill(rel, name, outDir string, pre *skillRead) *model.Skill {
	if p := skillNameProblem(name); p != "" {
		im.skip(rel, "", "the skill name %q cannot be declared: %s", name, p)
		return nil
	}
	md := join(rel, "SKILL.md")
	if pre == nil {
		pre = im.readSkill(rel)
	}
	data, err := pre.data, pre.err
	if errors.Is(err, fs.ErrNotExist) {
		im.skip(rel, "", "has no SKILL.md, so Antigravity does not load it")
		return nil
	}
	if !im.readOK(md, err) {
		return nil
	}
	m, body, ok := im.markdownData(md, data, true)
	if !ok {
		return nil
	}
	desc, has, isStr := fmString(m, "description")
	if !has || !isStr || strings.TrimSpace(desc) == "" {
		im.skip(md, "", "the frontmatter has no description, which a skill needs")
		return nil
	}
	if n, has := m["name"]; has && n != name {
		im.skip(md, "", "the frontmatter names the skill %v, but its folder is %q; rename one of them", n, name)
		return nil
	}
	files, err := pre.files, pre.filesErr
	if im.linkRefused(rel, err) {
		return nil
	}
	if err != nil {
		im.skip(rel, "", "%v", err)
		return nil
	}
	s := &model.Skill{Name: name}
	extraKeys := im.skillKeys(m, s)
	if len(files) == 1 && !extraKeys {
		if l := agy.LimitOf(agy.SkillBody); l.Exceeds(body) {
			im.skip(md, "", "the body is %d %s; %s, so agyconf refuses more", l.Measure(body), l.Unit, l.Summary)
			return nil
		}
		if body == "" {
			im.skip(md, "", "the body is empty; a skill needs instructions")
			return nil
		}
		s.Description, s.Body = desc, body
		im.bodyPath[s] = join(outDir, name+".md")
		return s
	}
	for _, f := range files {
		if l := agy.LimitOf(agy.SkillBody); f.Path == "SKILL.md" && l.Exceeds(string(f.Data)) {
			im.skip(md, "", "the file is %d %s; %s, so agyconf refuses more", l.Measure(string(f.Data)), l.Unit, l.Summary)
			return nil
		}
	}
	// The folder is copied as it is, SKILL.md's keys with it.
	s.Icon, s.DisableSlashCommand = "", nil
	s.Files, s.Source = files, im.abs(rel)
	switch {
	case im.opts.Out != "":
		src := join(outDir, name)
		for _, f := range files {
			im.files[join(src, f.Path)] = File{Data: f.Data, Executable: f.Executable}
		}
		im.skillSrc[s] = src
	case im.opts.Scope == model.ScopeWorkspace:
		// Relative to the workspace root, where the config is meant to be
		// saved: absolute paths are refused in workspace scope.
		im.skillSrc[s] = rel
	default:
		im.skillSrc[s] = im.abs(rel)
	}
	return s
}

// skillKeys reads the SKILL.md keys a skill block writes (agy.SkillFields)
// into s, and reports whether the frontmatter holds anything else, which
// only copying the folder as it is keeps.
func (im *importer) skillKeys(m map[string]any, s *model.Skill) (extra bool) {
	known := map[string]bool{"name": true, "description": true}
	meta, _ := m["metadata"].(map[string]any)
	for _, f := range agy.SkillFields() {
		var v any
		var has bool
		switch len(f.Path) {
		case 1:
			v, has = m[f.Path[0]]
			known[f.Path[0]] = true
		case 2:
			v, has = meta[f.Path[1]]
		}
		if !has {
			continue
		}
		im.needs(f.Since())
		switch dst := s.Value(f.Key()).(type) {
		case *string:
			str, ok := v.(string)
			if !ok || str == "" {
				extra = true
				continue
			}
			*dst = str
		case **bool:
			b, ok := v.(bool)
			if !ok {
				extra = true
				continue
			}
			*dst = &b
		}
	}
	if _, has := m["metadata"]; has {
		// Only a metadata of icon alone is a skill block's to write.
		_, iconOnly := meta["icon"]
		extra = extra || meta == nil || len(meta) != 1 || !iconOnly
		known["metadata"] = true
	}
	for k := range m {
		if !known[k] {
			extra = true
		}
	}
	return extra
}

// flatSkill imports a flat skills/<name>.md, which render writes as
// <name>/SKILL.md: the sources disagree on whether agy reads the flat
// form, and every one reads the folder.
func (im *importer) flatSkill(dir, rel, name, outDir string) *model.Skill {
	if fi, err := im.tree.stat(join(dir, name)); err == nil && fi.IsDir() {
		im.skip(rel, "", "a flat file of the skill %s, which the folder %s also defines; that one is imported: delete this one, or agy may read both", name, join(dir, name))
		return nil
	}
	if p := skillNameProblem(name); p != "" {
		im.skip(rel, "", "the skill name %q cannot be declared: %s", name, p)
		return nil
	}
	m, body, ok := im.markdownFile(rel, true)
	if !ok {
		return nil
	}
	desc, has, isStr := fmString(m, "description")
	if !has || !isStr || strings.TrimSpace(desc) == "" {
		im.skip(rel, "", "the frontmatter has no description, which a skill needs")
		return nil
	}
	if n, has := m["name"]; has && n != name {
		im.skip(rel, "", "the frontmatter names the skill %v, but the file is %s.md; rename one of them", n, name)
		return nil
	}
	s := &model.Skill{Name: name, Description: desc, Body: body}
	if im.skillKeys(m, s) {
		im.skip(rel, "", "the frontmatter has keys a skill block does not write; agyconf writes a skill with such keys only from a folder (source): make it %s/SKILL.md first", name)
		return nil
	}
	if l := agy.LimitOf(agy.SkillBody); l.Exceeds(body) {
		im.skip(rel, "", "the body is %d %s; %s, so agyconf refuses more", l.Measure(body), l.Unit, l.Summary)
		return nil
	}
	if body == "" {
		im.skip(rel, "", "the body is empty; a skill needs instructions")
		return nil
	}
	im.conv(rel, "", "a flat skill file; render writes it as %s/SKILL.md, the form every source has agy discover: delete %s once that is in place, or agy may read both", join(dir, name), rel)
	im.bodyPath[s] = join(outDir, name+".md")
	return s
}

// readTree reads a skill folder (rel, below the root) as internal/config
// does: regular files only, hidden entries skipped, at most 1,000 files
// and 8 MiB; a link anywhere in it is refused. mdData and mdInfo are its
// SKILL.md, read already: taken as they are rather than read again, when
// within what the copy may still take.
func (im *importer) readTree(rel string, mdData []byte, mdInfo fs.FileInfo) ([]model.File, error) {
	var files []model.File
	total := 0
	var walk func(sub string) error
	walk = func(sub string) error {
		es, err := im.tree.readDir(join(rel, sub))
		if err != nil {
			return err
		}
		for _, e := range es {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := join(sub, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				return fmt.Errorf("%s is a symbolic link, which agyconf refuses in a skill folder (it could copy anything into the tree)", p)
			case e.IsDir():
				if err := walk(p); err != nil {
					return err
				}
				continue
			case !e.Type().IsRegular():
				return fmt.Errorf("%s is not a regular file", p)
			}
			room := 8<<20 - total
			data, info, err := mdData, mdInfo, error(nil)
			if p != "SKILL.md" || mdInfo == nil || mdInfo.Size() > int64(room) || len(mdData) > room {
				data, info, err = im.tree.readFile(join(rel, p), int64(room))
			}
			var tl *confine.TooLargeError
			if err != nil && !errors.As(err, &tl) {
				return err
			}
			total += len(data)
			if len(files) >= 1000 || tl != nil {
				return fmt.Errorf("the folder holds more than 1,000 files or 8 MiB, more than agyconf copies")
			}
			sum := sha256.Sum256(data)
			files = append(files, model.File{Path: p, Data: data, Executable: info.Mode()&0o111 != 0, SHA256: hex.EncodeToString(sum[:])})
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// rules imports every rule file of a rules folder.
func (im *importer) rules(dir, outDir string) []*model.Rule {
	var out []*model.Rule
	for _, e := range im.listDir(dir) {
		rel := join(dir, e.Name())
		name, isMD := strings.CutSuffix(e.Name(), ".md")
		if e.IsDir() || !isMD {
			im.skip(rel, "", "not a rule file (<name>.md); Antigravity does not read it as a rule")
			continue
		}
		if p := entryNameProblem(name); p != "" {
			im.skip(rel, "", "the rule name %q cannot be declared: %s", name, p)
			continue
		}
		m, body, ok := im.markdownFile(rel, false)
		if !ok {
			continue
		}
		r := &model.Rule{Name: name, Trigger: model.TriggerAlwaysOn, Body: body}
		t, has, isStr := fmString(m, "trigger")
		switch {
		case !has:
			im.conv(rel, "trigger", "missing; written as always_on")
		case !isStr:
			im.skip(rel, "", "trigger is not a string")
			continue
		case t == model.TriggerAlwaysOn || t == model.TriggerGlob || t == model.TriggerModelDecision || t == model.TriggerManual:
			r.Trigger = t
		default:
			im.skip(rel, "", "trigger %q is not one of always_on, glob, model_decision, manual", t)
			continue
		}
		if g, has := m["globs"]; has {
			var globs []string
			switch gv := g.(type) {
			case string:
				globs = strings.Split(gv, ",")
			default:
				xs, ok := fmStrings(g)
				if !ok {
					im.skip(rel, "", "globs is neither a string nor a list of strings")
					continue
				}
				im.conv(rel, "globs", "a list; written as one comma-separated string, the form Antigravity reads")
				globs = xs
			}
			var clean []string
			for _, x := range globs {
				if x = strings.TrimSpace(x); x != "" {
					clean = append(clean, x)
				}
			}
			if r.Trigger != model.TriggerGlob {
				im.skip(rel, "globs", "globs apply only to trigger glob; Antigravity ignores them here")
			} else {
				if s, isStr := g.(string); isStr && s != strings.Join(clean, ",") {
					im.conv(rel, "globs", "written as %q (spaces and empty parts dropped)", strings.Join(clean, ","))
				}
				r.Globs = clean
			}
		}
		if r.Trigger == model.TriggerGlob && len(r.Globs) == 0 {
			im.skip(rel, "", "trigger glob without globs")
			continue
		}
		if d, has, isStr := fmString(m, "description"); has {
			if !isStr || d == "" {
				im.skip(rel, "description", "is not a non-empty string")
			} else {
				r.Description = d
			}
		}
		if r.Trigger == model.TriggerModelDecision && r.Description == "" {
			im.skip(rel, "", "trigger model_decision without a description")
			continue
		}
		im.unknownKeys(rel, m, "trigger", "globs", "description")
		// No limit per rule: agy cuts what is over the budget of all rules
		// together (agy.RuleBudget), which render reports as a warning.
		if !im.bodyOK(rel, body, "") {
			continue
		}
		im.bodyPath[r] = join(outDir, name+".md")
		out = append(out, r)
	}
	return out
}

func (im *importer) bodyOK(rel, body string, limit agy.LimitID) bool {
	if body == "" {
		im.skip(rel, "", "the body is empty; agyconf needs one")
		return false
	}
	if l := agy.LimitOf(limit); limit != "" && l.Exceeds(body) {
		im.skip(rel, "", "the body has %d %s; %s", l.Measure(body), l.Unit, l.Summary)
		return false
	}
	return true
}

// globalRules imports the rules of GEMINI.md's managed block, which render
// writes as "## name", a blank line and the body, rules sorted by name.
// The split is accepted only when writing the rules back gives the block's
// exact text.
func (im *importer) globalRules(rel string) []*model.Rule {
	data, ok := im.readFile(rel)
	if !ok {
		return nil
	}
	text := string(data)
	blockBegin, blockEnd := agy.BlockHTMLComment.Markers()
	bi, ei := strings.Index(text, blockBegin+"\n"), strings.Index(text, "\n"+blockEnd)
	if bi < 0 || ei < 0 || ei < bi {
		if strings.TrimSpace(text) != "" {
			im.skip(rel, "", "no agyconf managed block: the text is yours and stays as it is (agyconf adds its block after it); move rules into rule blocks by hand if you want agyconf to own them")
		}
		return nil
	}
	outside := text[:bi] + text[ei+len(blockEnd)+1:]
	if strings.TrimSpace(outside) != "" {
		im.skip(rel, "", "the text outside agyconf's managed block is yours and stays as it is")
	}
	block := text[bi+len(blockBegin)+1 : ei+1]
	var rules []*model.Rule
	var cur *model.Rule
	var lines []string
	flush := func() {
		if cur != nil {
			cur.Body = normBody(strings.Join(lines, "\n"))
			rules = append(rules, cur)
		}
	}
	for _, ln := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if n, isHead := strings.CutPrefix(ln, "## "); isHead && entryNameProblem(n) == "" && (cur == nil || len(lines) == 0 || lines[len(lines)-1] == "") {
			flush()
			cur, lines = &model.Rule{Name: n, Trigger: model.TriggerAlwaysOn}, nil
			continue
		}
		lines = append(lines, ln)
	}
	flush()
	// Written back as render writes it: sorted, joined by blank lines.
	sorted := append([]*model.Rule(nil), rules...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b bytes.Buffer
	for i, r := range sorted {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "## %s\n\n%s\n", r.Name, r.Body)
	}
	if b.String() != block || len(rules) == 0 {
		im.skip(rel, "", "the managed block cannot be split into rules that render back to the same text (edited by hand?); it is not imported")
		return nil
	}
	for _, r := range rules {
		im.bodyPath[r] = join("rules", r.Name+".md")
	}
	return rules
}

// agents imports the subagents of an agents folder: <name>/agent.md, the
// form render writes, and the flat <name>.md, which agy may read too (the
// sources disagree, agy.Agents) and render writes in the folder form.
func (im *importer) agents(dir, outDir string) []*model.Agent {
	var out []*model.Agent
	folders := map[string]bool{}
	entries := im.listDir(dir)
	for _, e := range entries {
		if e.IsDir() && im.exists(join(dir, e.Name(), "agent.md")) {
			folders[e.Name()] = true
		}
	}
	k, _ := agy.KindOf(agy.Agents)
	for _, e := range entries {
		rel := join(dir, e.Name())
		var name, file string
		switch {
		case e.IsDir():
			name, file = e.Name(), k.ItemPath(dir, e.Name())
			if !folders[name] {
				im.skip(rel, "", "a folder without agent.md; agy reads a subagent from <name>/agent.md")
				continue
			}
			for _, f := range im.listDir(rel) {
				if f.Name() != "agent.md" {
					im.skip(join(rel, f.Name()), "", "agyconf writes only agent.md into a subagent's folder; this stays as it is, yours")
				}
			}
		default:
			n, isMD := strings.CutSuffix(e.Name(), ".md")
			if !isMD {
				im.skip(rel, "", "not a subagent file (<name>/agent.md, or the flat <name>.md)")
				continue
			}
			if folders[n] {
				im.skip(rel, "", "a flat file of the subagent %s, which %s also defines; that one is imported: delete this one, or agy may read both", n, k.ItemPath(dir, n))
				continue
			}
			name, file = n, rel
		}
		if p := entryNameProblem(name); p != "" {
			im.skip(rel, "", "the subagent name %q cannot be declared: %s", name, p)
			continue
		}
		if a := im.agent(file, name); a != nil {
			if file == rel && !e.IsDir() {
				im.conv(rel, "", "a flat subagent file; render writes it as %s, the form the CLI docs give: delete %s once that is in place, or agy may read both", k.ItemPath(dir, name), rel)
			}
			im.bodyPath[a] = join(outDir, name+".md")
			out = append(out, a)
		}
	}
	return out
}

// agent imports one subagent file: its frontmatter keys are agy's table
// (agy.AgentFields).
func (im *importer) agent(rel, name string) *model.Agent {
	m, body, ok := im.markdownFile(rel, true)
	if !ok {
		return nil
	}
	a := &model.Agent{Name: name, Body: body}
	if n, has := m["name"]; has && n != name {
		im.skip(rel, "", "the frontmatter names it %v, but the subagent is %s (its folder or file name); rename one of them", n, name)
		return nil
	} else if !has {
		im.conv(rel, "name", "missing; written as %q", name)
	}
	d, has, isStr := fmString(m, "description")
	if !has || !isStr || d == "" {
		im.skip(rel, "", "the frontmatter has no description, which a subagent needs")
		return nil
	}
	for _, key := range sortedKeys(m) {
		f, known := agy.AgentFieldOf(key)
		if !known {
			// A key agyconf does not know is carried over as it is.
			if raw, ok := im.extraMember(rel, key, pointer(key), key, m[key], true); ok {
				if a.Extra == nil {
					a.Extra = map[string]json.RawMessage{}
				}
				a.Extra[key] = raw
			}
			continue
		}
		if key == "name" {
			continue
		}
		v := m[key]
		switch dst := a.Value(key).(type) {
		case *string:
			s, ok := v.(string)
			if !ok || s == "" {
				im.skip(rel, key, "is not a non-empty string; not written")
				continue
			}
			*dst = s
		case *[]string:
			xs, ok := fmStrings(v)
			if !ok {
				im.skip(rel, key, "is not a list of strings; not written")
				continue
			}
			*dst = xs
		case **bool:
			b, ok := v.(bool)
			if !ok {
				im.skip(rel, key, "is not a boolean; not written")
				continue
			}
			*dst = &b
		default:
			panic(fmt.Sprintf("importer: agent frontmatter key %s has no field in model.Agent", key))
		}
		if since := f.Since(); since.Known() {
			im.needs(since)
		}
	}
	if body == "" {
		im.skip(rel, "", "the body (the system prompt) is empty")
		return nil
	}
	return a
}

// skillDirs imports skills: with product "both" in global scope from both
// folders, which render writes alike (agy.Skills).
func (im *importer) skillDirs() {
	dirs := im.l.Paths(agy.Skills)
	byName := map[string]*model.Skill{}
	from := map[string]string{}
	for _, dir := range dirs {
		for _, s := range im.skills(dir, "skills") {
			if prev, dup := byName[s.Name]; dup {
				if !sameSkill(prev, s) {
					im.skip(join(dir, s.Name), "", "differs from %s, which is imported; agyconf writes one skill to both folders", join(from[s.Name], s.Name))
				}
				continue
			}
			byName[s.Name], from[s.Name] = s, dir
		}
	}
	for _, n := range sortedKeys(byName) {
		for _, dir := range dirs {
			if dir != from[n] && !im.exists(join(dir, n)) && !im.exists(join(dir, n+".md")) {
				im.conv(join(from[n], n), "", "render writes it to %s too (product %q reads skills from both folders: agy.Skills)", dir, im.opts.Product)
			}
		}
		im.cfg.Skills = append(im.cfg.Skills, byName[n])
	}
}

// sameSkill reports whether two imported skills render alike.
func sameSkill(a, b *model.Skill) bool {
	if a.Description != b.Description || a.Body != b.Body || a.Icon != b.Icon || (a.DisableSlashCommand == nil) != (b.DisableSlashCommand == nil) || len(a.Files) != len(b.Files) {
		return false
	}
	if a.DisableSlashCommand != nil && *a.DisableSlashCommand != *b.DisableSlashCommand {
		return false
	}
	for i := range a.Files {
		if a.Files[i].Path != b.Files[i].Path || a.Files[i].SHA256 != b.Files[i].SHA256 || a.Files[i].Executable != b.Files[i].Executable {
			return false
		}
	}
	return true
}

// workflowDirs imports workflows: with product "both" from both folders,
// which render writes alike.
func (im *importer) workflowDirs() {
	dirs := im.l.Paths(agy.Workflows)
	byName := map[string]*model.Workflow{}
	from := map[string]string{}
	for _, dir := range dirs {
		for _, w := range im.workflows(dir) {
			if prev, dup := byName[w.Name]; dup {
				if prev.Body != w.Body || prev.Description != w.Description {
					im.skip(join(dir, w.Name+".md"), "", "differs from %s, which is imported; agyconf writes one workflow to both folders", join(from[w.Name], w.Name+".md"))
				}
				continue
			}
			byName[w.Name], from[w.Name] = w, dir
		}
	}
	for _, n := range sortedKeys(byName) {
		w := byName[n]
		for _, dir := range dirs {
			if dir != from[n] {
				if !im.exists(join(dir, n+".md")) {
					im.conv(join(from[n], n+".md"), "", "render writes it to %s too (product %q has both folders)", dir, im.opts.Product)
				}
			}
		}
		im.bodyPath[w] = join("workflows", n+".md")
		im.cfg.Workflows = append(im.cfg.Workflows, w)
	}
}

func (im *importer) workflows(dir string) []*model.Workflow {
	var out []*model.Workflow
	for _, e := range im.listDir(dir) {
		rel := join(dir, e.Name())
		name, isMD := strings.CutSuffix(e.Name(), ".md")
		if e.IsDir() || !isMD {
			im.skip(rel, "", "not a workflow file (<name>.md)")
			continue
		}
		if p := entryNameProblem(name); p != "" {
			im.skip(rel, "", "the workflow name %q cannot be declared: %s", name, p)
			continue
		}
		m, body, ok := im.markdownFile(rel, false)
		if !ok {
			continue
		}
		w := &model.Workflow{Name: name, Body: body}
		if d, has, isStr := fmString(m, "description"); has {
			if !isStr || d == "" {
				im.skip(rel, "description", "is not a non-empty string; not written")
			} else {
				w.Description = d
			}
		}
		im.unknownKeys(rel, m, "description")
		if !im.bodyOK(rel, body, agy.WorkflowBody) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// ignore imports the lines of .antigravityignore's managed block into an
// ignore block, in order. The lines outside it are the user's: they stay
// where they are and are not imported, since a render would then write
// them a second time inside agyconf's block.
func (im *importer) ignore(rel string) *model.Ignore {
	data, ok := im.readFile(rel)
	if !ok {
		return nil
	}
	block, outside, ok, err := apply.ManagedBlock(agy.BlockHashComment, data)
	if err != nil {
		im.skip(rel, "", "%v", err)
		return nil
	}
	if strings.TrimSpace(string(outside)) != "" {
		what := "the lines outside agyconf's managed block are yours and stay as they are"
		if !ok {
			what = "no agyconf managed block: the lines are yours and stay as they are (agyconf adds its block after them); move them into ignore { patterns = [ … ] } by hand if you want agyconf to own them"
		}
		im.skip(rel, "", "%s", what)
	}
	if !ok {
		return nil
	}
	ig := &model.Ignore{}
	for _, ln := range strings.Split(strings.TrimSuffix(string(block), "\n"), "\n") {
		if problem := agy.IgnoreLineProblem(ln); problem != "" {
			if strings.TrimSpace(ln) == "" {
				continue // render writes none; a blank line there was added by hand
			}
			im.skip(rel, "", "a line of agyconf's block %s; left out", problem)
			continue
		}
		ig.Patterns = append(ig.Patterns, ln)
	}
	if len(ig.Patterns) == 0 {
		return nil
	}
	return ig
}
