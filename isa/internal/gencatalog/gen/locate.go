package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LocateCSV returns the path of x86.v0.2.csv in the golang.org/x/arch module
// the main module requires, asking the go command where the module lives.
func LocateCSV() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/arch").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("go list -m golang.org/x/arch: %v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("go list -m golang.org/x/arch: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("go list -m golang.org/x/arch: module not downloaded")
	}
	p := filepath.Join(dir, "x86", "x86.v0.2.csv")
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}
