package agy

// ACPAuthMethod is one way the ACP server (agy_acp_server) signs in:
// auth.type in its settings.json, or the ACP authenticate method.
type ACPAuthMethod struct {
	Name    string
	Summary string
	// TokenFile is the file the server keeps the sign-in of an OAuth
	// method in, beside its settings.json; "" for a method that reads the
	// environment.
	TokenFile string
	// FormerName is accepted but not written: the server calls it still
	// accepted.
	FormerName bool
	Source     Source
}

// ACPTokens is the source of the token files and of the sign-in wait.
func ACPTokens() Source {
	return Source{ThirdParty, "a reading of agy_acp_server 1.3.0: paths.consumer_token_path and business_token_path, and _ensure_oauth_logged_in, which waits up to 300 s"}
}

// ACPSignInWait is how long, in seconds, a session/new waits for an
// interactive browser sign-in when auth.type names an OAuth method and no
// token is stored: a headless client hangs that long.
const ACPSignInWait = 300

// ACPHome is the source of the fact that the ACP server honours
// $GEMINI_HOME: the folder it calls the Gemini home (default ~/.gemini),
// holding antigravity-acp/ (the server's settings.json, its tokens, its
// conversations). The agy CLI itself has no such override (antigravity-cli #155, open; omnigent uses a hidden --gemini_dir flag).
func ACPHome() Source {
	return Source{Probe, "agy_acp_server_20260818_01_RC01: \"Gemini home resolved to …/.gemini (default; $GEMINI_HOME is unset)\" (pi-antigravity-bridge, sections 3.3 and 3.5)"}
}

func acpAuthMethods() []ACPAuthMethod {
	server := Source{Probe, "agy_acp_server_20260818_01_RC01, its authenticate methods and its error message (pi-antigravity-bridge, sections 3.3 and 3.6)"}
	return []ACPAuthMethod{
		{Name: "oauth-personal", Summary: "a Google account, signed in in the browser", TokenFile: "acp_token.json", Source: server},
		{Name: "oauth-business", Summary: "a Gemini Enterprise account; needs a Google Cloud project and location", TokenFile: "acp_business_token.json", Source: server},
		{Name: "gemini-api-key", Summary: "an API key of the Gemini Developer API, from GEMINI_API_KEY", Source: server},
		{Name: "agent-platform", Summary: "Gemini Enterprise Agent Platform (formerly Vertex AI): GOOGLE_API_KEY, or a project and location", Source: server},
		{Name: "vertex-ai", Summary: "agent-platform's former name, \"still accepted\"", FormerName: true, Source: server},
	}
}

// ACPAuthMethods lists the sign-in methods, in the order the server
// lists them.
func ACPAuthMethods() []ACPAuthMethod { return acpAuthMethods() }

// ACPAuthMethodOf finds a method by name.
func ACPAuthMethodOf(name string) (ACPAuthMethod, bool) {
	for _, m := range acpAuthMethods() {
		if m.Name == name {
			return m, true
		}
	}
	return ACPAuthMethod{}, false
}
