package importer

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/agyhook"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/config"

	"github.com/agyconf/agyconf/internal/model"
)

// legacyIDEMCP is the IDE's old global mcp_config.json, which MemPalace
// and others still document (MemPalace).
const legacyIDEMCP = ".gemini/antigravity/mcp_config.json"

func (im *importer) mcpFiles() {
	p, ok := im.path(agy.MCPConfig)
	if !ok {
		return
	}
	var servers []*model.MCPServer
	if doc, ok := im.readJSON(p, "mcp_config"); ok {
		servers = im.mcpServers(p, doc, "")
	}
	if im.opts.Scope == model.ScopeGlobal && im.opts.Product != model.ProductCLI && im.root == "" {
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
	im.cfg.MCPServers = append(im.cfg.MCPServers, servers...)
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
	raw, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit, "is not an object; agy drops it")
		return nil
	}
	// Every URL field, the ones agy ignores too, is searched for
	// credentials, so that none is printed anywhere (redactValues).
	str := func(k string) string { s, _ := raw[k].(string); return s }
	shownURL, urlCreds := map[string]string{}, map[string][]string{}
	for _, k := range []string{"serverUrl", "url", "httpUrl"} {
		if u := str(k); u != "" {
			shownURL[k], urlCreds[k] = im.urlSecrets(u)
		}
	}
	// The address agy reads, as serverUrl: url (agy reads it too) and
	// httpUrl (Gemini CLI's, which agy ignores) are written as serverUrl.
	m := make(map[string]any, len(raw))
	for k, x := range raw {
		m[k] = x
	}
	urlKey := "serverUrl"
	if _, has := m["serverUrl"]; !has {
		for _, k := range []string{"url", "httpUrl"} {
			if u, isStr := m[k].(string); isStr && u != "" {
				m["serverUrl"], urlKey = u, k
				delete(m, k)
				break
			}
		}
	}
	srv := &model.MCPServer{Name: name}
	secretsBefore := im.nSecrets
	for _, p := range codec.MCPServer().Decode(m, srv) {
		switch {
		case p.Drops:
			im.skip(file, unit, "%s %s; agy drops the server", p.Key, p.Reason)
			return nil
		case p.Key == "enabled":
			im.skip(file, unit+".enabled", "agy does not read enabled on a server (it runs whatever enabled says: %s); write disabled = true to turn it off", jsonText(m["enabled"]))
		case p.Key == "url" || p.Key == "httpUrl":
			im.skip(file, unit+"."+p.Key, "serverUrl wins over it; agy ignores it")
		default:
			im.skip(file, unit+"."+p.Key, "%s", p.Reason)
		}
	}
	for _, k := range sortedKeys(srv.Extra) {
		// A field agyconf does not know is carried over as it is, unless
		// it holds what looks like a credential.
		if _, ok := im.extraMember(file, unit+"."+k, pointer("mcpServers", name, k), k, raw[k], true); !ok {
			delete(srv.Extra, k)
		}
	}
	if len(srv.Extra) == 0 {
		srv.Extra = nil
	}
	bridged := srv.ServerURL == "" && im.readBridge(file, ns, unit, srv, m)
	if bridged {
		urlKey = "serverUrl"
		shownURL[urlKey], urlCreds[urlKey] = im.urlSecrets(srv.ServerURL)
	}
	if remoteURL := srv.ServerURL; remoteURL != "" {
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
		switch urlKey {
		case "url":
			im.conv(file, unit+".url", "written as serverUrl, the field agy reads first (agy reads url too: no change in behaviour)")
		case "httpUrl":
			im.conv(file, unit+".httpUrl", "written as serverUrl: agy does not read httpUrl, so this server connected nowhere until now")
		}
		// What only a local server has: agy uses the URL.
		for k, field := range map[string]bool{"command": srv.Command != "", "args": srv.Args != nil, "env": srv.Env != nil, "cwd": srv.Cwd != ""} {
			if field {
				im.skip(file, unit+"."+k, "a remote server (%s) ignores it: agy uses the URL", urlKey)
			}
		}
		srv.Command, srv.Args, srv.Env, srv.Cwd = "", nil, nil, ""
		if srv.Headers != nil && !bridged {
			srv.Headers = im.secretMap(file, ns, name, "headers", textMap(srv.Headers))
		}
		if srv.OAuth != nil {
			srv.OAuth = im.oauth(file, ns, name, unit+".oauth", srv.OAuth)
		}
		srv.SecretMode = model.SecretInline
		if bridged {
			// The bridge is what secret_mode "exec", the default, renders.
			srv.SecretMode = model.SecretExec
		}
	} else {
		if srv.Command == "" {
			im.skip(file, unit, "no command, serverUrl or url: agy loads it and never connects")
			return nil
		}
		for k, field := range map[string]bool{"headers": srv.Headers != nil, "authProviderType": srv.AuthProviderType != "", "oauth": srv.OAuth != nil} {
			if field {
				im.skip(file, unit+"."+k, "applies to remote servers only; this one has command")
			}
		}
		srv.Headers, srv.AuthProviderType, srv.OAuth = nil, "", nil
		args := texts(srv.Args)
		env := map[string]string{}
		for _, k := range sortedKeys(srv.Env) {
			if config.NameProblem(config.EnvName, k) != "" {
				im.skip(file, unit+".env."+k, "not a valid environment variable name")
				continue
			}
			env[k], _ = srv.Env[k].Literal()
		}
		hadEnv := srv.Env != nil
		srv.Args, srv.Env = nil, nil
		// skipped is how many live arguments the exec-env wrapping took:
		// states and jq address the live file's positions.
		skipped, wrapped := 0, false
		if wrapEnv, inner, innerArgs, err := codec.ReadExecEnv(args); err == nil && path.Base(srv.Command) == "agyhook" && printable(wrapEnv) &&
			im.wrappedLiterals(file, ns, name, "env", "--env", wrapEnv, args, 0) && im.tool(srv.Command, "agyhook", im.tools) {
			// agyconf's own exec-mode wrapping (secret_mode "exec"): the
			// server is what runs after "--", its secrets the files
			// exec-env reads.
			im.conv(file, unit+".command", "agyhook exec-env read back as the server it starts, its --env-file variables as secret_file() (never read)")
			srv.Command, srv.Env = inner, wrapEnv
			skipped, wrapped = len(args)-len(innerArgs), true
			args = innerArgs
			if len(args) == 0 {
				args = nil
			}
		}
		if args != nil || (!wrapped && raw["args"] != nil) {
			srv.Args = []model.Str{}
		}
		for i, why := range argReasons(args) {
			a := im.secretValue(argSlot(file, ns, name, skipped+i), args[i], why)
			if a == nil {
				im.skip(file, unit, "an argument holds a credential, which a workspace tree may not carry")
				return nil
			}
			srv.Args = append(srv.Args, a)
		}
		if hadEnv {
			for k, v := range im.secretMap(file, ns, name, "env", env) {
				if _, wrapped := srv.Env[k]; !wrapped {
					if srv.Env == nil {
						srv.Env = map[string]model.Str{}
					}
					srv.Env[k] = v
				}
			}
			if srv.Env == nil && len(env) == 0 {
				srv.Env = map[string]model.Str{}
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
	if d, isBool := m["disabled"].(bool); isBool && !d {
		im.conv(file, unit+".disabled", "false is the default and is left out")
	}
	if len(srv.EnabledTools) > 0 && srv.DisabledTools != nil {
		srv.DisabledTools = nil
		im.skip(file, unit+".disabledTools", "beside enabledTools, which is kept: agyconf writes one of the two lists, since no source says how agy combines them")
	}
	if srv.EnabledTools != nil {
		im.needs(agy.BehaviourOf(agy.MCPEnabledTools).Since)
	}
	if srv.TimeoutSeconds != nil {
		im.needs(agy.BehaviourOf(agy.MCPTimeoutSeconds).Since)
	}
	for name, t := range srv.Tools {
		if t.Eager == nil {
			im.skip(file, unit+".tools."+name, "has no boolean eager, the one tool setting agyconf writes")
			delete(srv.Tools, name)
		}
	}
	if srv.Tools != nil {
		if len(srv.Tools) == 0 {
			srv.Tools = nil
		} else {
			im.needs(agy.BehaviourOf(agy.MCPToolLoading).Since)
		}
	}
	return srv
}

// texts are the literal texts of Strs read from a live file.
func texts(xs []model.Str) []string {
	if xs == nil {
		return nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i], _ = x.Literal()
	}
	return out
}

// textMap is texts for a map.
func textMap(m map[string]model.Str) map[string]string {
	out := make(map[string]string, len(m))
	for k, x := range m {
		out[k], _ = x.Literal()
	}
	return out
}

// readBridge reads agyconf's bridge back: a local server that runs
// agyhook-bridge (or `agyhook bridge`) is the remote server it relays to,
// its --header-file headers secret_file() references to the files the
// bridge reads (never read here). A server with what the bridge's entry
// never has (env, cwd, a remote server's own fields), a URL holding a
// credential, or a header the input language cannot write, is left as it
// stands, a local server. The report says which, and why.
func (im *importer) readBridge(file, ns, unit string, srv *model.MCPServer, m map[string]any) bool {
	args := texts(srv.Args)
	program := agyhook.BridgeProgram
	if path.Base(srv.Command) == "agyhook" && len(args) > 0 && args[0] == "bridge" {
		program, args = "agyhook", args[1:]
	} else if path.Base(srv.Command) != agyhook.BridgeProgram {
		return false
	}
	headers, serverURL, err := codec.ReadBridge(args)
	if err != nil {
		return false
	}
	keep := func(why string) bool {
		im.conv(file, unit+".command", "runs %s but is kept as a local server: %s", program, why)
		return false
	}
	for _, k := range []string{"env", "cwd", "headers", "oauth", "authProviderType", "url", "httpUrl"} {
		if m[k] != nil {
			return keep(k + " is not a field of the bridge's entry (agyconf writes none)")
		}
	}
	if _, creds := im.urlSecrets(serverURL); len(creds) > 0 {
		return keep("its URL holds a credential, which server_url cannot read from a file")
	}
	if !printable(headers) {
		return keep("a header's parts cannot be written as a secret_file() template")
	}
	base := len(texts(srv.Args)) - len(args)
	if !im.wrappedLiterals(file, ns, srv.Name, "headers", "--header", headers, args, base) {
		return keep("a credential typed into a header spans several arguments")
	}
	if !im.tool(srv.Command, program, im.tools) {
		return keep("another " + program + " than the one the tools block names")
	}
	im.conv(file, unit+".command", "%s read back as the remote server it relays to (server_url %s), its --header-file headers as secret_file() (never read)", program, serverURL)
	srv.Command, srv.Args, srv.ServerURL, srv.Headers = "", nil, serverURL, headers
	return true
}

// wrappedLiterals judges the values of an agyhook wrapping that hold no
// secret file as env and headers are judged (a credential typed in by
// hand): one that is a credential moves into a secret file, read from its
// --env or --header argument (at base+index in the live file's args).
// false when such a value spans several arguments, which import cannot
// point at.
func (im *importer) wrappedLiterals(file, ns, server, field, flag string, values map[string]model.Str, args []string, base int) bool {
	for _, k := range sortedKeys(values) {
		v := values[k]
		text, ok := v.Literal()
		if !ok {
			continue
		}
		why := ""
		switch {
		case keySays(k):
			why = whyName
		case valueSays(text):
			why = whyValue
		}
		if why == "" || text == "" {
			continue
		}
		at := -1
		for i := 0; i+1 < len(args); i++ {
			if args[i] == flag && strings.HasPrefix(args[i+1], k+"=") {
				if at >= 0 || args[i+1] != k+"="+text {
					return false
				}
				at = i + 1
			}
		}
		if at < 0 {
			return false
		}
		s := argSlot(file, ns, server, base+at)
		s.unit, s.name = "mcpServers."+server+"."+field+"."+k, k
		s.jq += " | ltrimstr(" + jsonText(k+"=") + ")"
		nv := im.secretValue(s, text, why)
		if nv == nil {
			return false
		}
		values[k] = nv
	}
	return true
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

// oauth judges the client of a remote server's oauth: a client ID is
// public unless it looks like a credential or a state says it came from
// secret_file(); a client secret always is one.
func (im *importer) oauth(file, ns, server, unit string, o *model.OAuth) *model.OAuth {
	out := &model.OAuth{Enabled: o.Enabled}
	if o.ClientID == nil {
		im.skip(file, unit, "an oauth object without clientId cannot be declared")
		return nil
	}
	id, _ := o.ClientID.Literal()
	why := ""
	if valueSays(id) {
		why = whyValue
	}
	if out.ClientID = im.secretValue(keySlot(file, ns, server, "oauth", "clientId", "oauth-client-id"), id, why); out.ClientID == nil {
		return nil
	}
	if o.ClientSecret != nil {
		sec, _ := o.ClientSecret.Literal()
		if out.ClientSecret = im.secretValue(keySlot(file, ns, server, "oauth", "clientSecret", "oauth-client-secret"), sec, whyName); out.ClientSecret == nil {
			return nil
		}
	}
	return out
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
