package agyhook

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseInterval(t *testing.T) {
	for in, want := range map[string]int{
		"": 15, "2": 2, "007": 7, "0": 15, "000": 15, "-3": 15, "+3": 15,
		" 3": 15, "3 ": 15, "abc": 15, "1.5": 15, "1e3": 15, "30": 30,
		"99999999999999999999999": 15, "0001": 1,
	} {
		if got := parseInterval(in); got != want {
			t.Errorf("parseInterval(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestParseOptionsPrecedence(t *testing.T) {
	env := Env{Home: "/h", Getenv: func(k string) string {
		return map[string]string{"MEMPAL_SAVE_INTERVAL": "4", "MEMPAL_STATE_DIR": "/env/state"}[k]
	}}
	o, err := parseOptions(saveHook, nil, env)
	if err != nil || o.interval != 4 || o.stateDir != "/env/state" || o.mempalace != "" {
		t.Errorf("env: %+v %v", o, err)
	}
	o, err = parseOptions(saveHook, []string{"--interval", "2", "--state-dir", "/flag/state", "--mempalace", "/x/mp"}, env)
	if err != nil || o.interval != 2 || o.stateDir != "/flag/state" || o.mempalace != "/x/mp" {
		t.Errorf("flags: %+v %v", o, err)
	}
	o, err = parseOptions(saveHook, []string{"--interval=junk"}, env)
	if err != nil || o.interval != 15 {
		t.Errorf("garbage flag falls back to the default, not to env: %+v %v", o, err)
	}
	o, err = parseOptions(saveHook, nil, Env{Home: "/h"})
	if err != nil || o.interval != 15 || o.stateDir != "/h/.mempalace/hook_state" {
		t.Errorf("defaults: %+v %v", o, err)
	}
	for _, args := range [][]string{{"--bogus"}, {"extra"}, {"-h"}, {"--interval"}} {
		if _, err := parseOptions(saveHook, args, env); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	if _, err := parseOptions(wakeHook, []string{"--interval", "3"}, env); err == nil {
		t.Error("wake accepted --interval")
	}
}

func TestParsePayload(t *testing.T) {
	p, err := parsePayload([]byte(`{"conversationId":"c1","workspacePaths":["/a/b"],"transcriptPath":"/t.jsonl","invocationNum":3,"fullyIdle":true,"terminationReason":"NO_TOOL_CALL","modelName":"x","extra":{"deep":[1,2]}}`))
	if err != nil || p.ConversationID != "c1" || p.InvocationNum != 3 || !p.FullyIdle || p.TerminationReason != "NO_TOOL_CALL" || p.WorkspacePaths[0] != "/a/b" {
		t.Fatalf("%+v %v", p, err)
	}
	p, err = parsePayload([]byte(`{"conversationId":"c1"}`))
	if err != nil || p.InvocationNum != 0 || p.FullyIdle {
		t.Errorf("protojson omits zero values: %+v %v", p, err)
	}
	for in, want := range map[string]nonNegInt{
		`{"invocationNum":"7"}`: 7, `{"invocationNum":-4}`: 0, `{"invocationNum":"-4"}`: 0,
		`{"invocationNum":2.0}`: 2, `{"invocationNum":1e30}`: 1<<63 - 1, `{"invocationNum":null}`: 0,
	} {
		p, err := parsePayload([]byte(in))
		if err != nil || p.InvocationNum != want {
			t.Errorf("%s: %d %v, want %d", in, p.InvocationNum, err, want)
		}
	}
	for _, in := range []string{
		``, `null`, `[]`, `"x"`, `1`, `{`, `{"a":1} {}`, `{"a":1}x`,
		`{"invocationNum":1.5}`, `{"invocationNum":"x"}`, `{"invocationNum":true}`,
		`{"fullyIdle":"true"}`, `{"conversationId":5}`, `{"workspacePaths":"/a"}`,
	} {
		if _, err := parsePayload([]byte(in)); err == nil {
			t.Errorf("%q: accepted", in)
		}
	}
}

func TestValidConversationID(t *testing.T) {
	good := []string{"a", "0f8c-11ee.be56_x", strings.Repeat("a", 128), "..", "."}
	bad := []string{"", strings.Repeat("a", 129), "a/b", "../x", "a b", "a\x00", "é", "a\n"}
	for _, id := range good {
		if !validConversationID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range bad {
		if validConversationID(id) {
			t.Errorf("%q accepted", id)
		}
	}
}

func TestWingFor(t *testing.T) {
	for _, c := range []struct {
		ws   []string
		want string
	}{
		{nil, "wing_sessions"},
		{[]string{}, "wing_sessions"},
		{[]string{""}, "wing_sessions"},
		{[]string{"/"}, "wing_sessions"},
		{[]string{"/home/me/My Project"}, "wing_my_project"},
		{[]string{"/home/me/my-project/"}, "wing_my_project"},
		{[]string{"/home/me/Café+Ünï.v2"}, "wing_caf___n_.v2"},
		{[]string{"/a/$(rm -rf ~)"}, "wing___rm__rf___"},
		{[]string{"relative"}, "wing_relative"},
		{[]string{"/x/first", "/y/second"}, "wing_first"},
	} {
		if got := wingFor(c.ws); got != c.want {
			t.Errorf("wingFor(%q) = %q, want %q", c.ws, got, c.want)
		}
	}
}

func TestKillSwitches(t *testing.T) {
	f := newFixture(t)
	if why := saveDisabled(f.env()); why != "" {
		t.Fatalf("enabled home disabled: %s", why)
	}
	for _, c := range []struct {
		k, v string
		save bool // save disabled
		wake bool // wake disabled
	}{
		{"MEMPAL_DISABLE_HOOK", "1", true, true},
		{"MEMPAL_DISABLE_HOOK", "YES", true, true},
		{"MEMPAL_DISABLE_HOOK", "0", false, false},
		{"MEMPAL_DISABLE_HOOK", "Yes", false, false},
		{"MEMPALACE_HOOKS_AUTO_SAVE", "false", true, false},
		{"MEMPALACE_HOOKS_AUTO_SAVE", "NO", true, false},
		{"MEMPALACE_HOOKS_AUTO_SAVE", "true", false, false},
	} {
		f.vars = map[string]string{c.k: c.v}
		if got := saveDisabled(f.env()) != ""; got != c.save {
			t.Errorf("%s=%s: save disabled %v", c.k, c.v, got)
		}
		if got := wakeDisabled(f.env()) != ""; got != c.wake {
			t.Errorf("%s=%s: wake disabled %v", c.k, c.v, got)
		}
	}
	f.vars = map[string]string{}
	cfg := filepath.Join(f.home, ".mempalace", "config.json")
	for body, off := range map[string]bool{
		`{"hooks":{"auto_save":false}}`:     true,
		`{"hooks": {"auto_save" : false }}`: true,
		`{"hooks":{"auto_save":true}}`:      false,
		`{"hooks":{"auto_save":"false"}}`:   false,
		`{"hooks":false}`:                   false,
		`{"hooks":{"auto_save":false}`:      false, // invalid JSON does not disable
		`not json`:                          false,
		`{"Hooks":{"auto_save":false}}`:     false,
	} {
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := saveDisabled(f.env()) != ""; got != off {
			t.Errorf("config %s: save disabled %v", body, got)
		}
		if wakeDisabled(f.env()) != "" {
			t.Errorf("config %s disabled wake", body)
		}
	}
	if os.Getuid() != 0 { // root reads mode-0 files
		if err := os.WriteFile(cfg, []byte(`{"hooks":{"auto_save":false}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(cfg, 0); err != nil {
			t.Fatal(err)
		}
		if saveDisabled(f.env()) != "" {
			t.Error("an unreadable config.json disabled saving")
		}
	}
	os.Remove(cfg)
	if err := os.Remove(filepath.Join(f.home, ".mempalace")); err != nil {
		t.Fatal(err)
	}
	if saveDisabled(f.env()) == "" || wakeDisabled(f.env()) == "" {
		t.Error("missing ~/.mempalace does not disable")
	}
	if err := os.WriteFile(filepath.Join(f.home, ".mempalace"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if saveDisabled(f.env()) == "" {
		t.Error("~/.mempalace as a file does not disable")
	}
	if !mempalaceDirMissing("") {
		t.Error("no home does not disable")
	}
}

func TestCounter(t *testing.T) {
	dir := t.TempDir()
	for want := 1; want <= 3; want++ {
		if n, err := bumpCounter(dir, "c"); err != nil || n != want {
			t.Fatalf("bump = %d %v, want %d", n, err, want)
		}
	}
	path := filepath.Join(dir, countPrefix+"c")
	for _, garbled := range []string{"x7", "", "-2", "1.5", "99999999999999999999999"} {
		if err := os.WriteFile(path, []byte(garbled), 0o600); err != nil {
			t.Fatal(err)
		}
		if n, _ := bumpCounter(dir, "c"); n != 1 {
			t.Errorf("garbled %q: bump = %d, want 1", garbled, n)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("counter mode: %v %v", fi.Mode(), err)
	}
	// Overlapping Stop hooks of one conversation must not lose counts.
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := bumpCounter(dir, "race"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := readCount(filepath.Join(dir, countPrefix+"race")); n != 40 {
		t.Errorf("concurrent bumps: %d, want 40", n)
	}
}

func TestPendingMarker(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	m := filepath.Join(dir, pendingPrefix+"c")
	if pendingBusy(m, now) {
		t.Fatal("missing marker is busy")
	}
	if ok, err := claimPending(dir, m, "tok1", now); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if !pendingBusy(m, now) || !pendingBusy(m, now.Add(59*time.Minute)) {
		t.Error("fresh marker not busy")
	}
	if ok, _ := claimPending(dir, m, "tok2", now); ok {
		t.Error("claimed over a fresh marker")
	}
	// Stale by mtime: reclaimed.
	old := now.Add(-61 * time.Minute)
	if err := os.Chtimes(m, old, old); err != nil {
		t.Fatal(err)
	}
	if pendingBusy(m, now) {
		t.Error("stale marker busy")
	}
	if ok, err := claimPending(dir, m, "tok2", now); !ok || err != nil {
		t.Fatalf("reclaim: %v %v", ok, err)
	}
	if releasePending(m, "tok1") {
		t.Error("the first mine removed the marker of the second")
	}
	if !releasePending(m, "tok2") {
		t.Error("owner could not release")
	}
	if _, err := os.Stat(m); !os.IsNotExist(err) {
		t.Error("marker left after release")
	}
	// A marker far in the future (clock jumped back) is stale.
	if err := os.WriteFile(m, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	future := now.Add(48 * time.Hour)
	if err := os.Chtimes(m, future, future); err != nil {
		t.Fatal(err)
	}
	if pendingBusy(m, now) {
		t.Error("future marker busy")
	}
}

func TestCheckTranscript(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "transcript_full.jsonl")
	goodJSON := filepath.Join(dir, "t.json")
	for _, p := range []string{good, goodJSON} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(good, filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{good, goodJSON, filepath.Join(dir, "link.jsonl")} {
		if err := checkTranscript(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for p, why := range map[string]string{
		"":                   "empty",
		"transcript.jsonl":   "not absolute",
		"./transcript.jsonl": "not absolute",
		dir + "/../" + filepath.Base(dir) + "/t.json": ".. segment",
		dir + "/x/../transcript_full.jsonl":           ".. segment",
		dir + "/transcript_full.jsonl.txt":            "does not end",
		dir + "/transcript_full.JSONL":                "does not end",
		dir + "/missing.jsonl":                        "does not exist",
		dir + "/d.jsonl":                              "not a regular file",
		dir + "/a\x00.jsonl":                          "NUL",
	} {
		err := checkTranscript(p)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", p, err, why)
		}
	}
	// ".." inside a name is not a segment.
	odd := filepath.Join(dir, "a..b.jsonl")
	if err := os.WriteFile(odd, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := checkTranscript(odd); err != nil {
		t.Errorf("%s: %v", odd, err)
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	ttl := 30 * 24 * time.Hour
	old := now.Add(-31 * 24 * time.Hour)
	young := now.Add(-28 * 24 * time.Hour)
	mk := func(name string, dirEntry bool, mt time.Time) {
		p := filepath.Join(dir, name)
		var err error
		if dirEntry {
			err = os.Mkdir(p, 0o700)
		} else {
			err = os.WriteFile(p, []byte("1"), 0o600)
		}
		if err == nil {
			err = os.Chtimes(p, mt, mt)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	mk(countPrefix+"old", false, old)
	mk(pendingPrefix+"old", false, old)
	mk(wokePrefix+"old", true, old)
	mk(countPrefix+"young", false, young)
	mk(wokePrefix+"young", true, young)
	mk(logName, false, old)
	mk("unrelated_old", false, old)

	ran, removed, err := sweep(dir, now, ttl)
	if !ran || removed != 3 || err != nil {
		t.Fatalf("sweep: ran %v removed %d err %v", ran, removed, err)
	}
	for _, gone := range []string{countPrefix + "old", pendingPrefix + "old", wokePrefix + "old"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s survived", gone)
		}
	}
	for _, kept := range []string{countPrefix + "young", wokePrefix + "young", logName, "unrelated_old", sweepName} {
		if _, err := os.Lstat(filepath.Join(dir, kept)); err != nil {
			t.Errorf("%s removed: %v", kept, err)
		}
	}
	// Within a day of the last sweep nothing runs.
	mk(countPrefix+"old2", false, old)
	if ran, _, _ := sweep(dir, now.Add(23*time.Hour), ttl); ran {
		t.Error("swept twice in a day")
	}
	if ran, removed, _ := sweep(dir, now.Add(25*time.Hour), ttl); !ran || removed != 1 {
		t.Errorf("next day: ran %v removed %d", ran, removed)
	}
}

func TestStateTTL(t *testing.T) {
	for in, days := range map[string]int{"": 30, "7": 7, "0": 30, "x": 30} {
		env := Env{Getenv: func(string) string { return in }}
		if got := stateTTL(env); got != time.Duration(days)*24*time.Hour {
			t.Errorf("%q: %v", in, got)
		}
	}
}

func TestWakeMessage(t *testing.T) {
	if got := wakeMessage([]byte("  hi\n")); got != "hi" {
		t.Errorf("%q", got)
	}
	if got := wakeMessage([]byte("a\xffb")); got != "a\uFFFDb" {
		t.Errorf("%q", got)
	}
	long := strings.Repeat("é", maxWakeMessage) // 2 bytes each
	got := wakeMessage([]byte(long))
	if len(got) > maxWakeMessage || !strings.HasPrefix(long, got) || len(got) < maxWakeMessage-1 {
		t.Errorf("cut to %d bytes", len(got))
	}
}

func TestCappedBuffer(t *testing.T) {
	c := &cappedBuffer{max: 5}
	for i := 0; i < 3; i++ {
		if n, err := c.Write([]byte("abc")); n != 3 || err != nil {
			t.Fatal(n, err)
		}
	}
	if string(c.b) != "abcab" {
		t.Errorf("%q", c.b)
	}
}

func BenchmarkParsePayload10MB(b *testing.B) {
	data := []byte(`{"conversationId":"c","pad":"` + strings.Repeat("x", 10<<20) + `","fullyIdle":true}`)
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := parsePayload(data); err != nil {
			b.Fatal(err)
		}
	}
}
