package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"portlab/isa"
	"portlab/jit"
	"portlab/results"
	"portlab/sweep"
)

// envCLI makes this test binary run as the portlab command (its arguments
// are portlab's), so tests can start portlab processes without building it.
const envCLI = "PORTLAB_TEST_RUN_CLI"

func init() {
	if os.Getenv(envCLI) == "1" {
		jit.MaybeRunWorker() // the CLI's own measuring worker re-executes this binary too
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
}

// portlabCmd returns a command running portlab (this test binary) with env
// added to the environment, engine variables cleared.
func portlabCmd(t *testing.T, env []string, name string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if name == "" {
		name = exe
	}
	cmd := exec.Command(name, args...)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SLURM_") || k == "JOB_COMPLETION_INDEX" || k == "PORTLAB_SHARDS" || k == "PORTLAB_NODE" {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, envCLI+"=1", "PORTLAB="+exe)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

func runOK(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	return stderr.String()
}

// fleetForms are cheap forms for the fleet tests: integer, vector, memory,
// an idiom, one the generator records as unmeasurable.
var fleetForms = []string{"add r64, r64", "imul r64, r64", "xor r32, r32", "shl r64, imm8", "lea r64, m",
	"mov r64, m64", "vaddpd ymm, ymm, ymm", "push r64"}

type benchKey struct{ form, kind, operands, id string }

func benchKeys(t *testing.T, bs []*results.Benchmark) []benchKey {
	t.Helper()
	var out []benchKey
	for _, b := range bs {
		if b.Portlab == nil {
			t.Fatalf("result without portlab fields: %+v", b)
		}
		out = append(out, benchKey{b.Portlab.Form, b.Portlab.Kind, b.Portlab.Operands, b.Portlab.ID})
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out
}

// Issue 9's acceptance test: N shards run as N processes, one after the
// other, each through deploy/slurm/sweep.sbatch with the variables of a
// Slurm job array (--shard auto); merged, they hold exactly the benchmarks
// of one unsharded sweep of the same forms: no duplicates, no gaps.
// Merging a part twice and re-running a finished task change nothing.
func TestFleetShardsMergeToTheWholeSweep(t *testing.T) {
	if _, err := exec.LookPath("as"); err != nil {
		t.Skip("GNU as not installed")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	const n = 3
	dir := t.TempDir()
	var formArgs []string
	for _, f := range fleetForms {
		formArgs = append(formArgs, "--forms", f)
	}

	whole := filepath.Join(dir, "whole.yaml")
	runOK(t, portlabCmd(t, nil, "", append([]string{"bench", "-o", whole}, formArgs...)...))

	script := filepath.Join("..", "..", "deploy", "slurm", "sweep.sbatch")
	var parts []string
	for i := 0; i < n; i++ {
		env := []string{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n), "RESULTS=" + dir}
		stderr := runOK(t, portlabCmd(t, env, bash, append([]string{script}, formArgs...)...))
		if want := fmt.Sprintf("shard %d/%d from Slurm job array", i, n); !strings.Contains(stderr, want) {
			t.Errorf("task %d: stderr lacks %q:\n%s", i, want, stderr)
		}
		parts = append(parts, filepath.Join(dir, fmt.Sprintf("part-%d.yaml", i)))
	}
	// A requeued task resumes its finished part: what was measured stays as
	// it is; only noisy results (a busy neighbour) get a second chance,
	// appended after the part's old contents.
	before, _ := os.ReadFile(parts[1])
	env := []string{"SLURM_ARRAY_TASK_ID=1", fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n), "RESULTS=" + dir}
	runOK(t, portlabCmd(t, env, bash, append([]string{script}, formArgs...)...))
	after, _ := os.ReadFile(parts[1])
	checkRequeuedPart(t, before, after)

	// The parts hold disjoint forms: the shards the cost model cuts.
	all, err := sweep.Select(fleetForms, nil)
	if err != nil {
		t.Fatal(err)
	}
	cost := func(f *isa.Form) float64 { return sweep.FormCost(f, sweep.DefaultCostModes) }
	owner := map[string]int{}
	for i, p := range parts {
		bs, err := results.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, f := range sweep.ShardFormsByCost(all, i, n, cost) {
			want[f.Name()] = true
		}
		for _, b := range bs {
			if b.Portlab.HostInfo == nil || b.Portlab.HostInfo.Signature() != b.Portlab.Host {
				t.Errorf("part %d: %s %s has host info %+v", i, b.Portlab.Form, b.Portlab.Kind, b.Portlab.HostInfo)
			}
			if b.Portlab.Form == "" || b.Portlab.Kind == "helper" {
				continue
			}
			if !want[b.Portlab.Form] {
				t.Errorf("part %d measured %q, which is not in its shard", i, b.Portlab.Form)
			}
			if o, ok := owner[b.Portlab.Form]; ok && o != i {
				t.Errorf("%q measured by shards %d and %d", b.Portlab.Form, o, i)
			}
			owner[b.Portlab.Form] = i
		}
	}

	merged := filepath.Join(dir, "merged.yaml")
	args := append([]string{"bench", "merge", "-o", merged}, parts...)
	args = append(args, parts[0]) // a part merged twice
	runOK(t, portlabCmd(t, nil, "", args...))
	got, err := results.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	want, err := results.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	// A sweep appends re-measurements of its noisy results: one benchmark
	// may appear more than once in it (never in a merge).
	gk, wk := benchKeys(t, got), benchKeys(t, results.Cleanest(want))
	seen := map[benchKey]bool{}
	for _, k := range gk {
		if seen[k] {
			t.Errorf("duplicate in the merge: %+v", k)
		}
		seen[k] = true
	}
	wantSet := map[benchKey]bool{}
	for _, k := range wk {
		wantSet[k] = true
		if !seen[k] {
			t.Errorf("gap: the whole sweep has %+v, the merge does not", k)
		}
	}
	for _, k := range gk {
		if !wantSet[k] {
			t.Errorf("the merge has %+v, the whole sweep does not", k)
		}
	}
	if len(gk) != len(wk) || len(owner) == 0 {
		t.Errorf("merge: %d results, whole sweep %d (%d forms measured)", len(gk), len(wk), len(owner))
	}

	// Merging the merge with its parts again is a fixed point.
	again := filepath.Join(dir, "again.yaml")
	runOK(t, portlabCmd(t, nil, "", append([]string{"bench", "merge", "-o", again, merged}, parts...)...))
	a, _ := os.ReadFile(again)
	m, _ := os.ReadFile(merged)
	if !bytes.Equal(a, m) {
		t.Error("merging the merged file with its parts changed it")
	}
}

func TestBenchShardAutoErrors(t *testing.T) {
	for _, k := range []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_JOB_ID", "JOB_COMPLETION_INDEX", "PORTLAB_SHARDS"} {
		t.Setenv(k, "")
	}
	for _, c := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"bench", "--forms", "add r64, r64", "--shard", "auto"}, nil, "SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT"},
		{[]string{"bench", "--forms", "add r64, r64", "--shard", "auto"}, []string{"JOB_COMPLETION_INDEX", "3"}, "pass --shards N or set PORTLAB_SHARDS"},
		{[]string{"bench", "--forms", "add r64, r64", "--shard", "auto", "--shards", "2"}, []string{"JOB_COMPLETION_INDEX", "3"}, "JOB_COMPLETION_INDEX=3 is not below the shard count 2"},
		{[]string{"bench", "--forms", "add r64, r64", "--shard", "1/4", "--shards", "4"}, nil, "--shards goes with --shard auto"},
		{[]string{"bench", "--snippets-file", "x.s", "--shards", "4"}, nil, "apply to sweeps"},
	} {
		for i := 0; i+1 < len(c.env); i += 2 {
			t.Setenv(c.env[i], c.env[i+1])
		}
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr.String(), c.want)
		}
		for i := 0; i+1 < len(c.env); i += 2 {
			t.Setenv(c.env[i], "")
		}
	}
}

func fleetResult(id, form, kind, cpuType, node string, v float64) *results.Benchmark {
	key := "latency"
	if kind == "throughput" {
		key = "inverse_throughput"
	}
	var fam, model, step int
	vendor := ""
	if parts := strings.Split(cpuType, "-"); len(parts) == 4 {
		vendor = parts[0]
		fmt.Sscanf(parts[1]+" "+parts[2]+" "+parts[3], "%x %x %x", &fam, &model, &step)
	}
	operands := ""
	if kind == "latency" {
		operands = "1->0"
	}
	return &results.Benchmark{Mode: key, Key: results.Key{Instructions: []string{}, RegisterInitialValues: []string{}},
		Measurements: []results.Measurement{{Key: key, Value: v, PerSnippetValue: v}},
		Portlab: &results.Extra{ID: id, Form: form, Kind: kind, Operands: operands, Host: cpuType, Median: v,
			HostInfo: &results.HostInfo{Node: node, Vendor: vendor, Family: fam, Model: model, Stepping: step}}}
}

// bench merge groups per CPU type: refuses a mix naming the types, --split
// writes one file per type; model build takes several machines of one
// type, reports how far apart they are, and refuses several types.
func TestMergeAndModelBuildAcrossHosts(t *testing.T) {
	const intel, amd = "GenuineIntel-6-a7-1", "AuthenticAMD-19-61-2"
	dir := t.TempDir()
	write := func(name string, bs ...*results.Benchmark) string {
		p := filepath.Join(dir, name)
		if err := results.WriteFile(p, bs); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml",
		fleetResult("l1", "add r64, r64", "latency", intel, "node-a", 1),
		fleetResult("t1", "add r64, r64", "throughput", intel, "node-a", 0.25),
		fleetResult("l2", "imul r64, r64", "latency", intel, "node-a", 3))
	b := write("b.yaml",
		fleetResult("l1", "add r64, r64", "latency", intel, "node-b", 1),
		fleetResult("t1", "add r64, r64", "throughput", intel, "node-b", 0.25),
		fleetResult("l2", "imul r64, r64", "latency", intel, "node-b", 3.3))
	z := write("z.yaml", fleetResult("l1", "add r64, r64", "latency", amd, "node-z", 1))

	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "merge", "-o", filepath.Join(dir, "mixed.yaml"), a, z}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "2 CPU types") || !strings.Contains(stderr.String(), intel) || !strings.Contains(stderr.String(), amd) {
		t.Errorf("mixed merge: exit %d, %s", code, stderr.String())
	}
	split := filepath.Join(dir, "split")
	stderr.Reset()
	if code := run([]string{"bench", "merge", "--split", split, a, b, z, a}, &stdout, &stderr); code != 0 {
		t.Fatalf("merge --split: exit %d: %s", code, stderr.String())
	}
	ib, err := results.ReadFile(filepath.Join(split, intel+".yaml"))
	if err != nil || len(ib) != 6 {
		t.Fatalf("%s.yaml: %d results, %v (want 6: two machines)", intel, len(ib), err)
	}
	if zb, err := results.ReadFile(filepath.Join(split, amd+".yaml")); err != nil || len(zb) != 1 {
		t.Errorf("%s.yaml: %d results, %v", amd, len(zb), err)
	}
	if !strings.Contains(stderr.String(), "2 nodes (node-a, node-b)") || !strings.Contains(stderr.String(), "3 duplicates dropped") {
		t.Errorf("merge --split report:\n%s", stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	csvPath := filepath.Join(dir, "hosts.csv")
	if code := run([]string{"model", "build", filepath.Join(split, intel+".yaml"), "-o", filepath.Join(dir, "m.yml"), "--hosts-csv", csvPath}, &stdout, &stderr); code != 0 {
		t.Fatalf("model build: exit %d: %s", code, stderr.String())
	}
	t.Logf("model build:\n%s", stdout.String())
	for _, want := range []string{"2 machines of " + intel + " (node-a, node-b)", "imul r64, r64", "node-a 3.000 .. node-b 3.300 (9.5%)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("model build report lacks %q:\n%s", want, stdout.String())
		}
	}
	if data, err := os.ReadFile(csvPath); err != nil || !strings.Contains(string(data), `"imul r64, r64",latency 1->0,2,3.00000,3.30000`) {
		t.Errorf("hosts CSV: %v\n%s", err, data)
	}
	stderr.Reset()
	if code := run([]string{"model", "build", a, z, "-o", filepath.Join(dir, "mixed.yml")}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "2 CPU types") {
		t.Errorf("model build of two CPU types: exit %d, %s", code, stderr.String())
	}
}

// The Kubernetes manifests parse as the Kubernetes objects they claim to
// be (every field known to the API; a strict subset of batch/v1 Job and
// v1 PersistentVolumeClaim) and wire the sweep up: an Indexed Job whose
// completions equal PORTLAB_SHARDS, --shard auto, the part written into
// the mounted volume, whole CPUs with requests = limits, one pod per node.
func TestDeployKubernetesManifest(t *testing.T) {
	docs := decodeManifests(t, filepath.Join("..", "..", "deploy", "kubernetes", "sweep-job.yaml"))
	var job *k8sObject
	var pvc *k8sObject
	for i := range docs {
		switch docs[i].Kind {
		case "Job":
			job = &docs[i]
		case "PersistentVolumeClaim":
			pvc = &docs[i]
		}
	}
	if job == nil || pvc == nil {
		t.Fatalf("want a Job and a PersistentVolumeClaim, got %d documents", len(docs))
	}
	if job.APIVersion != "batch/v1" || pvc.APIVersion != "v1" {
		t.Errorf("apiVersions %q, %q", job.APIVersion, pvc.APIVersion)
	}
	s := job.Spec
	if s.CompletionMode != "Indexed" || s.Completions == nil || s.Parallelism == nil || *s.Parallelism < 1 || *s.Parallelism > *s.Completions {
		t.Errorf("job spec: completionMode %q, completions %v, parallelism %v", s.CompletionMode, s.Completions, s.Parallelism)
	}
	pod := s.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers", len(pod.Containers))
	}
	c := pod.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "PORTLAB_SHARDS" {
			shards = e.Value
		}
	}
	if s.Completions != nil && shards != fmt.Sprint(*s.Completions) {
		t.Errorf("PORTLAB_SHARDS %q != completions %d", shards, *s.Completions)
	}
	cmd := strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
	if !strings.Contains(cmd, "portlab bench") || !strings.Contains(cmd, "--shard auto") || !strings.Contains(cmd, "--resume") {
		t.Errorf("command %q: want portlab bench --shard auto ... --resume", cmd)
	}
	if sh, err := exec.LookPath("sh"); err == nil && len(c.Args) == 1 {
		if out, err := exec.Command(sh, "-n", "-c", c.Args[0]).CombinedOutput(); err != nil {
			t.Errorf("container script does not parse: %v\n%s", err, out)
		}
	}
	out := ""
	if f := strings.Fields(cmd); len(f) > 0 {
		for i := range f[:len(f)-1] {
			if f[i] == "-o" {
				out = strings.Trim(f[i+1], `"'`)
			}
		}
	}
	if !strings.Contains(out, "${JOB_COMPLETION_INDEX}") && !strings.Contains(out, "$JOB_COMPLETION_INDEX") {
		t.Errorf("-o %q: want one part per index", out)
	}
	mounted := false
	for _, m := range c.VolumeMounts {
		if strings.HasPrefix(out, strings.TrimSuffix(m.MountPath, "/")+"/") {
			for _, v := range pod.Volumes {
				if v.Name == m.Name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == pvc.Metadata.Name {
					mounted = true
				}
			}
		}
	}
	if !mounted {
		t.Errorf("-o %q is not on a volume mounted from the claim %q", out, pvc.Metadata.Name)
	}
	r := c.Resources
	for _, res := range []string{"cpu", "memory"} {
		if r.Requests[res] == "" || r.Requests[res] != r.Limits[res] {
			t.Errorf("%s: requests %q, limits %q: want equal (Guaranteed QoS)", res, r.Requests[res], r.Limits[res])
		}
	}
	if cpu := r.Requests["cpu"]; strings.ContainsAny(cpu, "m.") || cpu == "0" {
		t.Errorf("cpu %q: want whole CPUs (exclusive under the static CPU manager)", cpu)
	}
	anti := false
	if a := pod.Affinity; a != nil && a.PodAntiAffinity != nil {
		for _, term := range a.PodAntiAffinity.Required {
			if term.TopologyKey == "kubernetes.io/hostname" && term.LabelSelector.MatchLabels["app.kubernetes.io/name"] == s.Template.Metadata.Labels["app.kubernetes.io/name"] && term.LabelSelector.MatchLabels["app.kubernetes.io/name"] != "" {
				anti = true
			}
		}
	}
	if !anti {
		t.Error("no required pod anti-affinity on kubernetes.io/hostname against the sweep's own pods")
	}
	if len(pod.Tolerations) == 0 || len(pod.NodeSelector) == 0 {
		t.Error("want a nodeSelector and a toleration for dedicated sweep nodes")
	}
	if pod.RestartPolicy != "OnFailure" && pod.RestartPolicy != "Never" {
		t.Errorf("restartPolicy %q", pod.RestartPolicy)
	}

	merge := decodeManifests(t, filepath.Join("..", "..", "deploy", "kubernetes", "merge-job.yaml"))
	if len(merge) != 1 || merge[0].Kind != "Job" || !strings.Contains(strings.Join(merge[0].Spec.Template.Spec.Containers[0].Args, " "), "portlab bench merge") {
		t.Errorf("merge-job.yaml: %+v", merge)
	}

	// A schema validator, when one is installed (it needs its schemas,
	// which it downloads; offline it cannot say anything).
	if kc, err := exec.LookPath("kubeconform"); err == nil {
		out, err := exec.Command(kc, "-strict", "-summary", filepath.Join("..", "..", "deploy", "kubernetes")).CombinedOutput()
		switch {
		case err == nil:
			t.Logf("kubeconform: %s", out)
		case bytes.Contains(out, []byte("could not find schema")) || bytes.Contains(out, []byte("dial tcp")) || bytes.Contains(out, []byte("no such host")):
			t.Logf("kubeconform cannot reach its schemas: %s", out)
		default:
			t.Errorf("kubeconform: %v\n%s", err, out)
		}
	}
}

// The Slurm script parses, is a job array, and refuses to run outside one.
func TestDeploySlurmScript(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	script := filepath.Join("..", "..", "deploy", "slurm", "sweep.sbatch")
	if out, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"#SBATCH --array=", "#SBATCH --exclusive", "SLURM_ARRAY_TASK_ID", "--shard auto", "--resume", "part-$SLURM_ARRAY_TASK_ID.yaml", "--dependency=afterok", "bench merge"} {
		if !strings.Contains(text, want) {
			t.Errorf("sweep.sbatch lacks %q", want)
		}
	}
	cmd := portlabCmd(t, nil, bash, script)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--array") {
		t.Errorf("outside a job array: %v\n%s", err, out)
	}
}

// k8sObject is the part of the Kubernetes API the manifests use, field
// names as in k8s.io/api (batch/v1 Job, core/v1 PersistentVolumeClaim);
// decoded with unknown fields refused, so a misspelt or misplaced field
// fails the test.
type k8sObject struct {
	APIVersion string      `yaml:"apiVersion"`
	Kind       string      `yaml:"kind"`
	Metadata   k8sMetadata `yaml:"metadata"`
	Spec       struct {
		// Job
		CompletionMode string `yaml:"completionMode"`
		Completions    *int   `yaml:"completions"`
		Parallelism    *int   `yaml:"parallelism"`
		BackoffLimit   *int   `yaml:"backoffLimit"`
		Template       struct {
			Metadata k8sMetadata `yaml:"metadata"`
			Spec     k8sPodSpec  `yaml:"spec"`
		} `yaml:"template"`
		// PersistentVolumeClaim
		AccessModes []string     `yaml:"accessModes"`
		Resources   k8sResources `yaml:"resources"`
	} `yaml:"spec"`
}

type k8sMetadata struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

type k8sResources struct {
	Requests map[string]string `yaml:"requests"`
	Limits   map[string]string `yaml:"limits"`
}

type k8sPodSpec struct {
	RestartPolicy string            `yaml:"restartPolicy"`
	NodeSelector  map[string]string `yaml:"nodeSelector"`
	Tolerations   []struct {
		Key      string `yaml:"key"`
		Operator string `yaml:"operator"`
		Value    string `yaml:"value"`
		Effect   string `yaml:"effect"`
	} `yaml:"tolerations"`
	Affinity *struct {
		PodAntiAffinity *struct {
			Required []struct {
				TopologyKey   string `yaml:"topologyKey"`
				LabelSelector struct {
					MatchLabels map[string]string `yaml:"matchLabels"`
				} `yaml:"labelSelector"`
			} `yaml:"requiredDuringSchedulingIgnoredDuringExecution"`
		} `yaml:"podAntiAffinity"`
	} `yaml:"affinity"`
	Containers []struct {
		Name    string   `yaml:"name"`
		Image   string   `yaml:"image"`
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Env     []struct {
			Name      string `yaml:"name"`
			Value     string `yaml:"value"`
			ValueFrom *struct {
				FieldRef struct {
					FieldPath string `yaml:"fieldPath"`
				} `yaml:"fieldRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
		Resources    k8sResources `yaml:"resources"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	} `yaml:"containers"`
	Volumes []struct {
		Name                  string `yaml:"name"`
		PersistentVolumeClaim *struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
	} `yaml:"volumes"`
}

func decodeManifests(t *testing.T, path string) []k8sObject {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var out []k8sObject
	for {
		var o k8sObject
		err := dec.Decode(&o)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			t.Fatalf("%s: document %d: %v", path, len(out)+1, err)
		}
		if o.Kind == "" || o.APIVersion == "" || o.Metadata.Name == "" {
			t.Fatalf("%s: document %d lacks apiVersion, kind or metadata.name", path, len(out)+1)
		}
		out = append(out, o)
	}
	return out
}

// checkRequeuedPart checks what re-running a finished shard did to its part:
// the old contents are untouched, and anything appended re-measures a result
// that was noisy before (none appended when nothing was noisy).
func checkRequeuedPart(t *testing.T, before, after []byte) {
	t.Helper()
	if !bytes.HasPrefix(after, before) {
		t.Fatalf("re-running finished task 1 rewrote its part (%d -> %d bytes)", len(before), len(after))
	}
	old, err := results.Parse("part before", before)
	if err != nil {
		t.Fatal(err)
	}
	all, err := results.Parse("part after", after)
	if err != nil {
		t.Fatal(err)
	}
	noisy := map[string]bool{}
	for _, b := range old {
		if b.Noisy() {
			noisy[b.Portlab.Host+"|"+b.Portlab.ID] = true
		}
	}
	for _, b := range all[len(old):] {
		if b.Portlab == nil || !noisy[b.Portlab.Host+"|"+b.Portlab.ID] {
			t.Errorf("re-running finished task 1 appended %+v, which was not noisy before", b.Portlab)
		}
	}
	if len(noisy) == 0 && len(all) != len(old) {
		t.Errorf("nothing was noisy, yet re-running finished task 1 appended %d results", len(all)-len(old))
	}
}
