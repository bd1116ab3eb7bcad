package analysis

import (
	"portlab/analysis/input"
	"portlab/analysis/pipeline"
	"portlab/isa"
	"portlab/modeldb"
)

// Batch predicts many blocks with one model quickly: one pipeline reused
// for every block, form lookups cached, no views. It is not safe for
// concurrent use.
type Batch struct {
	b      *Builder
	p      *pipeline.Pipeline
	cfg    pipeline.Config
	iters  int
	block  []*pipeline.InstrDesc
	descs  []pipeline.InstrDesc
	kernel Kernel // the block being predicted (reused)
	// Notes say which numbers are defaults rather than the model's.
	Notes []string
}

// Prediction is a block's predicted cost.
type Prediction struct {
	// CyclesPerIteration is the simulated cycles over the iterations.
	CyclesPerIteration float64
	Cycles             int
	// Bound is the static bound (only with PredictStatic).
	Bound      float64
	Bottleneck string
}

// NewBatch prepares predictions with model m.
func NewBatch(m *modeldb.Model, opt Options) (*Batch, error) {
	b, err := NewBuilder(m)
	if err != nil {
		return nil, err
	}
	if opt.PartialWrites != "" {
		b.PartialWrites = opt.PartialWrites
	}
	cfg, notes, err := Config(m, opt)
	if err != nil {
		return nil, err
	}
	p, err := pipeline.New(cfg)
	if err != nil {
		return nil, err
	}
	it := opt.Iterations
	if it <= 0 {
		it = DefaultIterations
	}
	return &Batch{b: b, p: p, cfg: cfg, iters: it, Notes: notes}, nil
}

// Builder returns the batch's kernel builder.
func (bt *Batch) Builder() *Builder { return bt.b }

// Predict simulates the instructions.
func (bt *Batch) Predict(insts []*isa.Inst) (Prediction, error) {
	k := &bt.kernel
	k.Model, k.Ports = bt.b.Model, bt.b.Model.Ports
	k.Instrs, k.Notes = k.Instrs[:0], k.Notes[:0]
	for _, in := range insts {
		x, err := bt.b.Instr(in)
		if err != nil {
			return Prediction{}, err
		}
		k.Instrs = append(k.Instrs, x)
	}
	bt.b.link(k)
	bt.descs = bt.descs[:0]
	for _, x := range k.Instrs {
		bt.descs = append(bt.descs, x.Desc)
	}
	bt.block = bt.block[:0]
	for i := range bt.descs {
		bt.block = append(bt.block, &bt.descs[i])
	}
	res, err := bt.p.Run(bt.block, bt.iters)
	if err != nil {
		return Prediction{}, err
	}
	return Prediction{Cycles: res.Cycles, CyclesPerIteration: float64(res.Cycles) / float64(bt.iters)}, nil
}

// PredictSteadyState predicts the steady-state cycles per iteration the
// way kernels are measured (BHive's way, and portlab validate's): the
// block simulated for the batch's iterations and for twice as many, the
// difference over the extra iterations. Total cycles over iterations
// counts the pipeline filling once and reads long chains slow (a 2-cycle
// chain behind an 8-cycle load: 2.11 over 100 iterations, 2.00 steady).
func (bt *Batch) PredictSteadyState(insts []*isa.Inst) (Prediction, error) {
	short, err := bt.Predict(insts)
	if err != nil {
		return short, err
	}
	res, err := bt.p.Run(bt.block, 2*bt.iters)
	if err != nil {
		return Prediction{}, err
	}
	return Prediction{Cycles: res.Cycles, CyclesPerIteration: float64(res.Cycles-short.Cycles) / float64(bt.iters)}, nil
}

// PredictStatic simulates the instructions and adds the static bound.
func (bt *Batch) PredictStatic(insts []*isa.Inst) (Prediction, error) {
	pr, err := bt.Predict(insts)
	if err != nil {
		return pr, err
	}
	pr.Bound, pr.Bottleneck, err = bt.Static(insts)
	return pr, err
}

// Static returns the static analysis's bound (cycles per iteration) and
// what limits it, without simulating.
func (bt *Batch) Static(insts []*isa.Inst) (bound float64, bottleneck string, err error) {
	k, err := bt.b.Kernel(&input.Region{Insts: insts})
	if err != nil {
		return 0, "", err
	}
	st, err := k.Analyze(bt.cfg.DispatchWidth)
	if err != nil {
		return 0, "", err
	}
	return st.Bound, st.Bottleneck, nil
}

// PredictCode decodes machine code and simulates it.
func (bt *Batch) PredictCode(code []byte) (Prediction, error) {
	r, err := input.Code("block", code, 0)
	if err != nil {
		return Prediction{}, err
	}
	return bt.Predict(r.Insts)
}
