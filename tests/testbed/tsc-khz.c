// SPDX-License-Identifier: BSD-2-Clause
/*
 * tsc-khz - the host's TSC rate in kHz, measured against
 * CLOCK_MONOTONIC_RAW, for the guests' tsc_early_khz= (guest-lib.sh,
 * guest_clock_args).  A guest under TCG or KVM reads the host's TSC, so
 * it ticks at this rate; told it, the guest's kernel does not calibrate
 * it at boot, which a starved guest can get wrong by a factor (its clock
 * then runs that many times fast or slow).
 *
 * Three spans of 100 ms; each end is read as a TSC read, a clock read and
 * a TSC read, the narrowest of 50 tries (a preemption between two reads
 * widens that try and it is dropped).  The spans must agree within
 * 0.1 %, else three more (up to 10 times).  Prints the median's kHz;
 * exit status 1 and a line on stderr if the TSC is not invariant
 * (constant_tsc and nonstop_tsc) or the spans never agree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

#define TRIES 50
#define SPANS 3
#define ROUNDS 10

struct stamp {
	uint64_t tsc;
	uint64_t ns;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct stamp stamp_take(void)
{
	struct stamp best = { 0, 0 };
	uint64_t width = UINT64_MAX;

	for (int i = 0; i < TRIES; i++) {
		uint64_t a = __rdtsc();
		uint64_t ns = mono_ns();
		uint64_t b = __rdtsc();

		if (b > a && b - a < width) {
			width = b - a;
			best.tsc = a + (b - a) / 2;
			best.ns = ns;
		}
	}
	return best;
}

static double span_khz(void)
{
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	struct stamp s0 = stamp_take();
	struct stamp s1;

	nanosleep(&nap, NULL);
	s1 = stamp_take();
	if (s1.ns <= s0.ns || s1.tsc <= s0.tsc)
		return 0;
	return (double)(s1.tsc - s0.tsc) * 1e6 / (double)(s1.ns - s0.ns);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int tsc_invariant(void)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int ok = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
		break;
	}
	fclose(f);
	return ok;
}

int main(void)
{
	double khz[SPANS];

	if (!tsc_invariant()) {
		fprintf(stderr, "tsc-khz: this CPU's TSC is not invariant "
				"(no constant_tsc and nonstop_tsc in /proc/cpuinfo)\n");
		return 1;
	}
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < SPANS; i++)
			khz[i] = span_khz();
		qsort(khz, SPANS, sizeof(khz[0]), cmp_double);
		if (khz[0] > 0 && khz[SPANS - 1] - khz[0] <= khz[SPANS / 2] / 1000) {
			printf("%.0f\n", khz[SPANS / 2]);
			return 0;
		}
	}
	fprintf(stderr, "tsc-khz: %d rounds of %d spans of 100 ms never agreed "
			"within 0.1 %% (last: %.0f to %.0f kHz)\n",
		ROUNDS, SPANS, khz[0], khz[SPANS - 1]);
	return 1;
}
#else
int main(void)
{
	fprintf(stderr, "tsc-khz: no TSC on this architecture\n");
	return 1;
}
#endif
