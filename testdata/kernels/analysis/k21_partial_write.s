# movb bl, al writes part of rax: it merges into the old rax, so it waits
# for the imul (latency 3) that wrote rax, and the next imul waits for it
# (latency 1): 4 cycles an iteration. imul k issues at 1+4k, movb k at
# 4+4k; the last movb at 400 executes at 401, retires at 402: 403 cycles.
# expect: iterations=100 cycles=403
# With --partial-writes none (llvm-mca's Intel models) the movb does not
# wait: it issues as soon as it is dispatched. But the next imul reads all
# of rax, so it waits for both the movb and the last full write of rax
# beneath it, the previous imul (latency 3): imul k issues at 1+3k; the
# last at 298 executes at 301, and with the movb after it (long executed)
# retires at 302: 303 cycles.
# expect: iterations=100 partial-writes=none cycles=303
	imulq	%rdx, %rax
	movb	%bl, %al
