// harness/units.c: the units trace of tools/cputrace (-units). One thread,
// pinned to the CPU named on the command line, runs chunks until the time
// is up; a chunk is an add chain (one cycle an add: the clock) and seven
// streams of independent instructions, each bound by one kind of unit:
//
//   add    twelve register adds (the ALUs: portlab's throughput canary)
//   por    twelve por xmm (the vector ALUs: the vector canary)
//   ld     twelve loads of one line of the stack (the load ports: the load canary)
//   vpand  twelve vpand ymm (a vector snippet; 0 without AVX)
//   ldop   twelve sub r64, m64 over 96 bytes (a load-op snippet)
//   ld96   twelve mov r64, m64 over the same 96 bytes
//   rmw    twelve sub m64, imm8 over the same 96 bytes (read-modify-write)
//   win    the window canary: two chains of 40 imul r64, r64, each after
//          WIN_NOPS nops (cc -DWIN_NOPS=N), eight times; the two chains
//          overlap only while the core keeps 80 + WIN_NOPS instructions
//          in flight, which tools/cputrace sets to three quarters of the
//          core's reorder buffer
//
// It prints one line per chunk: the chain's TSC ticks, then each stream's,
// in that order; and first the instructions of the chain and of each
// stream.
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#define REPT ".rept 5\n"
#ifndef WIN_NOPS
#define WIN_NOPS 112
#endif
#define STR_(x) #x
#define STR(x) STR_(x)
#define WIN_CHAIN(r) ".rept 40\n imul %%" r ", %%" r "\n .endr\n .rept " STR(WIN_NOPS) "\n nop\n .endr\n"
static char buf[8192] __attribute__((aligned(4096)));

__attribute__((target("avx"))) static void vpand_stream(void) {
	for (int k = 0; k < 200; k++)
		__asm__ volatile(REPT
		                 " vpand %%ymm13, %%ymm12, %%ymm0\n vpand %%ymm13, %%ymm12, %%ymm1\n vpand %%ymm13, %%ymm12, %%ymm2\n"
		                 " vpand %%ymm13, %%ymm12, %%ymm3\n vpand %%ymm13, %%ymm12, %%ymm4\n vpand %%ymm13, %%ymm12, %%ymm5\n"
		                 " vpand %%ymm13, %%ymm12, %%ymm6\n vpand %%ymm13, %%ymm12, %%ymm7\n vpand %%ymm13, %%ymm12, %%ymm8\n"
		                 " vpand %%ymm13, %%ymm12, %%ymm9\n vpand %%ymm13, %%ymm12, %%ymm10\n vpand %%ymm13, %%ymm12, %%ymm11\n"
		                 ".endr\n vzeroupper\n" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11");
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: units SECONDS CPU\n");
		return 2;
	}
	double secs = atof(argv[1]);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		fprintf(stderr, "units: cannot pin to CPU %s\n", argv[2]);
		return 1;
	}
	__builtin_cpu_init();
	int avx = __builtin_cpu_supports("avx");
	double w0 = now();
	uint64_t c0 = __rdtsc();
	while (now() - w0 < 0.05) {
	}
	double hz = (__rdtsc() - c0) / (now() - w0);
	uint64_t end = __rdtsc() + (uint64_t)(secs * hz);
	char *p = buf + 2048;
	printf("instructions 10000 12000 12000 12000 12000 12000 12000 2400 640\n");
	while (__rdtsc() < end) {
		uint64_t t[10];
		t[0] = __rdtsc();
		for (int k = 0; k < 200; k++) __asm__ volatile(".rept 50\n add %%rcx, %%rax\n .endr\n" ::: "rax");
		t[1] = __rdtsc();
		for (int k = 0; k < 200; k++)
			__asm__ volatile(REPT
			                 " add %%rcx, %%rax\n add %%rcx, %%rbx\n add %%rcx, %%rdx\n add %%rcx, %%rsi\n"
			                 " add %%rcx, %%rdi\n add %%rcx, %%r8\n add %%rcx, %%r9\n add %%rcx, %%r10\n"
			                 " add %%rcx, %%r11\n add %%rcx, %%r12\n add %%rcx, %%r13\n add %%rcx, %%r14\n"
			                 ".endr\n" ::: "rax", "rbx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14");
		t[2] = __rdtsc();
		for (int k = 0; k < 200; k++)
			__asm__ volatile(REPT
			                 " por %%xmm15, %%xmm0\n por %%xmm15, %%xmm1\n por %%xmm15, %%xmm2\n por %%xmm15, %%xmm3\n"
			                 " por %%xmm15, %%xmm4\n por %%xmm15, %%xmm5\n por %%xmm15, %%xmm6\n por %%xmm15, %%xmm7\n"
			                 " por %%xmm15, %%xmm8\n por %%xmm15, %%xmm9\n por %%xmm15, %%xmm10\n por %%xmm15, %%xmm11\n"
			                 ".endr\n" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11");
		t[3] = __rdtsc();
		for (int k = 0; k < 200; k++)
			__asm__ volatile(REPT
			                 " mov (%%rsp), %%rax\n mov 8(%%rsp), %%rbx\n mov 16(%%rsp), %%rdx\n mov 24(%%rsp), %%rsi\n"
			                 " mov (%%rsp), %%rdi\n mov 8(%%rsp), %%r8\n mov 16(%%rsp), %%r9\n mov 24(%%rsp), %%r10\n"
			                 " mov (%%rsp), %%r11\n mov 8(%%rsp), %%r12\n mov 16(%%rsp), %%r13\n mov 24(%%rsp), %%r14\n"
			                 ".endr\n" ::: "rax", "rbx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14");
		t[4] = __rdtsc();
		if (avx) vpand_stream();
		t[5] = __rdtsc();
		for (int k = 0; k < 200; k++)
			__asm__ volatile(REPT
			                 " sub (%0), %%rax\n sub 8(%0), %%rbx\n sub 16(%0), %%rdx\n sub 24(%0), %%rsi\n"
			                 " sub 32(%0), %%rdi\n sub 40(%0), %%r8\n sub 48(%0), %%r9\n sub 56(%0), %%r10\n"
			                 " sub 64(%0), %%r11\n sub 72(%0), %%r12\n sub 80(%0), %%r13\n sub 88(%0), %%r14\n"
			                 ".endr\n" ::"r"(p) : "rax", "rbx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14");
		t[6] = __rdtsc();
		for (int k = 0; k < 200; k++)
			__asm__ volatile(REPT
			                 " mov (%0), %%rax\n mov 8(%0), %%rbx\n mov 16(%0), %%rdx\n mov 24(%0), %%rsi\n"
			                 " mov 32(%0), %%rdi\n mov 40(%0), %%r8\n mov 48(%0), %%r9\n mov 56(%0), %%r10\n"
			                 " mov 64(%0), %%r11\n mov 72(%0), %%r12\n mov 80(%0), %%r13\n mov 88(%0), %%r14\n"
			                 ".endr\n" ::"r"(p) : "rax", "rbx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14");
		t[7] = __rdtsc();
		for (int k = 0; k < 100; k++)
			__asm__ volatile(".rept 2\n"
			                 " subq $1, (%0)\n subq $1, 8(%0)\n subq $1, 16(%0)\n subq $1, 24(%0)\n"
			                 " subq $1, 32(%0)\n subq $1, 40(%0)\n subq $1, 48(%0)\n subq $1, 56(%0)\n"
			                 " subq $1, 64(%0)\n subq $1, 72(%0)\n subq $1, 80(%0)\n subq $1, 88(%0)\n"
			                 ".endr\n" ::"r"(p) : "memory");
		t[8] = __rdtsc();
		__asm__ volatile("mov $1, %%rax\n mov $1, %%rdx\n" ::: "rax", "rdx");
		for (int k = 0; k < 8; k++) __asm__ volatile(WIN_CHAIN("rax") WIN_CHAIN("rdx") ::: "rax", "rdx");
		t[9] = __rdtsc();
		printf("%u", (unsigned)(t[1] - t[0]));
		for (int i = 1; i < 9; i++) printf(" %u", i == 4 && !avx ? 0u : (unsigned)(t[i + 1] - t[i]));
		printf("\n");
	}
	return 0;
}
