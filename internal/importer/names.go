package importer

import "github.com/agyconf/agyconf/internal/config"

// The naming rules of the input language (docs/config.md, "Names"), as the
// decoder applies them: a live name that breaks one could not be declared,
// so its unit is not imported.

func entryNameProblem(name string) string  { return config.NameProblem(config.EntryName, name) }
func pluginNameProblem(name string) string { return config.NameProblem(config.PluginName, name) }
func skillNameProblem(name string) string  { return config.NameProblem(config.SkillName, name) }
func headerNameProblem(name string) string { return config.NameProblem(config.HeaderName, name) }
func matcherProblem(m string) string       { return config.NameProblem(config.Matcher, m) }
