package importer

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"

	"github.com/agyconf/agyconf/internal/model"
)

// legacyIDEMCP is the IDE's old global mcp_config.json, which MemPalace
// and others still document (reference §1).
const legacyIDEMCP = ".gemini/antigravity/mcp_config.json"

func (im *importer) mcpFiles() {
	p, ok := im.l.Path(agy.MCPConfig)
	if !ok {
		return
	}
	var servers []*model.MCPServer
	if doc, ok := im.readJSON(p, "mcp_config"); ok {
		servers = im.mcpServers(p, doc, "")
	}
	if im.opts.Scope == model.ScopeGlobal && im.opts.Product != model.ProductCLI {
		if doc, ok := im.readJSONOther(legacyIDEMCP, "mcp_config"); ok {
			have := map[string]bool{}
			for _, s := range servers {
				have[s.Name] = true
			}
			for _, s := range im.mcpServers(legacyIDEMCP, doc, "") {
				if have[s.Name] {
					im.skip(legacyIDEMCP, "mcpServers."+s.Name, "%s declares a server of the same name, which is imported instead", p)
					continue
				}
				im.conv(legacyIDEMCP, "mcpServers."+s.Name, "read from the IDE's legacy file; agyconf writes it to %s (add agyconf { layout { legacy_mcp_config = %q } } to keep writing the old file too)", p, legacyIDEMCP)
				servers = append(servers, s)
			}
		}
	}
	im.cfg.MCPServers = servers
}

var mcpKnown = map[string]bool{
	"command": true, "args": true, "env": true, "cwd": true, "serverUrl": true, "url": true, "httpUrl": true,
	"type": true, "headers": true, "authProviderType": true, "oauth": true, "disabled": true,
	"disabledTools": true, "enabled": true, "enabledTools": true, "timeoutSeconds": true, "tools": true,
}

// mcpServers imports the servers of one mcp_config.json; ns is the
// plugin's name for a plugin's file.
func (im *importer) mcpServers(file string, doc any, ns string) []*model.MCPServer {
	root, ok := doc.(map[string]any)
	if !ok {
		im.skip(file, "", "the top level is not an object: agy refuses the file at startup")
		return nil
	}
	for _, k := range sortedKeys(root) {
		if k != "mcpServers" {
			im.skip(file, k, "not a key of mcp_config.json; agy ignores it")
		}
	}
	all, ok := root["mcpServers"].(map[string]any)
	if !ok {
		if root["mcpServers"] != nil {
			im.skip(file, "mcpServers", "is not an object; agy reads no server from this file")
		}
		return nil
	}
	var out []*model.MCPServer
	for _, name := range sortedKeys(all) {
		if s := im.mcpServer(file, ns, name, all[name]); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (im *importer) mcpServer(file, ns, name string, v any) *model.MCPServer {
	unit := "mcpServers." + name
	if p := entryNameProblem(name); p != "" {
		im.skip(file, unit, "the server name cannot be declared: %s", p)
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit, "is not an object; agy drops it")
		return nil
	}
	// Type violations agy answers by dropping the server (reference §3).
	for _, k := range []string{"command", "serverUrl", "url", "httpUrl", "cwd", "authProviderType"} {
		if x, has := m[k]; has {
			if _, isStr := x.(string); !isStr {
				im.skip(file, unit, "%s is not a string; agy drops the server", k)
				return nil
			}
		}
	}
	for _, k := range []string{"args", "disabledTools"} {
		if x, has := m[k]; has {
			if _, ok := stringList(x); !ok {
				im.skip(file, unit, "%s is not a list of strings; agy drops the server", k)
				return nil
			}
		}
	}
	for _, k := range []string{"env", "headers"} {
		if x, has := m[k]; has {
			if _, ok := stringMap(x); !ok {
				im.skip(file, unit, "%s is not an object of strings; agy drops the server", k)
				return nil
			}
		}
	}
	if a, has := m["authProviderType"]; has && a != "google_credentials" {
		im.skip(file, unit, "authProviderType %q: agy accepts only \"google_credentials\" and drops the server", a)
		return nil
	}
	var extra map[string]json.RawMessage
	for _, k := range sortedKeys(m) {
		if mcpKnown[k] {
			continue
		}
		// A field agyconf does not know is carried over as it is.
		if raw, ok := im.extraMember(file, unit+"."+k, pointer("mcpServers", name, k), k, m[k], true); ok {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = raw
		}
	}
	if e, has := m["enabled"]; has {
		im.skip(file, unit+".enabled", "agy does not read enabled on a server (it runs whatever enabled says: %v); write disabled = true to turn it off", jsonText(e))
	}

	srv := &model.MCPServer{Name: name, Extra: extra}
	secretsBefore := im.nSecrets
	str := func(k string) string { s, _ := m[k].(string); return s }
	// Every URL field, the ones agy ignores too, is searched for
	// credentials, so that none is printed anywhere (redactValues).
	shownURL, urlCreds := map[string]string{}, map[string][]string{}
	for _, k := range []string{"serverUrl", "url", "httpUrl"} {
		if u := str(k); u != "" {
			shownURL[k], urlCreds[k] = im.urlSecrets(u)
		}
	}
	remoteURL, urlKey := str("serverUrl"), "serverUrl"
	if remoteURL == "" && str("url") != "" {
		remoteURL, urlKey = str("url"), "url"
	}
	if remoteURL == "" && str("httpUrl") != "" {
		remoteURL, urlKey = str("httpUrl"), "httpUrl"
	}
	if remoteURL != "" {
		if u, err := url.Parse(remoteURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
			// Quoted with its credentials redacted: url.Parse's own
			// error would quote them.
			im.skip(file, unit, "%s %q is not an absolute http or https URL", urlKey, shownURL[urlKey])
			return nil
		}
		if creds := urlCreds[urlKey]; len(creds) > 0 {
			// server_url cannot read a secret_file(): a header can.
			where := ""
			if im.opts.Scope == model.ScopeWorkspace {
				where = ", in a global config (a workspace tree may not carry secret_file())"
			}
			im.skip(file, unit, "%s %q holds a credential (%s); move it into a header (headers = { Authorization = \"Bearer ${secret_file(…)}\" })%s and import again",
				urlKey, shownURL[urlKey], strings.Join(creds, ", "), where)
			return nil
		}
	}
	switch urlKey {
	case "url":
		im.conv(file, unit+".url", "written as serverUrl, the field agy reads first (agy reads url too: no change in behaviour)")
	case "httpUrl":
		im.conv(file, unit+".httpUrl", "written as serverUrl: agy does not read httpUrl, so this server connected nowhere until now")
	}
	if urlKey == "serverUrl" {
		for _, k := range []string{"url", "httpUrl"} {
			if _, has := m[k]; has {
				im.skip(file, unit+"."+k, "serverUrl wins over it; agy ignores it")
			}
		}
	}
	if _, has := m["type"]; has {
		im.skip(file, unit+".type", "not written: agyconf writes remote servers as serverUrl, which needs no type")
	}
	if remoteURL != "" {
		srv.ServerURL = remoteURL
		for _, k := range []string{"command", "args", "env", "cwd"} {
			if _, has := m[k]; has {
				im.skip(file, unit+"."+k, "a remote server (%s) ignores it: agy uses the URL", urlKey)
			}
		}
		if h, has := m["headers"]; has {
			hm, _ := stringMap(h)
			srv.Headers = im.secretMap(file, ns, name, "headers", hm)
		}
		if a := str("authProviderType"); a != "" {
			srv.AuthProviderType = a
		}
		if o, has := m["oauth"]; has {
			srv.OAuth = im.oauth(file, ns, name, unit+".oauth", o)
		}
		srv.SecretMode = model.SecretInline
	} else {
		cmd := str("command")
		if cmd == "" {
			im.skip(file, unit, "no command, serverUrl or url: agy loads it and never connects")
			return nil
		}
		srv.Command = cmd
		rawArgs, _ := stringList(m["args"])
		// skipped is how many live arguments the exec-env wrapping took:
		// states and jq address the live file's positions.
		skipped, wrapped := 0, false
		if inner, innerArgs, env, ok := unwrapExecEnv(cmd, rawArgs); ok && im.tool(cmd, "agyhook", im.tools) {
			// agyconf's own exec-mode wrapping (secret_mode "exec"): the
			// server is what runs after "--", its secrets the files
			// exec-env reads.
			im.conv(file, unit+".command", "agyhook exec-env read back as the server it starts, its --env-file variables as secret_file()")
			srv.Command = inner
			srv.Env = env
			m = withArgs(m, innerArgs)
			skipped, wrapped = len(rawArgs)-len(innerArgs), true
		}
		if a, has := m["args"]; has {
			args, _ := stringList(a)
			if len(args) == 0 {
				im.conv(file, unit+".args", "an empty list is left out")
			}
			for i, why := range argReasons(args) {
				srv.Args = append(srv.Args, im.secretValue(argSlot(file, ns, name, skipped+i), args[i], why))
			}
			for _, a := range srv.Args {
				if a == nil {
					im.skip(file, unit, "an argument holds a credential, which a workspace tree may not carry")
					return nil
				}
			}
		}
		if e, has := m["env"]; has {
			em, _ := stringMap(e)
			env := map[string]string{}
			for _, k := range sortedKeys(em) {
				if config.NameProblem(config.EnvName, k) != "" {
					im.skip(file, unit+".env."+k, "not a valid environment variable name")
					continue
				}
				env[k] = em[k]
			}
			for k, v := range im.secretMap(file, ns, name, "env", env) {
				if _, wrapped := srv.Env[k]; !wrapped {
					if srv.Env == nil {
						srv.Env = map[string]model.Str{}
					}
					srv.Env[k] = v
				}
			}
			if len(em) == 0 {
				im.conv(file, unit+".env", "an empty object is left out")
			}
		}
		if c := str("cwd"); c != "" {
			srv.Cwd = c
		} else if _, has := m["cwd"]; has {
			im.conv(file, unit+".cwd", "an empty cwd is left out")
		}
		for _, k := range []string{"headers", "authProviderType", "oauth"} {
			if _, has := m[k]; has {
				im.skip(file, unit+"."+k, "applies to remote servers only; this one has command")
			}
		}
		if im.nSecrets > secretsBefore && (!wrapped || hasSecret(srv.Args)) {
			// Inline keeps the file as agy reads it today, now mode
			// 0600; drop secret_mode for agyhook exec-env instead. A
			// server agyconf wrapped stays exec, so that the secrets
			// exec-env reads are not written into the file: a credential
			// left in its env moves into the wrapping too (a secret in
			// args cannot, so such a server is inline whatever it costs).
			srv.SecretMode = model.SecretInline
		} else if im.nSecrets > secretsBefore {
			im.conv(file, unit+".env", "a credential in env moves into the agyhook exec-env wrapping on the next render, beside the others")
		}
	}
	if d, has := m["disabled"]; has {
		b, ok := d.(bool)
		if !ok {
			im.skip(file, unit+".disabled", "is not a boolean")
		}
		srv.Disabled = b
		if ok && !b {
			im.conv(file, unit+".disabled", "false is the default and is left out")
		}
	}
	if d, has := m["disabledTools"]; has {
		tools, _ := stringList(d)
		if len(tools) == 0 {
			im.conv(file, unit+".disabledTools", "an empty list is left out")
		} else {
			srv.DisabledTools = tools
		}
	}
	im.serverTools(file, unit, m, srv)
	return srv
}

// serverTools imports what only newer agy builds read of a server —
// enabledTools, timeoutSeconds, tools.<tool>.eager — and raises the
// config's agy_version to the build that reads it.
func (im *importer) serverTools(file, unit string, m map[string]any, srv *model.MCPServer) {
	if v, has := m["enabledTools"]; has {
		tools, ok := stringList(v)
		switch {
		case !ok:
			im.skip(file, unit+".enabledTools", "is not a list of strings")
		case len(tools) == 0:
			im.conv(file, unit+".enabledTools", "an empty list is left out")
		default:
			srv.EnabledTools = tools
			im.needs(agy.BehaviourOf(agy.MCPEnabledTools).Since)
			if len(srv.DisabledTools) > 0 {
				srv.DisabledTools = nil
				im.skip(file, unit+".disabledTools", "beside enabledTools, which is kept: agyconf writes one of the two lists, since no source says how agy combines them")
			}
		}
	}
	if v, has := m["timeoutSeconds"]; has {
		n, err := strconv.Atoi(fmt.Sprint(v))
		if _, isNum := v.(json.Number); !isNum || err != nil || n < -1 || n == 0 || n > 1<<31-1 {
			im.skip(file, unit+".timeoutSeconds", "%s is not a number of seconds or -1", jsonText(v))
		} else {
			srv.TimeoutSeconds = &n
			im.needs(agy.BehaviourOf(agy.MCPTimeoutSeconds).Since)
		}
	}
	v, has := m["tools"]
	if !has {
		return
	}
	tools, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit+".tools", "is not an object of tools")
		return
	}
	for _, name := range sortedKeys(tools) {
		u := unit + ".tools." + name
		t, ok := tools[name].(map[string]any)
		if !ok {
			if _, isBool := tools[name].(bool); isBool && name == "eager" {
				im.skip(file, u, "the server-wide reading of tools.eager; agyconf writes the per-tool one, tools.<tool>.eager (the only reading under which writing it cannot cost the server)")
				continue
			}
			im.skip(file, u, "is not an object of the tool's settings")
			continue
		}
		for _, k := range sortedKeys(t) {
			if k != "eager" {
				im.skip(file, u+"."+k, "a tool setting the input language does not know; it is not written")
			}
		}
		e, isBool := t["eager"].(bool)
		if !isBool {
			im.skip(file, u, "has no boolean eager, the one tool setting agyconf writes")
			continue
		}
		if srv.Tools == nil {
			srv.Tools = map[string]*model.MCPTool{}
		}
		srv.Tools[name] = &model.MCPTool{Eager: &e}
		im.needs(agy.BehaviourOf(agy.MCPToolLoading).Since)
	}
}

// unwrapExecEnv reads `agyhook exec-env [--env VAR=TEXT | --env-file
// VAR=PATH]... -- COMMAND ARGS...` back into the server it starts: its
// command, its args, and each variable's parts in order (text, or a secret
// file). ok is false for anything else, which is imported as it stands.
func unwrapExecEnv(cmd string, args []string) (inner string, innerArgs []string, env map[string]model.Str, ok bool) {
	if path.Base(cmd) != "agyhook" || len(args) < 3 || args[0] != "exec-env" {
		return "", nil, nil, false
	}
	env = map[string]model.Str{}
	i := 1
	for ; i < len(args) && args[i] != "--"; i += 2 {
		if i+1 >= len(args) {
			return "", nil, nil, false
		}
		name, val, found := strings.Cut(args[i+1], "=")
		if !found || config.NameProblem(config.EnvName, name) != "" {
			return "", nil, nil, false
		}
		switch args[i] {
		case "--env":
			env[name] = append(env[name], model.Part{Text: val})
		case "--env-file":
			if !strings.HasPrefix(val, "/") {
				return "", nil, nil, false
			}
			env[name] = append(env[name], model.Part{SecretFile: val})
		default:
			return "", nil, nil, false
		}
	}
	if i+1 >= len(args) || args[i+1] == "" {
		return "", nil, nil, false
	}
	return args[i+1], args[i+2:], env, true
}

func hasSecret(strs []model.Str) bool {
	for _, s := range strs {
		if s.HasSecret() {
			return true
		}
	}
	return false
}

// withArgs is m with its args replaced.
func withArgs(m map[string]any, args []string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	delete(out, "args")
	if len(args) > 0 {
		list := make([]any, len(args))
		for i, a := range args {
			list[i] = a
		}
		out["args"] = list
	}
	return out
}

func (im *importer) oauth(file, ns, server, unit string, v any) *model.OAuth {
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit, "is not an object")
		return nil
	}
	o := &model.OAuth{}
	for _, k := range sortedKeys(m) {
		s, isStr := m[k].(string)
		switch {
		case k != "clientId" && k != "clientSecret":
			im.skip(file, unit+"."+k, "unknown key; the input language has only clientId and clientSecret")
		case !isStr:
			im.skip(file, unit+"."+k, "is not a string")
		case k == "clientId":
			// A client ID is public unless it looks like a credential
			// or a state says it came from secret_file().
			why := ""
			if valueSays(s) {
				why = whyValue
			}
			if o.ClientID = im.secretValue(keySlot(file, ns, server, "oauth", k, "oauth-client-id"), s, why); o.ClientID == nil {
				return nil
			}
		default:
			o.ClientSecret = im.secretValue(keySlot(file, ns, server, "oauth", k, "oauth-client-secret"), s, whyName)
			if o.ClientSecret == nil {
				return nil
			}
		}
	}
	if o.ClientID == nil {
		im.skip(file, unit, "an oauth object without clientId cannot be declared")
		return nil
	}
	return o
}

func stringList(v any) ([]string, bool) {
	xs, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
