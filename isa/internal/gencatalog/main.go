// Command gencatalog writes isa's instruction-form table, zcatalog_table.go,
// from golang.org/x/arch's x86.v0.2.csv. Run it with "go generate ./isa";
// the work is done by package gen so that tests can run it in-process.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"portlab/isa/internal/gencatalog/gen"
)

func main() {
	csvPath := flag.String("csv", "", "path of x86.v0.2.csv (default: from the golang.org/x/arch module)")
	out := flag.String("o", "zcatalog_table.go", "output file")
	verbose := flag.Bool("v", false, "print statistics")
	flag.Parse()
	if err := run(*csvPath, *out, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
}

func run(csvPath, out string, verbose bool) error {
	if csvPath == "" {
		p, err := gen.LocateCSV()
		if err != nil {
			return err
		}
		csvPath = p
	}
	f, err := os.Open(csvPath)
	if err != nil {
		return err
	}
	defer f.Close()
	src, st, err := gen.Generate(f)
	if err != nil {
		return fmt.Errorf("%s: %v", csvPath, err)
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "%d rows, %d not 64-bit, %d pseudo, %d unsupported, %d dropped, %d duplicates, %d forms, %d aliases\n",
			st.Rows, st.Not64, st.Pseudo, st.Unsupported, len(st.Dropped), len(st.Duplicates), st.Forms, st.Aliases)
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, src) {
		return nil
	}
	return os.WriteFile(out, src, 0o644)
}
