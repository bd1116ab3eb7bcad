// harness/trace.c: the measuring half of tools/cputrace. One thread per CPU named
// on the command line, each pinned to its CPU, runs chunks of two parts
// until the time is up: a dependency chain of adds (one cycle an add on
// every x86-64 core: the clock) and twelve independent add streams (bound
// by the ALUs: what a busy SMT sibling slows). It prints one line per
// chunk: CPU, TSC at the chunk's start, TSC ticks of the chain, TSC ticks
// of the streams; and first a line with the TSC frequency measured
// against CLOCK_MONOTONIC over the run.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

typedef struct { uint64_t tsc; uint32_t chain, stream; } chunk;
typedef struct { int cpu; uint64_t end; chunk *c; size_t n, cap; int err; } tracer;

static void *run(void *arg) {
	tracer *t = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		t->err = 1;
		return 0;
	}
	for (;;) {
		uint64_t t0 = __rdtsc();
		if (t0 >= t->end) break;
		for (int k = 0; k < 400; k++)
			__asm__ volatile(".rept 50\n add %%rcx, %%rax\n .endr\n" ::: "rax");
		uint64_t t1 = __rdtsc();
		for (int k = 0; k < 1600; k++)
			__asm__ volatile(".rept 5\n"
			                 " add %%rcx, %%rax\n add %%rcx, %%rbx\n add %%rcx, %%rdx\n add %%rcx, %%rsi\n"
			                 " add %%rcx, %%rdi\n add %%rcx, %%r8\n add %%rcx, %%r9\n add %%rcx, %%r10\n"
			                 " add %%rcx, %%r11\n add %%rcx, %%r12\n add %%rcx, %%r13\n add %%rcx, %%r14\n"
			                 ".endr\n" ::: "rax", "rbx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14");
		uint64_t t2 = __rdtsc();
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 1 << 16;
			t->c = realloc(t->c, t->cap * sizeof(chunk));
			if (!t->c) {
				t->err = 2;
				return 0;
			}
		}
		t->c[t->n++] = (chunk){t0, (uint32_t)(t1 - t0), (uint32_t)(t2 - t1)};
	}
	return 0;
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: trace SECONDS CPU...\n");
		return 2;
	}
	double secs = atof(argv[1]);
	int n = argc - 2;
	tracer *t = calloc(n, sizeof(tracer));
	pthread_t *th = calloc(n, sizeof(pthread_t));
	// The TSC frequency, over 50 ms before the run and the run itself.
	double w0 = now();
	uint64_t c0 = __rdtsc();
	while (now() - w0 < 0.05) {
	}
	double hz = (__rdtsc() - c0) / (now() - w0);
	uint64_t end = __rdtsc() + (uint64_t)(secs * hz);
	for (int i = 0; i < n; i++) {
		t[i].cpu = atoi(argv[2 + i]);
		t[i].end = end;
		pthread_create(&th[i], 0, run, &t[i]);
	}
	for (int i = 0; i < n; i++) pthread_join(th[i], 0);
	hz = (__rdtsc() - c0) / (now() - w0);
	printf("tsc_hz %.0f\n", hz);
	for (int i = 0; i < n; i++) {
		if (t[i].err) {
			fprintf(stderr, "trace: CPU %d: %s\n", t[i].cpu, t[i].err == 1 ? "cannot pin a thread there" : "out of memory");
			return 1;
		}
		for (size_t k = 0; k < t[i].n; k++)
			printf("%d %llu %u %u\n", t[i].cpu, (unsigned long long)t[i].c[k].tsc, t[i].c[k].chain, t[i].c[k].stream);
	}
	return 0;
}
