// Command benchdriver times agyhook's no-op paths against minhook, a Go
// program that only decodes stdin and prints {}. Runs are interleaved, so
// a change in the machine's load hits every case alike; only the ratios
// within one run mean anything on a shared machine.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

type benchCase struct {
	name  string
	argv  []string
	stdin string
	wall  []time.Duration
	rss   []int64 // KiB (Linux ru_maxrss)
}

func main() {
	agyhook := flag.String("agyhook", "", "agyhook binary")
	minhook := flag.String("minhook", "", "minhook binary")
	n := flag.Int("n", 300, "invocations per case")
	under := flag.String("under", "", "parent of the temporary home (default $TMPDIR): the save path's cost is mostly the filesystem's")
	flag.Parse()
	if *agyhook == "" || *minhook == "" {
		fmt.Fprintln(os.Stderr, "usage: benchdriver -agyhook BIN -minhook BIN [-n N]")
		os.Exit(2)
	}
	home, err := os.MkdirTemp(*under, "agyhook-bench-")
	check(err)
	defer os.RemoveAll(home)
	state := filepath.Join(home, ".mempalace", "hook_state")
	check(os.MkdirAll(filepath.Join(state, "antigravity_woke_bench-woken"), 0o700))
	transcript := filepath.Join(home, "transcript_full.jsonl")
	check(os.WriteFile(transcript, []byte("{}\n"), 0o600))

	stop := fmt.Sprintf(`{"conversationId":"bench-save","workspacePaths":["/home/me/project"],"transcriptPath":%q,"artifactDirectoryPath":"/home/me/.gemini/antigravity-cli/brain/bench-save","modelName":"gemini","executionNum":3,"terminationReason":"NO_TOOL_CALL","fullyIdle":true}`, transcript)
	pre := func(id string, num int) string {
		return fmt.Sprintf(`{"conversationId":%q,"workspacePaths":["/home/me/project"],"transcriptPath":%q,"modelName":"gemini","invocationNum":%d,"initialNumSteps":9}`, id, transcript, num)
	}
	flags := []string{"--state-dir", state, "--mempalace", "/bin/true"}
	cases := []*benchCase{
		{name: "minhook (baseline)", argv: []string{*minhook}, stdin: stop},
		{name: "mempalace-save, below the interval", argv: append([]string{*agyhook, "mempalace-save", "--interval", "1000000"}, flags...), stdin: stop},
		{name: "mempalace-wake, invocationNum 5", argv: append([]string{*agyhook, "mempalace-wake"}, flags...), stdin: pre("bench-late", 5)},
		{name: "mempalace-wake, already woken", argv: append([]string{*agyhook, "mempalace-wake"}, flags...), stdin: pre("bench-woken", 0)},
	}
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin"}
	for _, c := range cases { // warm the page cache
		run(c, env, false)
	}
	for i := 0; i < *n; i++ {
		for j := range cases {
			run(cases[(i+j)%len(cases)], env, true)
		}
	}

	base := median(cases[0].wall)
	baseMean := mean(cases[0].wall)
	fmt.Printf("%d invocations per case, interleaved; home under %s\n\n", *n, filepath.Dir(home))
	fmt.Println("| case | median | mean | p90 | median / minhook | mean / minhook | peak RSS (max, median) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, c := range cases {
		fmt.Printf("| %s | %s | %s | %s | %.2f× | %.2f× | %d KiB, %d KiB |\n", c.name,
			ms(median(c.wall)), ms(mean(c.wall)), ms(pct(c.wall, 0.9)),
			float64(median(c.wall))/float64(base), float64(mean(c.wall))/float64(baseMean),
			maxOf(c.rss), medianInt(c.rss))
	}
	data, _ := os.ReadFile(filepath.Join(state, "antigravity_save_count_bench-save"))
	fmt.Printf("\nsave counter after the run: %s (want %d)\n", strings.TrimSpace(string(data)), *n+1)
}

func run(c *benchCase, env []string, record bool) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(c.stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil || out.String() != "{}\n" {
		fmt.Fprintf(os.Stderr, "%s: %v %q\n", c.name, err, out.String())
		os.Exit(1)
	}
	if record {
		c.wall = append(c.wall, d)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			c.rss = append(c.rss, int64(ru.Maxrss))
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func sorted(d []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func median(d []time.Duration) time.Duration { return pct(d, 0.5) }

func pct(d []time.Duration, p float64) time.Duration {
	s := sorted(d)
	return s[int(p*float64(len(s)-1)+0.5)]
}

func mean(d []time.Duration) time.Duration {
	var t time.Duration
	for _, x := range d {
		t += x
	}
	return t / time.Duration(len(d))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func maxOf(v []int64) int64 {
	var m int64
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func medianInt(v []int64) int64 {
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
