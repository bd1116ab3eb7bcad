package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"portlab/hostcpu"
	"portlab/isa"
)

func init() {
	register(&command{name: "forms", summary: "list instruction forms of the catalog (globs, host filter, JSON)", run: runForms})
}

// formJSON is one form in `portlab forms --json`.
type formJSON struct {
	Name           string        `json:"name"`
	Mnemonic       string        `json:"mnemonic"`
	GNU            string        `json:"gnu"`
	Operands       []operandJSON `json:"operands"`
	Encoding       string        `json:"encoding"`
	Opcode         string        `json:"opcode,omitempty"`
	Features       []string      `json:"features"`
	ImplicitReads  []string      `json:"implicit_reads"`
	ImplicitWrites []string      `json:"implicit_writes"`
	Flags          flagsJSON     `json:"flags"`
	Attrs          []string      `json:"attrs"`
}

type operandJSON struct {
	Kind    string `json:"kind"`
	Access  string `json:"access"`
	Masked  bool   `json:"masked,omitempty"`
	Zeroing bool   `json:"zeroing,omitempty"`
}

type flagsJSON struct {
	Read      []string `json:"read"`
	Written   []string `json:"written"`
	Undefined []string `json:"undefined"`
}

func runForms(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("forms", stderr)
	host := fs.Bool("host", false, "keep only forms the host CPU can execute")
	count := fs.Bool("count", false, "print the number of forms instead of their names")
	asJSON := fs.Bool("json", false, "print the forms as a JSON array")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: portlab forms [--host] [--count | --json] [glob...]")
		fmt.Fprintln(stderr, "\nLists instruction forms by canonical name (\"add r64, r64\"), all of them or those")
		fmt.Fprintln(stderr, "matching any glob ('vfmadd*pd ymm*'; '*' also matches spaces and commas).")
		fs.PrintDefaults()
	}
	globs, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *count && *asJSON {
		return usageError{"--count and --json are exclusive"}
	}
	forms, err := selectForms(globs)
	if err != nil {
		return err
	}
	if *host {
		info, err := hostcpu.Detect()
		if err != nil {
			return fmt.Errorf("detecting the host CPU: %v", err)
		}
		kept := forms[:0:0]
		for _, f := range forms {
			if f.Supported(info.Has) {
				kept = append(kept, f)
			}
		}
		forms = kept
	}
	switch {
	case *count:
		_, err := fmt.Fprintln(stdout, len(forms))
		return err
	case *asJSON:
		out := make([]formJSON, 0, len(forms))
		for _, f := range forms {
			out = append(out, toFormJSON(f))
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	for _, f := range forms {
		b.WriteString(f.Name())
		b.WriteByte('\n')
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// selectForms returns the forms matching any of the globs (all forms when
// there are none), sorted by name. A glob matching nothing is an error,
// unless it names a form through an alternative mnemonic ("cmovc r64, r64").
func selectForms(globs []string) ([]*isa.Form, error) {
	if len(globs) == 0 {
		return isa.All(), nil
	}
	seen := map[*isa.Form]bool{}
	var out []*isa.Form
	for _, g := range globs {
		m, err := isa.Match(g)
		if err != nil {
			return nil, usageError{err.Error()}
		}
		if len(m) == 0 {
			if f, ok := isa.Lookup(g); ok {
				m = []*isa.Form{f}
			} else {
				return nil, fmt.Errorf("no form matches %q", g)
			}
		}
		for _, f := range m {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func toFormJSON(f *isa.Form) formJSON {
	j := formJSON{
		Name:           f.Name(),
		Mnemonic:       f.Mnemonic,
		GNU:            f.GNU,
		Operands:       []operandJSON{},
		Encoding:       f.Encoding.String(),
		Opcode:         f.Opcode,
		Features:       nonNil(f.Features),
		ImplicitReads:  nonNil(f.ImplicitReads),
		ImplicitWrites: nonNil(f.ImplicitWrites),
		Flags: flagsJSON{
			Read:      flagList(f.FlagsRead),
			Written:   flagList(f.FlagsWritten),
			Undefined: flagList(f.FlagsUndefined),
		},
		Attrs: splitNonEmpty(f.Attrs.String()),
	}
	for _, op := range f.Operands {
		j.Operands = append(j.Operands, operandJSON{
			Kind: string(op.Kind), Access: op.Access.String(), Masked: op.Masked, Zeroing: op.Zeroing,
		})
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func flagList(f isa.Flag) []string { return splitNonEmpty(f.String()) }

func splitNonEmpty(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "|")
}
