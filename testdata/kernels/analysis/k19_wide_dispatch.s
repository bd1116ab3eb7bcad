# vdpps has 6 uOps, more than the dispatch width (4): it dispatches over
# two cycles (4, then 2), and the next one waits for a cycle of its own:
# iteration k is dispatched at 2k. F0 and F1 are each held 2 cycles. It
# issues at 2k+1; the last at 199 executes at 211 (latency 12) and retires
# at 212: 213 cycles.
# expect: iterations=100 cycles=213
	vdpps	$0xff, %ymm0, %ymm1, %ymm2
