// Preloaded into a server by scripts/heap-in-use.sh: on SIGRTMIN+6 it writes glibc's own
// count of the bytes in use (mallinfo2) to stderr. gdb's `call malloc_stats()` did the same
// until a kernel refused gdb's writes to the process's registers.
#include <malloc.h>
#include <signal.h>
#include <stdio.h>

static void report(int signal_number) {
    (void)signal_number;
    // mallinfo2 takes the arena's lock: the signal must not land inside malloc, which the
    // script ensures by asking only while the server is idle.
    struct mallinfo2 info = mallinfo2();
    dprintf(2, "malloc-report in_use=%zu mmapped=%zu\n", info.uordblks, info.hblkhd);
}

__attribute__((constructor)) static void install(void) { signal(SIGRTMIN + 6, report); }
