// Command portlab measures how x86-64 instructions execute on the host CPU,
// builds machine models from the measurements, and predicts kernel throughput.
//
// This package owns flag parsing, subcommand dispatch, progress display and
// exit codes only; every subcommand's logic lives in a library package.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand. Each lives in its own cmd_*.go file and registers
// itself in init with register.
type command struct {
	name    string
	summary string
	hidden  bool
	// run executes the subcommand with its arguments (after the subcommand
	// name). It returns an error for the user; usageError marks bad flags.
	run func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// usageError is returned for bad command-line usage (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// errQuiet is returned when the command already printed its error.
var errQuiet = errors.New("")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "portlab: unknown command %q (run 'portlab help')\n", args[0])
		return 2
	}
	err := c.run(args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errQuiet):
		return 1
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "portlab %s: %s\n", c.name, ue.msg)
		return 2
	}
	fmt.Fprintf(stderr, "portlab %s: %v\n", c.name, err)
	return 1
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: portlab <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	var names []string
	for n, c := range commands {
		if !c.hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nrun 'portlab <command> -h' for a command's flags")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// accepts flags after positional arguments (parseInterspersed).
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("portlab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseInterspersed parses flags that may appear before, between or after
// positional arguments, returning the positional arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			continue
		}
	}
}

// parseNoArgs parses flags for a command that takes no positional
// arguments, naming the first stray one.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	}
	return nil
}

// commandLine is the command a report records as what reproduces it:
// "portlab NAME ARGS", each argument quoted for a POSIX shell where it
// needs to be.
func commandLine(name string, args []string) string {
	parts := []string{"portlab", name}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+:,./@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
