package importer

import (
	"bytes"
	"cmp"
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
	"github.com/agyconf/agyconf/internal/codec"
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

// frontmatterExtra keeps the members of extra that hold no credential;
// each other one is reported and left out (extraMember, by name too).
func (im *importer) frontmatterExtra(rel string, extra map[string]json.RawMessage, m map[string]any) map[string]json.RawMessage {
	return im.keepExtra(rel, extra, m, true)
}

// keepExtra keeps the members of extra that hold no credential, judged by
// value and, with byName, by key; each other one is reported and left out.
func (im *importer) keepExtra(rel string, extra map[string]json.RawMessage, m map[string]any, byName bool) map[string]json.RawMessage {
	for _, k := range sortedKeys(extra) {
		if _, ok := im.extraMember(rel, k, pointer(k), k, m[k], byName); !ok {
			delete(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	return extra
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
		if e.IsDir() && entryNameProblem(e.Name()) == "" {
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

func (im *importer) skill(rel, dirName, outDir string, pre *skillRead) *model.Skill {
	if p := entryNameProblem(dirName); p != "" {
		im.skip(rel, "", "the skill folder %q cannot be declared: %s", dirName, p)
		return nil
	}
	name := dirName
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
	if n, has := m["name"]; has {
		// agy names the skill by its frontmatter, whatever its folder.
		s, isStr := n.(string)
		if !isStr {
			im.skip(md, "", "the frontmatter's name is not a string")
			return nil
		}
		name = s
	}
	if p := skillNameProblem(name); p != "" {
		im.skip(rel, "", "the skill name %q cannot be declared: %s", name, p)
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
	if name != dirName {
		s.Folder = dirName
	}
	extraKeys := im.skillKeys(rel, m, s)
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
		im.bodyPath[s] = join(outDir, dirName+".md")
		return s
	}
	for _, f := range files {
		if l := agy.LimitOf(agy.SkillBody); f.Path == "SKILL.md" && l.Exceeds(string(f.Data)) {
			im.skip(md, "", "the file is %d %s; %s, so agyconf refuses more", l.Measure(string(f.Data)), l.Unit, l.Summary)
			return nil
		}
	}
	// The folder is copied as it is, SKILL.md's keys with it.
	s.Icon, s.DisableSlashCommand, s.Extra = "", nil, nil
	s.Files, s.Source = files, im.abs(rel)
	switch {
	case im.opts.Out != "":
		src := join(outDir, dirName)
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

// skillKeys reads a SKILL.md's frontmatter into s through the codec's
// table (name and description are the caller's), keys it does not know
// into extra, and reports whether something is left that only copying the
// folder as it is keeps (a metadata with more than an icon, a value of
// another type).
func (im *importer) skillKeys(rel string, m map[string]any, s *model.Skill) (copyFolder bool) {
	name, desc := s.Name, s.Description
	for _, p := range codec.Skill().Decode(m, s) {
		if p.Key != "name" && p.Key != "description" {
			copyFolder = true
		}
	}
	for _, f := range agy.SkillFields() {
		if v, ok := s.Value(f.Key()).(*string); ok && *v != "" {
			im.needs(f.Since())
		}
		if v, ok := s.Value(f.Key()).(**bool); ok && *v != nil {
			im.needs(f.Since())
		}
	}
	s.Name, s.Description = name, desc
	s.Extra = im.frontmatterExtra(rel, s.Extra, m)
	return copyFolder
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
	if im.skillKeys(rel, m, s) {
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
		im.dropEmpty(rel, m, "description", "globs")
		if g, isList := m["globs"].([]any); isList {
			if xs, ok := fmStrings(g); ok {
				im.conv(rel, "globs", "a list; written as one comma-separated string, the form Antigravity reads")
				m["globs"] = strings.Join(xs, ",")
			}
		}
		// Exactly as it was: no trigger invented (render writes none for
		// a rule that has none), every other key kept in extra.
		r := &model.Rule{Name: name, Body: body}
		bad := false
		for _, p := range codec.Rule().Decode(m, r) {
			im.skip(rel, p.Key, "%s", p.Reason)
			bad = bad || p.Key == "trigger" || p.Key == "globs"
		}
		if bad {
			continue
		}
		if g, isStr := m["globs"].(string); isStr && g != strings.Join(r.Globs, ",") {
			im.conv(rel, "globs", "written as %q (spaces and empty parts dropped)", strings.Join(r.Globs, ","))
		}
		if r.Trigger == model.TriggerGlob && len(r.Globs) == 0 {
			im.skip(rel, "", "trigger glob without globs")
			continue
		}
		if r.Trigger == model.TriggerModelDecision && r.Description == "" {
			im.skip(rel, "", "trigger model_decision without a description")
			continue
		}
		r.Extra = im.frontmatterExtra(rel, r.Extra, m)
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

// dropEmpty leaves out the keys of a rule's or workflow's frontmatter
// written with no value ("globs:" with nothing after it, as Windsurf
// writes every rule, and many .agents/rules copied from it) or a blank
// one, and says so. YAML reads the first as null; a decoder of typed
// fields reads either as no value, and no source has agy drop such a
// rule (validate warns: rule/empty-value). The model holds no key that
// is there but empty, as render never writes one.
func (im *importer) dropEmpty(rel string, m map[string]any, keys ...string) {
	for _, k := range keys {
		v, has := m[k]
		if s, isStr := v.(string); has && (v == nil || isStr && strings.TrimSpace(s) == "") {
			delete(m, k)
			im.conv(rel, k, "written with no value, which agy reads as none; left out")
		}
	}
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
	for _, f := range agy.AgentFields() {
		// Other tools' agent files write a list as one comma-separated
		// string, which agy's typed decoder does not read (lint's
		// agent/schema: the agent is dropped): written as the list.
		if str, isStr := m[f.Key].(string); isStr && f.Type == agy.FieldStrings && !f.ShapeUnknown {
			var xs []any
			for _, x := range strings.Split(str, ",") {
				if x = strings.TrimSpace(x); x != "" {
					xs = append(xs, x)
				}
			}
			m[f.Key] = xs
			im.conv(rel, f.Key, "one comma-separated string, which agy's typed decoder does not read (the subagent is dropped: agyconf validate, agent/schema); written as a list of %d", len(xs))
		}
	}
	for _, p := range codec.Agent().Decode(m, a) {
		if p.Key == "name" || p.Key == "description" {
			continue
		}
		im.skip(rel, p.Key, "%s; not written", p.Reason)
	}
	a.Name, a.Description = name, d
	for _, f := range agy.AgentFields() {
		if f.Key == "name" || f.Key == "description" {
			continue
		}
		if _, set := codecGet(a, f.Key); set {
			if since := f.Since(); since.Known() {
				im.needs(since)
			}
		}
	}
	a.Extra = im.frontmatterExtra(rel, a.Extra, m)
	if body == "" {
		im.skip(rel, "", "the body (the system prompt) is empty")
		return nil
	}
	return a
}

// skillDirs imports skills: with product "both" in global scope from both
// folders, which render writes alike (agy.Skills).
func (im *importer) skillDirs() {
	dirs := im.paths(agy.Skills)
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
	// The places agy reads skills from that agyconf does not write
	// (~/.gemini/skills/): imported, and written where agyconf writes.
	k, _ := agy.KindOf(agy.Skills)
	elsewhere := map[string]bool{}
	for _, r := range k.Reads {
		if r.Scope != im.opts.Scope || im.root != "" && im.root != agy.WorkspaceRoots()[0].Path {
			continue
		}
		for _, s := range im.skills(r.Path, "skills") {
			if _, dup := byName[s.Name]; dup {
				im.skip(join(r.Path, cmp.Or(s.Folder, s.Name)), "", "%s also holds a skill of this name, which is imported: agy reads both (%s), and which one wins is unknown", from[s.Name], r.Source)
				continue
			}
			byName[s.Name], from[s.Name], elsewhere[s.Name] = s, r.Path, true
			im.conv(join(r.Path, cmp.Or(s.Folder, s.Name)), "", "a skill agy reads here too (%s): render writes it to %s, %s; remove it here once that is in place, or agy loads it twice", r.Source, strings.Join(dirs, " and "), r.Why)
		}
	}
	for _, n := range sortedKeys(byName) {
		for _, dir := range dirs {
			if dir != from[n] && !elsewhere[n] && !im.exists(join(dir, n)) && !im.exists(join(dir, n+".md")) {
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
	dirs := im.paths(agy.Workflows)
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
		im.dropEmpty(rel, m, "description")
		w := &model.Workflow{Name: name, Body: body}
		for _, p := range codec.Workflow().Decode(m, w) {
			im.skip(rel, p.Key, "%s; not written", p.Reason)
		}
		w.Extra = im.frontmatterExtra(rel, w.Extra, m)
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

// codecGet reports whether the agent sets a frontmatter key.
func codecGet(a *model.Agent, key string) (any, bool) {
	for _, m := range codec.Agent().Members(a) {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}
