// Package cluster owns llvm-exegesis's analysis mode, done for portlab: it
// groups benchmark points into clusters, finds where a machine model
// disagrees with the measurements, and reports that as CSV, JSON and a
// self-contained HTML page. It never measures anything.
//
// # Points
//
// A point is one benchmark result (one exegesis YAML document, written by
// llvm-exegesis itself or by portlab). Its coordinates are the per-instruction
// values of its measurements, in the order the document lists them; its
// identity (what exegesis calls the opcode) is the portlab form for results
// portlab generated from a form, and the LLVM opcode (the first token of the
// key instruction, e.g. ADD64rr) for results written by llvm-exegesis. Points
// whose error field is set, or that carry no measurement, form the error
// cluster. Points are resolved to canonical portlab forms where possible
// (see Resolve) so they can be compared with a model and filtered by whether
// the form has a memory operand.
//
// # Clustering
//
// Run clusters the points as llvm-exegesis does. With DBSCAN (the default),
// a point with at least MinPoints-1 other points within Epsilon (Euclidean
// distance over the per-instruction values, inclusive) is a core point; core
// points within Epsilon of each other share a cluster, and points within
// Epsilon of a core point join its cluster as border points; everything else
// is noise. Points are visited in input order and clusters numbered from 0 in
// the order they are found, so cluster ids and row order match exegesis's.
// Afterwards every (identity, config) whose points landed in more than one
// cluster is moved, whole, to a new cluster marked unstable (exegesis calls
// this stabilisation); the clusters it came from keep their ids and may be
// left empty. The naive mode makes one cluster per (identity, config) and
// marks it unstable unless every point lies within Epsilon/2 of the
// cluster's centroid.
//
// Unlike exegesis, which refuses a file mixing measurement kinds, Run
// partitions the points by their measurement keys (latency, throughput, uops
// with its port keys) and clusters each partition on its own; ids run on
// across partitions. For a file of one kind the result is exegesis's.
//
// # Inconsistencies
//
// Analyze groups the measured forms by the model's classes: forms whose
// entries name the same Class, or, for entries without a class, forms the
// model gives the same latency, reciprocal throughput, uops and port
// pressure. Within a class it buckets the points of the displayed clusters
// (the stable ones, or with DisplayUnstable the unstable ones) by cluster
// and compares each bucket's centroid with the model, as exegesis does:
// latency points with the entry's latency, or the latency of the measured
// operand pair; throughput points with the reciprocal throughput; uops
// points with the uop count and the idealised port pressure. It also
// compares every form with its own entry, so that a form alone in its class,
// measured once (a noise point) or split across clusters (unstable) is still
// checked: a stable form by the mean of its cluster's points, the others by
// their median; an unstable form is off only when the model lies more than
// epsilon outside the range of its points. A class is inconsistent when
// some comparison is further than the inconsistency epsilon from the model;
// the report orders classes by relative error, the most wrong first.
// Helper chains and port-conflict mixes are clustered but compared with no
// entry. CorrectModel turns the findings into a corrected model with
// provenance notes; WriteCSV, WriteJSON and WriteHTML write the reports.
package cluster
