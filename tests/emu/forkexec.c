/* SPDX-License-Identifier: MIT */
/*
 * Workload: fork, then exec another workload in the child, and wait.
 * The child runs exactly CHILD_INSNS instructions between the fork and
 * its execve (raw system calls, so no library code runs in between):
 * cachegrind loses them when the child's image is replaced, pmu counts
 * them as perf does; tests/cli/emu-oracle.sh adds them to cachegrind's
 * total.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_INSNS 4   /* test, jnz, mov, syscall */

extern char **environ;

int main(int argc, char **argv)
{
	static char path[4096];
	char *args[] = { path, (char *)"2", NULL };
	char **env = environ;
	long pid;
	int status = 0;
	char *slash;

	snprintf(path, sizeof(path) - 16, "%s", argv[0]);
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "loops");
	(void)argc;
	char *p = path, **a = args;
	long nr = 57;                              /* fork */

	/* the child: test, jnz (not taken), mov, syscall = CHILD_INSNS, in
	 * the cache line of the fork's syscall (which the parent has just
	 * fetched, so the child's copy of the caches holds it) */
	__asm__ volatile(".p2align 6\n\t"
			 "syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $59, %%eax\n\t"      /* execve(p, a, env) */
			 "syscall\n\t"
			 "mov $60, %%eax\n\t"      /* exit(127) if it failed */
			 "mov $127, %%edi\n\t"
			 "syscall\n"
			 "1:"
			 : "+a"(nr), "+D"(p), "+S"(a), "+d"(env)
			 : : "rcx", "r11", "memory", "cc");
	pid = nr;
	if (pid < 0)
		return 1;
	waitpid((pid_t)pid, &status, 0);
	printf("child %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
