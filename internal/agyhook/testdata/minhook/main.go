// Command minhook is the baseline for scripts/bench-agyhook.sh: the least
// a Go hook can do, decode stdin as JSON and answer {}.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	fmt.Println("{}")
}
