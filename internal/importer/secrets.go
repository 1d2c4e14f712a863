package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/internal/shellquote"
)

// Which live values are credentials, and what import writes instead.
//
// A value is a credential when an agyconf state records it as read from
// secret_file() (Options.StateSecrets), or, wherever no state marks it —
// a hand-written entry, or one of agyconf's edited since — when the rule
// below says so. The rule is the one `agyconf import --help` states
// (docs/getting-started.md sends readers there); keep the two in step.

// Why a value is taken for a credential, for the report.
const (
	whyState  = "an agyconf state records it as read from secret_file()"
	whyName   = "its name says it is a credential"
	whyValue  = "its value looks like a credential"
	whyFlag   = "it sets a credential flag"
	whyHeader = "it is a credential header"
)

var (
	// secretKeyRe: an env, header or JSON key naming a credential. A
	// substring match, so GITHUB_PERSONAL_ACCESS_TOKEN and X-Api-Key
	// count; it also takes AUTHOR or KEYBOARD, a price paid in a value
	// moved to a file, never in a value printed.
	secretKeyRe = lazyre.New(`(?i)TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASSPHRASE|PASS(?:[^A-Za-z]|$)|[^A-Za-z]PWD(?:[^A-Za-z]|$)|AUTH|CREDENTIAL|COOKIE`)
	// bearerRe: a bearer token anywhere in a command line (curl -H
	// "Authorization: Bearer …").
	bearerRe = lazyre.New(`(?i)(?:^|[^A-Za-z0-9])bearer\s+[A-Za-z0-9._~+/=-]{12,}`)
	// headerInRe: a header "NAME: VALUE" anywhere in a command line,
	// quoted or not (curl -H 'X-Api-Key: …').
	headerInRe = lazyre.New(`([A-Za-z0-9-]+):[ \t]*[^\s'"]`)
	// assignRe: a variable set for the command (NAME=VALUE, export
	// NAME=VALUE).
	assignRe = lazyre.New(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=(?:'[^']+'|"[^"]+"|[^\s;&|'"]+)`)
	// userPassRe: curl's and wget's -u USER:PASSWORD, --user, --password.
	userPassRe = lazyre.New(`(?:^|\s)(?:-u|--user)[ =]?['"]?[^\s:'"]+:[^\s'"]+`)
	// secretValueRe: the shapes of common credentials. Prefixes must start
	// the value or follow a non-alphanumeric character and be followed by
	// enough token characters, so task-master-ai or disk-cache are not
	// taken for an sk- key.
	secretValueRe = lazyre.New(`^(?i:bearer|basic|token) \S` +
		`|(?:^|[^A-Za-z0-9])(?:` +
		`gh[pousr]_[A-Za-z0-9]{8,}` +
		`|github_pat_[A-Za-z0-9_]{8,}` +
		`|glpat-[A-Za-z0-9_-]{8,}` +
		`|sk-[A-Za-z0-9_-]{16,}` +
		`|xox[abpr]-[A-Za-z0-9-]{8,}` +
		`|(?:AKIA|ASIA)[0-9A-Z]{16}` +
		`|AIza[0-9A-Za-z_-]{20,}` +
		`|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}` +
		`)`)
	// credFlagWords: the last word of a command-line flag naming a
	// credential (--token, --api-key, --client-secret, --auth).
	credFlagWords = map[string]bool{
		"token": true, "secret": true, "key": true, "apikey": true, "password": true, "passwd": true, "pass": true,
		"pat": true, "credential": true, "credentials": true, "auth": true, "bearer": true,
	}
	flagRe = lazyre.New(`^--?([A-Za-z0-9][A-Za-z0-9_.-]*)$`)
	// headerArgRe: an argument that is a whole HTTP header, as mcp-remote's
	// --header takes it ("Authorization: Bearer …").
	headerArgRe = lazyre.New(`^([A-Za-z0-9-]+):\s*\S`)
	// tokenRunRe: the runs randomLooking judges, the base64 and base64url
	// alphabets plus "." (JWTs).
	tokenRunRe = lazyre.New(`[A-Za-z0-9+/=_.-]{24,}`)
	fileSafeRe = lazyre.New(`[^A-Za-z0-9._-]+`)
)

// keySays reports whether a key's name says its value is a credential.
func keySays(name string) bool { return secretKeyRe().MatchString(name) }

// valueSays reports whether a value looks like a credential whatever its
// key: a known shape, a random-looking run, a URL holding one
// (urlCredentials), or JSON (a jsonencode() arg) holding one, which makes
// the whole string secret.
func valueSays(v string) bool {
	if shapeSays(v) {
		return true
	}
	if strings.Contains(v, "://") {
		if _, where, _ := urlCredentials(v); len(where) > 0 {
			return true
		}
	}
	return jsonSays(v)
}

// commandSays reports whether a hook's command line holds a credential:
// a value valueSays, a bearer token, a user and password (-u USER:PASS),
// a header or a variable set for the command whose name keySays
// (X-Api-Key: …, API_KEY=…), or one of its words argReasons takes
// (--token VALUE).
func commandSays(cmd string) bool {
	if valueSays(cmd) || bearerRe().MatchString(cmd) || userPassRe().MatchString(cmd) {
		return true
	}
	for _, m := range headerInRe().FindAllStringSubmatch(cmd, -1) {
		if keySays(m[1]) {
			return true
		}
	}
	for _, m := range assignRe().FindAllStringSubmatch(cmd, -1) {
		if keySays(m[1]) {
			return true
		}
	}
	words := strings.Fields(cmd)
	for i, w := range words {
		words[i] = strings.Trim(w, `"'`)
	}
	for _, why := range argReasons(words) {
		if why != "" {
			return true
		}
	}
	return false
}

// shapeSays reports whether a value has a credential's shape or holds a
// random-looking run.
func shapeSays(v string) bool {
	if secretValueRe().MatchString(v) {
		return true
	}
	for _, run := range tokenRunRe().FindAllString(v, -1) {
		if randomLooking(run) {
			return true
		}
	}
	return false
}

// randomLooking reports whether a run of token characters reads as random
// rather than as words: at least 20 letters and digits, mixing lowercase,
// uppercase and digits, and at least 2 in 5 adjacent letter-or-digit pairs
// switching between those classes. Random base64 switches at about 3 in 5;
// a camelCase name, a path or a package name at 1 in 3 or less. Hex and
// lowercase-only strings (commit hashes, Nix store paths) never count.
func randomLooking(run string) bool {
	const lower, upper, digit = 1, 2, 4
	seen, prev, n, switches := 0, 0, 0, 0
	for i := 0; i < len(run); i++ {
		c := run[i]
		class := 0
		switch {
		case c >= 'a' && c <= 'z':
			class = lower
		case c >= 'A' && c <= 'Z':
			class = upper
		case c >= '0' && c <= '9':
			class = digit
		default:
			continue // separators neither count nor break a pair
		}
		if n > 0 && class != prev {
			switches++
		}
		seen |= class
		prev = class
		n++
	}
	return n >= 20 && seen == lower|upper|digit && switches*5 >= (n-1)*2
}

// jsonSays reports whether v is a JSON object or array holding a
// credential: a non-empty string or a number under a key keySays, or a
// string valueSays.
func jsonSays(v string) bool {
	t := strings.TrimSpace(v)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return false
	}
	var walk func(any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if keySays(k) {
					switch e := e.(type) {
					case string:
						if e != "" {
							return true
						}
					case json.Number:
						return true
					}
				}
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case string:
			return valueSays(x)
		}
		return false
	}
	return walk(doc)
}

// credFlag reports whether arg is a flag, without a value, naming a
// credential: --token, --api-key, -api_key.
func credFlag(arg string) bool {
	m := flagRe().FindStringSubmatch(arg)
	if m == nil {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(m[1]), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	return len(words) > 0 && credFlagWords[words[len(words)-1]]
}

// argReasons says, per argument, why it is a credential ("" when it is
// not): its value, --flag=VALUE with a credential flag, a credential
// header, or the value after a credential flag (unless it is a flag
// itself).
func argReasons(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" {
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		h := headerArgRe().FindStringSubmatch(a)
		switch {
		case valueSays(a):
			out[i] = whyValue
		case hasVal && val != "" && credFlag(name):
			out[i] = whyFlag
		case h != nil && keySays(h[1]):
			out[i] = whyHeader
		case i > 0 && !strings.HasPrefix(a, "-") && credFlag(args[i-1]):
			out[i] = "it follows " + args[i-1]
		}
	}
	return out
}

// slot is one string value of a server that may hold a credential.
type slot struct {
	file, ns, server string
	// unit names it in the report: mcpServers.github.env.TOKEN.
	unit string
	// name is its part of the secret file's name: TOKEN, arg1,
	// oauth-client-id.
	name string
	// ptr is its JSON pointer from the file's root, as states record it.
	ptr string
	// jq is the jq filter that reads it from the file.
	jq string
}

func argSlot(file, ns, server string, i int) slot {
	return slot{file: file, ns: ns, server: server,
		unit: fmt.Sprintf("mcpServers.%s.args[%d]", server, i), name: fmt.Sprintf("arg%d", i),
		ptr: pointer("mcpServers", server, "args", strconv.Itoa(i)), jq: jqFilter(server, "args", "", i)}
}

// keySlot is a value under a key: field is env, headers or oauth.
func keySlot(file, ns, server, field, key, name string) slot {
	return slot{file: file, ns: ns, server: server,
		unit: "mcpServers." + server + "." + field + "." + key, name: name,
		ptr: pointer("mcpServers", server, field, key), jq: jqFilter(server, field, key, 0)}
}

// pointer is the RFC 6901 JSON pointer of a path of keys, as render
// spells it.
func pointer(keys ...string) string { return render.Pointer(keys...) }

// jqFilter is the jq filter reading one value of an mcp_config.json:
// mcpServers[server][field][key], or [idx] for an argument.
func jqFilter(server, field, key string, idx int) string {
	q := func(s string) string { b, _ := json.Marshal(s); return "[" + string(b) + "]" }
	f := ".mcpServers" + q(server) + q(field)
	if key != "" {
		return f + q(key)
	}
	return f + fmt.Sprintf("[%d]", idx)
}

func (im *importer) secretMap(file, ns, server, field string, m map[string]string) map[string]model.Str {
	unit := "mcpServers." + server + "." + field
	headers := field == "headers"
	if len(m) == 0 {
		// An empty object is a member too: written back as it was.
		return map[string]model.Str{}
	}
	out := map[string]model.Str{}
	for _, k := range sortedKeys(m) {
		if headers {
			if p := headerNameProblem(k); p != "" {
				im.skip(file, unit+"."+k, "%s", p)
				continue
			}
		}
		why := ""
		switch {
		case keySays(k):
			why = whyName
		case valueSays(m[k]):
			why = whyValue
		}
		if v := im.secretValue(keySlot(file, ns, server, field, k, k), m[k], why); v != nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// secretValue returns v as a Str, or, when it is a credential (a state
// records it, or why says so), a secret_file() reference and a report
// item: with Options.Out, to a file under Out/secrets that Result.Files
// holds; without, to a placeholder path, the item giving the command that
// creates it from the live file. In workspace scope, where secret_file()
// is refused, it returns nil and a not-imported item.
func (im *importer) secretValue(s slot, v, why string) model.Str {
	if v == "" {
		return model.Str{{Text: v}}
	}
	if im.state()[s.file][s.ptr] {
		why = whyState
	}
	if why == "" {
		return model.Str{{Text: v}}
	}
	im.values = append(im.values, v)
	if im.opts.Scope == model.ScopeWorkspace {
		im.skip(s.file, s.unit, "a credential (%s); a workspace tree is committed and agyconf refuses secret_file() there: move the server to a global config", why)
		return nil
	}
	name := s.server + "-" + s.name
	if s.ns != "" {
		name = s.ns + "-" + name
	}
	name = fileSafeRe().ReplaceAllString(name, "_")
	p := filepath.Join(im.opts.SecretDir, name)
	for i := 2; im.secretFiles[p] != ""; i++ {
		p = filepath.Join(im.opts.SecretDir, fmt.Sprintf("%s-%d", name, i))
	}
	im.nSecrets++
	im.secretFiles[p] = v
	if im.opts.Out != "" {
		rel, err := filepath.Rel(im.opts.Out, p)
		if err == nil && filepath.IsLocal(rel) {
			im.files[filepath.ToSlash(rel)] = File{Data: secretFileData(v), Secret: true}
			im.items = append(im.items, Item{Kind: KindSecret, Path: s.file, Unit: s.unit,
				Reason: fmt.Sprintf("value not printed (%s); written to %s (mode 0600), which the config reads with secret_file()", why, p)})
			return model.Str{{SecretFile: p}}
		}
	}
	filter := s.jq
	if strings.HasSuffix(v, "\n") || strings.HasSuffix(v, "\r") {
		// What secretFileData appends, so that secret_file() reads
		// the line ending back.
		filter += ` + "\r\n"`
	}
	cmd := fmt.Sprintf("(umask 077 && mkdir -p %s && jq -j %s %s > %s)",
		shellquote.Quote(filepath.Dir(p)), shellquote.Quote(filter), shellquote.Quote(im.abs(s.file)), shellquote.Quote(p))
	im.items = append(im.items, Item{Kind: KindSecret, Path: s.file, Unit: s.unit,
		Reason:  fmt.Sprintf("value not printed (%s); the config reads it with secret_file(%q): create that file (mode 0600) holding the value", why, p),
		Command: cmd})
	return model.Str{{SecretFile: p}}
}

// secretFileData is what a secret file holds so that secret_file() reads
// v back: secret_file() drops one "\n" and then one "\r" at the end, so a
// value that itself ends with either gets "\r\n" after it.
func secretFileData(v string) []byte {
	if strings.HasSuffix(v, "\n") || strings.HasSuffix(v, "\r") {
		return []byte(v + "\r\n")
	}
	return []byte(v)
}

// stateSet indexes Options.StateSecrets: file, then pointer.
func stateSet(m map[string][]string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for f, ptrs := range m {
		set := map[string]bool{}
		for _, p := range ptrs {
			set[p] = true
		}
		out[f] = set
	}
	return out
}

// readsSecrets reports whether a config calls secret_file() anywhere, so
// that it is written mode 0600.
func readsSecrets(cfg *model.Config) bool {
	servers := append([]*model.MCPServer(nil), cfg.MCPServers...)
	for _, p := range cfg.Plugins {
		servers = append(servers, p.MCPServers...)
	}
	for _, s := range servers {
		strs := append(append(append([]model.Str(nil), s.Args...), mapValues(s.Env)...), mapValues(s.Headers)...)
		if s.OAuth != nil {
			strs = append(strs, s.OAuth.ClientID, s.OAuth.ClientSecret)
		}
		for _, v := range strs {
			if v.HasSecret() {
				return true
			}
		}
	}
	return false
}

// jsonEscapes are the ways encoding/json may write v inside a JSON
// string, HTML characters escaped (json.Marshal) or not (agyconf's
// encoder, and most hand-written files).
func jsonEscapes(v string) []string {
	enc, _ := json.Marshal(v)
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	plain := strings.TrimSuffix(b.String(), "\n")
	return []string{string(enc[1 : len(enc)-1]), plain[1 : len(plain)-1]}
}

// urlSecrets is urlCredentials for a server's URL: each credential it
// finds joins the values redacted from everything the import prints.
//
// The input language has no secret_file() in server_url, so a server
// whose URL holds one cannot be imported faithfully: the caller reports
// it, and writes nothing of it.
func (im *importer) urlSecrets(raw string) (shown string, where []string) {
	shown, where, values := urlCredentials(raw)
	im.values = append(im.values, values...)
	return shown, where
}

// urlCredentials finds the credentials a URL holds, by the same rule: the
// userinfo's password, or a user name the value rule calls a credential
// ("URL userinfo"); a query parameter whose key names a credential and
// whose value is not empty, or whose value looks like one ("query
// parameter KEY"); a path segment that looks like one ("path segment");
// the fragment, judged as a query ("URL fragment"). It works on the text
// as written, so that a URL that does not parse is redacted too, and
// returns the URL with each credential replaced by <secret>, for messages,
// what each is, and the credentials themselves, as written and decoded.
func urlCredentials(raw string) (shown string, where, values []string) {
	secret := func(v string) string {
		for _, x := range []string{v, unescape(v), queryUnescape(v)} {
			if x != "" && !slices.Contains(values, x) {
				values = append(values, x)
			}
		}
		return render.Placeholder
	}
	// Every part judged is shorter than raw, so valueSays, which calls
	// back here for a URL inside a part, ends.
	says := func(part string) bool { return part != raw && valueSays(part) }
	rest, frag, hasFrag := strings.Cut(raw, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	var b strings.Builder
	// The authority: after "scheme://", up to the path.
	if i := strings.Index(rest, "//"); i >= 0 && !strings.Contains(rest[:i], "/") {
		b.WriteString(rest[:i+2])
		rest = rest[i+2:]
		auth, path := rest, ""
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			auth, path = rest[:j], rest[j:]
		}
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			user, pass, hasPass := strings.Cut(auth[:at], ":")
			found := false
			if says(user) || says(unescape(user)) {
				user, found = secret(user), true
			}
			if hasPass && pass != "" {
				pass, found = secret(pass), true
			}
			if found {
				where = append(where, "URL userinfo")
			}
			b.WriteString(user)
			if hasPass {
				b.WriteString(":" + pass)
			}
			b.WriteString(auth[at:])
		} else {
			b.WriteString(auth)
		}
		rest = path
	}
	segs := strings.Split(rest, "/")
	found := false
	for i, seg := range segs {
		if seg != "" && (says(seg) || says(unescape(seg))) {
			segs[i], found = secret(seg), true
		}
	}
	if found {
		where = append(where, "path segment")
	}
	b.WriteString(strings.Join(segs, "/"))
	// A query, and a fragment read as one (#access_token=… in OAuth's
	// implicit flow): key=value pairs split at & or ;.
	params := func(q string, name func(key string) string) string {
		var out strings.Builder
		start := 0
		for i := 0; i <= len(q); i++ {
			if i < len(q) && q[i] != '&' && q[i] != ';' {
				continue
			}
			part := q[start:i]
			key, val, hasVal := strings.Cut(part, "=")
			switch {
			case says(key) || says(queryUnescape(key)) || (!hasVal && says(part)):
				// The key itself is the credential: nothing of it is named.
				out.WriteString(secret(part))
				where = append(where, name(""))
			case hasVal && val != "" && (keySays(queryUnescape(key)) || says(val) || says(queryUnescape(val))):
				out.WriteString(key + "=" + secret(val))
				where = append(where, name(queryUnescape(key)))
			default:
				out.WriteString(part)
			}
			if i < len(q) {
				out.WriteByte(q[i])
			}
			start = i + 1
		}
		return out.String()
	}
	if hasQuery {
		b.WriteString("?" + params(query, func(k string) string {
			if k == "" {
				return "query parameter"
			}
			return "query parameter " + k
		}))
	}
	if hasFrag {
		b.WriteString("#" + params(frag, func(string) string { return "URL fragment" }))
	}
	shown = b.String()
	if len(where) == 0 && shapeSays(shown) {
		// Somewhere the parts above do not look (the host, the port): the
		// whole URL is the credential.
		return secret(raw), []string{"URL"}, values
	}
	return shown, dedupe(where), values
}

// unescape is a URL part percent-decoded, or as written when it does not
// decode.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// queryUnescape is a query part decoded ("+" a space), or as written
// when it does not decode.
func queryUnescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// dedupe drops repeated strings, keeping the first of each.
func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// CredentialValues lists the values of an mcp_config.json document (as
// encoding/json decodes it) that import would take for credentials —
// an MCP server's env, headers, oauth or args value by the rules above,
// and the credentials a server URL holds — for a diff to redact wherever
// they appear: a user's own entries, which no secret_file() marks, are
// shown in CI logs too. Each value is listed raw and as JSON escapes it.
func CredentialValues(doc any) []string {
	var out []string
	add := func(v string) {
		for _, x := range append([]string{v}, jsonEscapes(v)...) {
			if x != "" && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	top, _ := doc.(map[string]any)
	servers, _ := top["mcpServers"].(map[string]any)
	for _, sv := range servers {
		s, _ := sv.(map[string]any)
		for _, field := range []string{"env", "headers", "oauth"} {
			m, _ := s[field].(map[string]any)
			for k, v := range m {
				if str, ok := v.(string); ok && str != "" && (keySays(k) || valueSays(str) || (field == "oauth" && k == "clientSecret")) {
					add(str)
				}
			}
		}
		if args, ok := s["args"].([]any); ok {
			strs := make([]string, len(args))
			for i, a := range args {
				strs[i], _ = a.(string)
			}
			for i, why := range argReasons(strs) {
				if why != "" {
					add(strs[i])
				}
			}
		}
		for _, field := range []string{"serverUrl", "url", "httpUrl"} {
			if u, ok := s[field].(string); ok {
				_, _, values := urlCredentials(u)
				for _, v := range values {
					add(v)
				}
			}
		}
	}
	return out
}

// HookCredentialValues lists the command lines of a hooks.json document
// (as encoding/json decodes it) that hold a credential (commandSays),
// raw and as JSON escapes them: a hook's command has no secret_file(),
// so the whole line is what a diff leaves out.
func HookCredentialValues(doc any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "command" && commandSays(s) {
					for _, y := range append([]string{s}, jsonEscapes(s)...) {
						if !slices.Contains(out, y) {
							out = append(out, y)
						}
					}
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}
