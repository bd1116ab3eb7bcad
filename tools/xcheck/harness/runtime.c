/*
 * xcheck runtime: times the benchmark functions that xcheck generated
 * (bench.S) without any of portlab's engine. Method, per benchmark and per
 * process:
 *
 *   - every benchmark exists twice, with its body repeated N and 2N times
 *     per loop iteration; a calibration chain of dependent adds (one cycle
 *     each on every x86-64 core) exists the same way;
 *   - B batches run back to back; each batch times the calibration at N
 *     and 2N and the benchmark at N and 2N (rdtsc behind lfence);
 *   - each of the four timings keeps its minimum over the batches: noise
 *     (interrupts, a busy sibling, a slower clock for a while) only ever
 *     adds ticks, so each minimum tends to the undisturbed value;
 *   - ticks per copy = (min 2N - min N) / (N x loops), the same for the
 *     calibration gives ticks per cycle, and their ratio is cycles per copy;
 *   - kernels exist at a second pair of lengths too, N' and 2N' (half as
 *     many copies again), timed in the same batches. In one steady state
 *     the four functions' cycles an iteration lie on one line; where the
 *     two pairs' values are more than 2 % apart and one function of a
 *     pair lies on the other pair's line while its partner does not, that
 *     partner ran in another state and the intact pair's value is the
 *     result; where no function alone is to blame, the N pair's value.
 *
 * The driver runs several processes and takes the median of their values.
 * Output: one line per benchmark, "name<TAB>cycles<TAB>ticks/copy<TAB>ticks/cycle",
 * for kernels followed by "<TAB>cycles at N'<TAB>pair" (pair: "short" where
 * the N pair gave the value, "longer" where the N' pair did, "apart" where
 * the lengths disagree and no function alone is to blame), or
 * "name<TAB>error<TAB>why".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The context a benchmark function loads its registers from (bench.S
 * knows these offsets: gpr at 0, vec at 128, mask at 2176, mxcsr at 2240). */
struct ctx {
	uint64_t gpr[16];
	uint8_t vec[32][64];
	uint64_t mask[8];
	uint32_t mxcsr;
	uint32_t pad[15];
};

typedef uint64_t (*bench_fn)(struct ctx *, uint64_t loops);

/* One benchmark as bench.S describes it. */
struct bench {
	const char *name;
	bench_fn n, n2;       /* body x copies, body x 2*copies per iteration */
	uint64_t copies;      /* N */
	uint64_t base_mask;   /* bit r: register r points into the scratch buffer */
	uint64_t base_off[16];/* its offset there */
	uint64_t zero_mask;   /* bit r: register r starts at 0 (rdx, indexes) */
	uint64_t pattern;     /* vector fill: 0 float 1.0, 1 double 1.0, 2 half 1.0, 3 bytes 0xff */
	uint64_t self;        /* every scratch word holds its own address (pointer chases) */
	uint64_t fill;        /* scratch fill: 0 zeros, 1 bytes 0x13 (divisors), 2 MXCSR images 0x1f80 */
	bench_fn l, l2;       /* kernels: body x lcopies, x 2*lcopies (0 otherwise) */
	uint64_t lcopies;     /* N' */
};

/* Line-check tolerances (the same rule as portlab's, written apart): on
 * a line within 1 % of the cycles and 0.1 cycle, off it by more than 2 %. */
static int on_line(double c, double t, double k, double y) { return fabs(y - (c + t * k)) <= 0.01 * y + 0.1; }
static int off_line(double c, double t, double k, double y) { return fabs(y - (c + t * k)) > 0.02 * y; }

extern struct bench xc_benches[];
extern uint64_t xc_count;
extern uint64_t xc_cal_n(struct ctx *, uint64_t);
extern uint64_t xc_cal_n2(struct ctx *, uint64_t);
extern uint64_t xc_cal_copies;

#define SCRATCH (1u << 20)
#define XC_SCRATCH 0x200000000000ul /* scratchAddr in main.go */
/* Where portlab's generator points absolute-address (moffs) operands:
 * `movabs eax, dword ptr [0x10000000]` reads there. */
#define XC_FIXED 0x10000000ul
#define TARGET_TICKS 20000 /* one timed call at N copies: about 10 us */

static sigjmp_buf crashed;
static volatile int crash_sig;

static void on_crash(int sig)
{
	crash_sig = sig;
	siglongjmp(crashed, 1);
}

static uint64_t min_of(bench_fn f, struct ctx *c, uint64_t loops, int tries)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < tries; i++) {
		uint64_t t = f(c, loops);
		if (t < best)
			best = t;
	}
	return best;
}

static void fill(struct ctx *c, const struct bench *b, uint8_t *scratch)
{
	for (int r = 0; r < 16; r++) {
		c->gpr[r] = 0x13;
		if (b->zero_mask >> r & 1)
			c->gpr[r] = 0;
		if (b->base_mask >> r & 1)
			c->gpr[r] = (uint64_t)(uintptr_t)scratch + b->base_off[r];
	}
	static const uint8_t f32[] = {0, 0, 0x80, 0x3f}, f64[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, f16[] = {0, 0x3c}, ones[] = {0xff};
	const uint8_t *p = f32;
	size_t n = sizeof f32;
	if (b->pattern == 1)
		p = f64, n = sizeof f64;
	else if (b->pattern == 2)
		p = f16, n = sizeof f16;
	else if (b->pattern == 3)
		p = ones, n = sizeof ones;
	for (int v = 0; v < 32; v++)
		for (size_t j = 0; j < 64; j += n)
			memcpy(&c->vec[v][j], p, n);
	for (int k = 0; k < 8; k++)
		c->mask[k] = ~0ull;
	c->mxcsr = 0x9fc0; /* FTZ, DAZ, every exception masked */
}

int main(int argc, char **argv)
{
	int cpu = -1, batches = 60;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-cpu"))
			cpu = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-batches"))
			batches = atoi(argv[i + 1]);
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			fprintf(stderr, "xcheck runtime: pinning to CPU %d: %s\n", cpu, strerror(errno));
			return 2;
		}
	}
	/* At a fixed address: the reset tables in bench.S hold absolute pointers. */
	uint8_t *scratch = mmap((void *)XC_SCRATCH, SCRATCH, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_FIXED_NOREPLACE, -1, 0);
	if (scratch != (uint8_t *)XC_SCRATCH) {
		fprintf(stderr, "xcheck runtime: mapping the scratch buffer at %#lx: %s\n", XC_SCRATCH, strerror(errno));
		return 2;
	}
	uint8_t *fixed = mmap((void *)XC_FIXED, 4096, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_FIXED_NOREPLACE, -1, 0);
	if (fixed != (uint8_t *)XC_FIXED) {
		fprintf(stderr, "xcheck runtime: mapping the page absolute addresses read at %#lx: %s\n", XC_FIXED, strerror(errno));
		return 2;
	}
	static struct ctx c __attribute__((aligned(64)));
	struct sigaction sa = {0};
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);

	/* The calibration's loop count: TARGET_TICKS at N copies. */
	struct bench none = {0};
	fill(&c, &none, scratch);
	uint64_t cal1 = min_of(xc_cal_n, &c, 1, 20);
	uint64_t cal_loops = cal1 ? TARGET_TICKS / cal1 : 1;
	if (cal_loops < 1)
		cal_loops = 1;

	for (uint64_t i = 0; i < xc_count; i++) {
		const struct bench *b = &xc_benches[i];
		memset(scratch, b->fill == 1 ? 0x13 : 0, SCRATCH);
		if (b->fill == 2)
			for (uint32_t *q = (uint32_t *)scratch; q < (uint32_t *)(scratch + SCRATCH); q++)
				*q = 0x1f80;
		if (b->self)
			for (uint64_t *q = (uint64_t *)scratch; q < (uint64_t *)(scratch + SCRATCH); q++)
				*q = (uint64_t)(uintptr_t)q;
		fill(&c, b, scratch);
		if (sigsetjmp(crashed, 1)) {
			__asm__ volatile("emms" ::: "memory");
			if (__builtin_cpu_supports("avx"))
				__asm__ volatile("vzeroupper" ::: "memory");
			printf("%s\terror\tsignal %d (%s)\n", b->name, crash_sig, strsignal(crash_sig));
			fflush(stdout);
			continue;
		}
		uint64_t t1 = min_of(b->n, &c, 1, 5);
		uint64_t loops = t1 ? TARGET_TICKS / t1 : 1;
		if (loops < 1)
			loops = 1;
		/* Warm-up: the core's clock and licence settle to the body's. */
		struct timespec t0, now;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			b->n(&c, loops);
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while ((now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) < 2000000L);
		uint64_t cn = UINT64_MAX, c2 = UINT64_MAX, sn = UINT64_MAX, s2 = UINT64_MAX, ln = UINT64_MAX, l2 = UINT64_MAX;
		for (int k = 0; k < batches; k++) {
			uint64_t t;
			if ((t = xc_cal_n(&c, cal_loops)) < cn)
				cn = t;
			if ((t = xc_cal_n2(&c, cal_loops)) < c2)
				c2 = t;
			if ((t = b->n(&c, loops)) < sn)
				sn = t;
			if ((t = b->n2(&c, loops)) < s2)
				s2 = t;
			if (b->l) {
				if ((t = b->l(&c, loops)) < ln)
					ln = t;
				if ((t = b->l2(&c, loops)) < l2)
					l2 = t;
			}
		}
		double per_cycle = ((double)c2 - (double)cn) / (double)(xc_cal_copies * cal_loops);
		double per_copy = ((double)s2 - (double)sn) / (double)(b->copies * loops);
		if (per_cycle <= 0) {
			printf("%s\terror\tthe calibration chain did not take longer at 2N copies\n", b->name);
		} else if (!b->l) {
			printf("%s\t%.5f\t%.5f\t%.5f\n", b->name, per_copy / per_cycle, per_copy, per_cycle);
		} else {
			/* Cycles an iteration of the four functions. */
			double n = (double)b->copies, nl = (double)b->lcopies, it = (double)loops * per_cycle;
			double tn = sn / it, t2n = s2 / it, tl = ln / it, t2l = l2 / it;
			double vs = (t2n - tn) / n, vl = (t2l - tl) / nl, v = vs;
			const char *pair = "short";
			if (vs > vl * 1.02 || vs * 1.02 < vl) {
				double lc = 2 * tl - t2l, sc = 2 * tn - t2n;
				int blame_short = (on_line(lc, vl, 2 * n, t2n) && off_line(lc, vl, n, tn)) +
						  (on_line(lc, vl, n, tn) && off_line(lc, vl, 2 * n, t2n));
				int blame_long = (on_line(sc, vs, 2 * nl, t2l) && off_line(sc, vs, nl, tl)) +
						 (on_line(sc, vs, nl, tl) && off_line(sc, vs, 2 * nl, t2l));
				if (blame_short == 1 && blame_long == 0)
					v = vl, pair = "longer";
				else if (!(blame_long == 1 && blame_short == 0))
					pair = "apart";
			}
			printf("%s\t%.5f\t%.5f\t%.5f\t%.5f\t%s\n", b->name, v, per_copy, per_cycle, vl, pair);
		}
		fflush(stdout);
	}
	return 0;
}
