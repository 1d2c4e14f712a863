package jsonmerge

import "github.com/agyconf/agyconf/internal/agy"

// AgySyntax is the JSON agy reads in the documents of the named schema
// ("mcp_config", "hooks", …) in some build (internal/agy's table): what
// agyconf reads in a live file and keeps there, byte for byte. Which build
// reads which construct is the checker's business (lint, against an agy
// version); agyconf itself never writes a comment, a trailing comma or a
// byte order mark.
func AgySyntax(schema string) Syntax {
	_, comments := agy.JSONAccepts(schema, agy.Comments)
	_, commas := agy.JSONAccepts(schema, agy.TrailingCommas)
	_, bom := agy.JSONAccepts(schema, agy.BOM)
	return Syntax{Comments: comments, TrailingCommas: commas, BOM: bom}
}
