package sweep

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"portlab/hostcpu"
	"portlab/results"
)

// Environment variables of the cluster engines that --shard auto reads.
const (
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmTaskMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	EnvK8sIndex       = "JOB_COMPLETION_INDEX"
	// EnvShards is the shard count for engines that do not export one
	// (Kubernetes Indexed Jobs: set it to the Job's completions).
	EnvShards = "PORTLAB_SHARDS"
	// EnvNode names the machine in results (Kubernetes: the pod's
	// spec.nodeName through the downward API).
	EnvNode = "PORTLAB_NODE"
	// EnvSlurmNode is the node name Slurm gives every job step.
	EnvSlurmNode = "SLURMD_NODENAME"
)

// ShardSpec is a resolved shard: Index of Count, and where they came from
// ("Slurm job array (SLURM_ARRAY_TASK_ID=3, ...)").
type ShardSpec struct {
	Index, Count int
	Source       string
}

// AutoShard resolves --shard auto from the environment of a job array:
//
//   - Slurm (sbatch --array=0-15): the index is SLURM_ARRAY_TASK_ID less
//     SLURM_ARRAY_TASK_MIN (0 when unset), divided by SLURM_ARRAY_TASK_STEP
//     (1 when unset); the count is SLURM_ARRAY_TASK_COUNT, or
//     (MAX-MIN)/STEP+1 from SLURM_ARRAY_TASK_MAX. The array must be one
//     evenly stepped range: --array=0-15, 1-16, 0-30:2 and 0-15%4 work,
//     and a list such as --array=1,2,7 is refused.
//   - Kubernetes Indexed Jobs: the index is JOB_COMPLETION_INDEX; the count
//     is shards (the --shards flag) or PORTLAB_SHARDS, since Kubernetes does
//     not export the Job's completions.
//
// shards (0 = not given) and PORTLAB_SHARDS, when set, must agree with each
// other and with a Slurm array's own count. getenv is os.Getenv outside
// tests. Errors name the variables and their values.
func AutoShard(getenv func(string) string, shards int) (ShardSpec, error) {
	count, countFrom, err := shardCount(getenv, shards)
	if err != nil {
		return ShardSpec{}, err
	}
	id, k8s := getenv(EnvSlurmTaskID), getenv(EnvK8sIndex)
	switch {
	case id != "" && k8s != "":
		return ShardSpec{}, fmt.Errorf("--shard auto: both %s=%s (Slurm) and %s=%s (Kubernetes) are set; unset one or pass --shard i/n", EnvSlurmTaskID, id, EnvK8sIndex, k8s)
	case id != "":
		s, err := slurmShard(getenv)
		if err != nil {
			return ShardSpec{}, err
		}
		if count > 0 && count != s.Count {
			return ShardSpec{}, fmt.Errorf("--shard auto: %s says %d shards but the Slurm array has %d (%s); make them agree or drop %s", countFrom, count, s.Count, s.Source, countFrom)
		}
		return s, nil
	case k8s != "":
		i, err := envInt(EnvK8sIndex, k8s)
		if err != nil {
			return ShardSpec{}, err
		}
		if count == 0 {
			return ShardSpec{}, fmt.Errorf("--shard auto: %s=%s (Kubernetes Indexed Job) gives the index but not the count: pass --shards N or set %s to the Job's completions", EnvK8sIndex, k8s, EnvShards)
		}
		if i >= count {
			return ShardSpec{}, fmt.Errorf("--shard auto: %s=%d is not below the shard count %d (%s): completions and the shard count must agree", EnvK8sIndex, i, count, countFrom)
		}
		return ShardSpec{Index: i, Count: count, Source: fmt.Sprintf("Kubernetes Indexed Job (%s=%d, %s)", EnvK8sIndex, i, countFrom)}, nil
	}
	hint := ""
	if j := getenv("SLURM_JOB_ID"); j != "" {
		hint = fmt.Sprintf(" (SLURM_JOB_ID=%s is set: submit with sbatch --array=0-N)", j)
	}
	return ShardSpec{}, fmt.Errorf("--shard auto: no job-array index in the environment%s: want %s with %s or %s/%s (Slurm job arrays), or %s with --shards N or %s (Kubernetes Indexed Jobs); outside a job array pass --shard i/n",
		hint, EnvSlurmTaskID, EnvSlurmTaskCount, EnvSlurmTaskMin, EnvSlurmTaskMax, EnvK8sIndex, EnvShards)
}

// shardCount returns the shard count given by the flag or PORTLAB_SHARDS
// (0 when neither) and which one said it.
func shardCount(getenv func(string) string, shards int) (int, string, error) {
	if shards < 0 {
		return 0, "", fmt.Errorf("--shards %d: want a positive count", shards)
	}
	env := getenv(EnvShards)
	if env == "" {
		if shards > 0 {
			return shards, fmt.Sprintf("--shards %d", shards), nil
		}
		return 0, "", nil
	}
	n, err := envInt(EnvShards, env)
	if err == nil && n < 1 {
		err = fmt.Errorf("%s=%s: want a positive count", EnvShards, env)
	}
	if err != nil {
		return 0, "", err
	}
	if shards > 0 && shards != n {
		return 0, "", fmt.Errorf("--shards %d disagrees with %s=%d", shards, EnvShards, n)
	}
	return n, fmt.Sprintf("%s=%d", EnvShards, n), nil
}

// slurmShard reads a Slurm job array's index and count.
func slurmShard(getenv func(string) string) (ShardSpec, error) {
	var vals []string // for the source and errors
	get := func(name string, def int) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return def, false, nil
		}
		vals = append(vals, name+"="+v)
		n, err := envInt(name, v)
		return n, true, err
	}
	id, _, err := get(EnvSlurmTaskID, 0)
	if err != nil {
		return ShardSpec{}, err
	}
	lo, _, err := get(EnvSlurmTaskMin, 0)
	if err != nil {
		return ShardSpec{}, err
	}
	step, _, err := get(EnvSlurmTaskStep, 1)
	if err != nil {
		return ShardSpec{}, err
	}
	hi, hasMax, err := get(EnvSlurmTaskMax, 0)
	if err != nil {
		return ShardSpec{}, err
	}
	count, hasCount, err := get(EnvSlurmTaskCount, 0)
	if err != nil {
		return ShardSpec{}, err
	}
	src := strings.Join(vals, ", ")
	if step < 1 {
		return ShardSpec{}, fmt.Errorf("--shard auto: %s: step below 1", src)
	}
	if hasMax {
		if hi < lo {
			return ShardSpec{}, fmt.Errorf("--shard auto: %s: maximum below minimum", src)
		}
		n := (hi-lo)/step + 1
		if hasCount && n != count {
			return ShardSpec{}, fmt.Errorf("--shard auto: %s: the array is not one evenly stepped range (%d tasks, %d between minimum and maximum): submit with --array=0-%d", src, count, n, count-1)
		}
		count = n
	} else if !hasCount {
		return ShardSpec{}, fmt.Errorf("--shard auto: %s without %s or %s: cannot tell the shard count", src, EnvSlurmTaskCount, EnvSlurmTaskMax)
	}
	if count < 1 {
		return ShardSpec{}, fmt.Errorf("--shard auto: %s: want at least one task", src)
	}
	if id < lo || (id-lo)%step != 0 || (id-lo)/step >= count {
		return ShardSpec{}, fmt.Errorf("--shard auto: %s: task %d is not one of the %d tasks from %d in steps of %d (an array of 1-based ids needs %s)", src, id, count, lo, step, EnvSlurmTaskMin)
	}
	return ShardSpec{Index: (id - lo) / step, Count: count, Source: "Slurm job array (" + src + ")"}, nil
}

func envInt(name, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q: want a non-negative integer", name, v)
	}
	return n, nil
}

// NodeName names the machine a sweep runs on: PORTLAB_NODE when set (the
// Kubernetes manifest sets it to the pod's node), else SLURMD_NODENAME
// under Slurm, else the host name. Inside a pod the host name is the pod's,
// not the node's; results from several pods on one node then look like
// several machines.
func NodeName(getenv func(string) string) string {
	for _, k := range []string{EnvNode, EnvSlurmNode} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
	}
	h, _ := os.Hostname()
	return h
}

// HostInfo describes the host for results: its CPU type from info and the
// machine's name node.
func HostInfo(info *hostcpu.Info, node string) *results.HostInfo {
	return &results.HostInfo{
		Node:        node,
		Vendor:      info.Vendor,
		Family:      info.Family,
		Model:       info.Model,
		Stepping:    info.Stepping,
		Brand:       info.Brand,
		Microarch:   info.Microarch,
		Microcode:   info.Microcode,
		Kernel:      info.Kernel,
		ClockSource: info.ClockSource,
		Hypervisor:  info.HypervisorVendor,
	}
}
