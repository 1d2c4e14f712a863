// Package templates embeds the text templates of the markdown documents
// agyconf writes: skills, rules, subagents, workflows and the managed block
// of the global rules file. Keeping them as files lets a reader see the
// exact shape of the output without reading Go.
package templates

import (
	"embed"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Parse returns every template, named by file name ("skill.md.tmpl").
func Parse() (*template.Template, error) {
	return template.New("").Option("missingkey=error").ParseFS(files, "*.tmpl")
}
