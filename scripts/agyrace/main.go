// Command agyrace measures how many of agy's writes to a shared file a
// loop of renders loses (docs/design.md, "Applying"; issue 29): agy
// toggles "disabled" of a server in mcp_config.json, reading the file and
// writing it back, as fast as it can, while agyconf renders two configs
// in turn into the same root, each render changing the file (one entry
// added, another pruned). A write of agy's is lost when agy reads the
// file next and its server no longer holds what it wrote: only agy sets
// that value, and agyconf keeps it, so only a rename of agyconf's built
// on an earlier read can undo it.
//
//	go run ./scripts/agyrace [-bin agyconf] [-seconds 40] [-mode rename|inplace] [-server user|agyconf]
//
// -mode says how agy writes: a temporary file renamed over the target,
// or the target truncated and written in place (a reader can then see it
// half written). -server says whose server agy toggles: the user's own,
// or one agyconf wrote whose config does not set "disabled" (agyconf
// carries agy's value into what it writes). It prints agy's writes, the
// lost ones, the renders and the renders that failed. Standard library
// only.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	bin := flag.String("bin", "agyconf", "the agyconf binary")
	seconds := flag.Float64("seconds", 40, "how long to race")
	mode := flag.String("mode", "rename", "how agy writes: rename or inplace")
	server := flag.String("server", "user", "whose server agy toggles: user or agyconf")
	flag.Parse()
	if *mode != "rename" && *mode != "inplace" || *server != "user" && *server != "agyconf" {
		flag.Usage()
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "agyrace-")
	check(err)
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "home")
	file := filepath.Join(root, ".gemini/config/mcp_config.json")
	check(os.MkdirAll(filepath.Dir(file), 0o755))
	check(os.WriteFile(file, []byte("{\n  \"mcpServers\": {\n    \"u\": {\"command\": \"users-own\"}\n  }\n}\n"), 0o644))
	var cfgs []string
	for i, servers := range [][]string{{"a", "b"}, {"a", "c"}} {
		cfg := filepath.Join(dir, fmt.Sprintf("cfg%d", i))
		check(os.MkdirAll(cfg, 0o755))
		text := "agyconf { instance = \"race\" }\n"
		for _, s := range servers {
			text += fmt.Sprintf("mcp_server %q {\n  command = \"%s-server\"\n}\n", s, s)
		}
		check(os.WriteFile(filepath.Join(cfg, "agyconf.hcl"), []byte(text), 0o644))
		cfgs = append(cfgs, cfg)
	}
	// The first render, so that agyconf's server is there to toggle.
	if out, err := exec.Command(*bin, "render", "-q", "--config", cfgs[0], "--root", root).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "agyrace: the first render: %v\n%s", err, out)
		os.Exit(1)
	}
	target := "u"
	if *server == "agyconf" {
		target = "a"
	}

	deadline := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	var stop atomic.Bool
	var renders, failed atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			out, err := exec.Command(*bin, "render", "-q", "--config", cfgs[i%2], "--root", root).CombinedOutput()
			renders.Add(1)
			if err != nil {
				if failed.Add(1) <= 3 {
					fmt.Fprintf(os.Stderr, "agyrace: a render failed: %v\n%s", err, out)
				}
			}
		}
	}()

	var writes, lost, unreadable int
	var last *bool // what agy last wrote
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(file)
		if err != nil {
			unreadable++
			continue
		}
		var doc map[string]any
		if json.Unmarshal(data, &doc) != nil {
			unreadable++ // agyconf renames whole files: only agy's own in-place write, half done
			continue
		}
		servers, _ := doc["mcpServers"].(map[string]any)
		srv, _ := servers[target].(map[string]any)
		if srv == nil {
			unreadable++
			continue
		}
		now, _ := srv["disabled"].(bool)
		if last != nil && now != *last {
			lost++
		}
		next := !now
		srv["disabled"] = next
		out, err := json.MarshalIndent(doc, "", "  ")
		check(err)
		out = append(out, '\n')
		if *mode == "rename" {
			tmp := file + ".agy-tmp"
			check(os.WriteFile(tmp, out, 0o644))
			check(os.Rename(tmp, file))
		} else {
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_TRUNC, 0o644)
			check(err)
			// In two writes, as a program writing a buffer in parts does.
			half := len(out) / 2
			_, err = f.Write(out[:half])
			check(err)
			_, err = f.Write(out[half:])
			check(err)
			check(f.Close())
		}
		writes++
		last = &next
		// agy does other things between two writes.
		time.Sleep(500 * time.Microsecond)
	}
	stop.Store(true)
	wg.Wait()
	final, _ := os.ReadFile(file)
	fmt.Printf("mode %s, server %s, %.0f s: %d agy writes, %d lost (%.4f%%); %d renders, %d failed; %d reads skipped (torn or without the server)\n",
		*mode, *server, *seconds, writes, lost, 100*float64(lost)/float64(max(writes, 1)), renders.Load(), failed.Load(), unreadable)
	if !bytes.Contains(final, []byte(`"`+target+`"`)) {
		fmt.Fprintf(os.Stderr, "agyrace: the server agy toggled is gone:\n%s", final)
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "agyrace:", err)
		os.Exit(2)
	}
}
