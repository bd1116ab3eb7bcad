package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"portlab/modeldb"
)

// WriteCSV writes the clusters as llvm-exegesis's
// --analysis-clusters-output-file does: a header
// "cluster_id,opcode_name,config,sched_class,<measurement keys>", then the
// points of each valid cluster in cluster order, each cluster followed by
// two newlines (an empty cluster by the newlines alone). Noise and error
// points are not written, as in exegesis. opcode_name is the point's
// identity (the portlab form, or the exegesis opcode), sched_class the
// model's class for the form ("" without a model), and values have at
// least two decimals (exegesis prints two; portlab keeps up to five so
// that sub-percent differences survive).
//
// Points of different measurement kinds get one header each, written
// before the first cluster of that kind.
func WriteCSV(w io.Writer, c *Clustering, m *modeldb.Model) error {
	var buf bytes.Buffer
	header := ""
	writeHeader := func(keys []string) {
		h := "cluster_id,opcode_name,config,sched_class"
		for _, k := range keys {
			h += "," + csvEscape(k)
		}
		if h != header {
			if header != "" {
				buf.WriteString("\n")
			}
			header = h
			buf.WriteString(h + "\n")
		}
	}
	for _, cl := range c.Clusters {
		if len(cl.Points) > 0 {
			writeHeader(cl.Keys)
			break
		}
	}
	if header == "" {
		for _, p := range c.Points {
			if p.Err == "" {
				writeHeader(p.Keys)
				break
			}
		}
	}
	for _, cl := range c.Clusters {
		if len(cl.Points) > 0 {
			writeHeader(cl.Keys)
		}
		for _, i := range cl.Points {
			p := c.Points[i]
			fmt.Fprintf(&buf, "%d,%s,%s,%s", cl.ID, csvEscape(p.Opcode), csvEscape(p.Config), csvEscape(schedClass(m, p)))
			for _, v := range p.Values {
				buf.WriteString("," + csvNum(v))
			}
			buf.WriteString("\n")
		}
		buf.WriteString("\n\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// schedClass is the model's class of a point's form: its class name, or
// the values that group it.
func schedClass(m *modeldb.Model, p *Point) string {
	if m == nil || p.Form == "" {
		return ""
	}
	e, ok := m.Lookup(p.Form)
	if !ok {
		return ""
	}
	_, name, _ := classKey(e)
	return name
}

// csvEscape quotes a field that holds a separator, a quote or a newline,
// doubling quotes.
func csvEscape(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// csvNum prints a value with two to five decimals: 1 -> "1.00", 0.33333 ->
// "0.33333", 1.0027 -> "1.0027".
func csvNum(v float64) string {
	s := fmt.Sprintf("%.5f", v)
	for strings.HasSuffix(s, "0") && len(s)-strings.IndexByte(s, '.') > 3 {
		s = s[:len(s)-1]
	}
	return s
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ParseReport reads a report written by WriteJSON (for CorrectModel, as
// `portlab model build --from-inconsistencies` does). name is used in
// errors.
func ParseReport(name string, data []byte) (*Report, error) {
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a portlab cluster JSON report: %v", name, err)
	}
	if r.Inconsistencies == nil && r.Consistent == nil && r.Clusters == nil {
		return nil, fmt.Errorf("%s: not a portlab cluster JSON report (no inconsistencies, consistent or clusters key)", name)
	}
	return &r, nil
}

// ReadReport reads a JSON report file.
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseReport(path, data)
}
