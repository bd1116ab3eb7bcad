package analysis

import (
	"encoding/json"
	"io"
)

// WriteJSON writes the reports in llvm-mca's -json layout: CodeRegions
// (name, instructions and each view under its name), SimulationParameters
// and TargetInfo (the model's name and its ports as Resources). portlab's
// own views (StaticAnalysis, BottleneckAnalysis, statistics) sit beside
// llvm-mca's.
func WriteJSON(w io.Writer, reports []*Report, params map[string]any) error {
	var regions []map[string]any
	target := map[string]any{}
	for _, r := range reports {
		k := r.Kernel
		var insts []string
		for _, x := range k.Instrs {
			insts = append(insts, x.Text)
		}
		reg := map[string]any{"Name": k.Name, "Instructions": insts}
		if r.Kernel.Region != nil && r.Kernel.Region.Pos.IsValid() {
			reg["Position"] = r.Kernel.Region.Pos.String()
		}
		if len(r.Notes) > 0 {
			reg["Notes"] = r.Notes
		}
		for _, v := range r.Views {
			reg[v.Name()] = v.JSON(r)
		}
		regions = append(regions, reg)
		target["CPUName"] = k.Model.Label()
		target["Resources"] = k.Ports
	}
	out := map[string]any{"CodeRegions": regions, "TargetInfo": target}
	if params != nil {
		out["SimulationParameters"] = params
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
