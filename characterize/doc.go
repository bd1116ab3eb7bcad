// Package characterize gives a host its own machine model in one run: the
// chain of measurements, the model build and the checks that say how good
// the model is, within a time budget, resumable after an interruption.
//
// The chain, each step a Step with its results kept in a work directory:
//
//	sweep       latency and throughput of every form the host runs (with
//	            the store-commit streams and the latency chains beside
//	            512-bit work that the generator emits for the forms
//	            concerned)
//	kernels     the validation kernels measured (they do not depend on the
//	            model, so they are measured before the plan: their cost
//	            is then known)
//	validation  a random-mix draw that the build never fits: the model's
//	            held-out check; its cost per mix sets the plan
//	plan        how many port-conflict mixes and fit mixes the rest of the
//	            budget buys (Plan), written once and followed from then on
//	ports       port-conflict mixes of the forms with the probes: the plain
//	            loads and stores first, then the most informative forms
//	            (PortsOrder)
//	fit         random fit mixes, which the build fits
//	build       modeldb.Build from the model measured before on this CPU
//	            signature, else the imported model nearest the host; where
//	            the budget allows, builds from other bases compete and the
//	            validation draw decides (keepBuild: the first stays unless
//	            another predicts the draw better beyond chance); a model
//	            measured before competes last as it stands (its memory
//	            groups moved by the run's plain load and store mixes and
//	            its loads on their register forms' ports where that
//	            predicts more of the draw: keptCandidate) and stays
//	            unless the kept build predicts more of the draw
//	            (chooseBuild)
//	evaluate    the validation draw predicted by the new model (and by the
//	            base, for comparison), and how far the draw's two rounds
//	            agree with each other (modeldb.RepeatOf: the reach of any
//	            model's score on the host)
//	predict     the kernels predicted by the new model, the base model and
//	            llvm-mca where installed: MAPE and Kendall's tau-b
//	install     the model written to the user's model directory
//	            (modeldb.UserModelPath) and any further outputs
//
// Resuming: every measuring step appends to one results file batch by
// batch (package sweep truncates a batch cut short), every other file is
// written atomically, and state.json says which steps are done, the time
// each took and the plan. A run that is interrupted at any point and
// started again with Resume goes on from the last batch; since the plan is
// fixed once it is written, it measures the same benchmarks as an
// uninterrupted run and builds its model from the same results.
//
// The budget covers the whole chain, resumed runs included (the state
// accumulates the time spent). The sweep and the validation draw are
// measured whatever the budget; the plan then spends what is left on mixes
// after reserving the build and the kernel predictions. A run that falls
// behind its plan by more than a tenth of the budget stops measuring
// mixes and builds from what it has (Report.Cut says so).
package characterize
