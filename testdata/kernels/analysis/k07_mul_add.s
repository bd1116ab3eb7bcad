# vmulpd (latency 4) feeding a vaddpd (latency 3), iterations independent;
# both run on F0/F1, two a cycle, and two iterations dispatch a cycle.
# Older instructions go first (a vmul has one reader, so its rank is its
# index minus one): cycles 1-4 issue the vmuls of iterations 0-7 two a
# cycle, cycles 5-8 their vadds just as the products arrive, cycles 9-12
# the next eight vmuls, and so on: iterations 8b..8b+7 issue their vmuls at
# 8b+1..8b+4 and their vadds at 8b+5..8b+8. The last four iterations
# (96-99) issue their vmuls at 97 and 98, their vadds at 101 and 102; the
# last vadd executes at 105 and retires at 106: 107 cycles.
# expect: iterations=100 cycles=107
	vmulpd	%ymm0, %ymm1, %ymm2
	vaddpd	%ymm2, %ymm3, %ymm4
