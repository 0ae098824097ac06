/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rdmad-hostile - a deliberately misbehaving rdmad client, for the rdma
 * test suite (tests/rdma/t-5*.sh).
 *
 *   rdmad-hostile [-p PORT] [-I SRCADDR] [-t SECS] [-k KEYFILE] [-V] CASE [ARG] SERVER
 *   rdmad-hostile [OPTIONS] - SERVER     (the cases from stdin, one a line)
 *
 * Each CASE attacks a live rdmad in one way and checks that rdmad
 * answers as it must (reject with the right reason, disconnect, remote
 * access error, intact data...).  It prints one line "ok CASE: detail"
 * or "FAIL CASE: detail" and exits 0 or 1; 2 for usage errors.  Every
 * wait is bounded by -t (default 10 s).  "rdmad-hostile list" prints the
 * cases.  -V: once the case passed and its connections are closed, an
 * honest session on a new connection (the case "honest", with -k
 * "honest-key") in the same process, a second line "ok honest: ..."; the
 * tests' check after each case, one process start fewer (each costs
 * about a second in a TCG guest under ASan).  CASE "-": the cases from
 * stdin, one a line, each followed by a line "end STATUS" (run_cases).
 * One case, "corrupt", is a server instead: a peer that returns
 * wrong bytes, for rdma-probe and rdmad's prober to catch (see there).
 *
 * Synchronous on top of the RDMA layer (src/rdma): one connection is one
 * CM channel, and one rdma_qp whose completion queue is polled; the
 * program's event loop runs only to take CM events.
 */

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "hostile.h"

const char *srv_host, *src_host, *key_path;
unsigned int port = PROTO_DEFAULT_PORT;
int tmo_ms = 10000;
int hold_ms;
const char *case_name = "?";
struct event_base *base;

/* ---- main ------------------------------------------------------------ */

static const char *const cases[] = {
	"honest", "honest-key",
	"hello-bad-magic", "hello-bad-version", "hello-short",
	"hello-reserved", "hello-trailing", "hello-no-ops", "hello-bad-ops",
	"hello-zero-size", "hello-huge-size", "hello-huge-iters",
	"msg-short", "msg-empty", "msg-oversized", "msg-bad-magic",
	"msg-bad-version", "msg-bad-type", "msg-len-mismatch",
	"msg-desc-to-server", "msg-auth-unasked", "done-twice",
	"done-overflow", "done-wrong-data",
	"rping-overflow", "rping-huge", "rping-zero", "rping-short",
	"rping-long", "rping-bad-rkey", "rping-beyond-mr",
	"silent-native", "silent-rping", "silent-auth", "vanish",
	"mesh-hold", "mesh-vanish", "mesh-done",
	"corrupt (a server: SERVER is the address it listens on)",
	"kill STATE (connecting established desc rdma done result)",
	"flood N", "flood-rping N", "steal", "stale-rkey",
	"least-read", "least-write",
	"psk-good", "psk-wrong", "psk-other-hello", "psk-replay", "psk-skip",
	"psk-rping", "expect-reject REASON", "expect-reject-rping REASON",
	NULL,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: rdmad-hostile [-p PORT] [-I SRCADDR] [-t SECS] "
		"[-k KEYFILE] [-H HOLDSECS] [-V] CASE [ARG] SERVER\n"
		"       (SIGUSR1 ends a hold before HOLDSECS)\n"
		"       rdmad-hostile [OPTIONS] - SERVER  (cases from stdin)\n"
		"       rdmad-hostile list\n");
}

/* Run case NAME (ARG: its argument, or NULL), then with THEN_HONEST an
 * honest session on a new connection; the case's status. */
static int run_case(const char *name, const char *arg, int then_honest)
{
	struct hc h = { 0 }, h2 = { 0 }, hv = { 0 };
	int ret = -1;

	case_name = name;
	if ((!strcmp(name, "kill") || !strncmp(name, "flood", 5) ||
	     !strncmp(name, "expect-reject", 13)) && !arg) {
		fprintf(stderr, "rdmad-hostile: case '%s' needs an argument\n",
			name);
		return 2;
	}
	if (!strcmp(name, "honest"))
		ret = case_honest(&h, 0);
	else if (!strcmp(name, "honest-key"))
		ret = case_honest(&h, 1);
	else if (!strncmp(name, "hello-", 6))
		ret = case_hello(name, &h);
	else if (!strncmp(name, "msg-", 4) || !strncmp(name, "done-", 5))
		ret = case_msg(name, &h);
	else if (!strncmp(name, "rping-", 6))
		ret = case_rping(name, &h);
	else if (!strncmp(name, "silent-", 7))
		ret = case_silent(name, &h);
	else if (!strcmp(name, "vanish"))
		ret = case_vanish(&h);
	else if (!strncmp(name, "mesh-", 5))
		ret = case_mesh(name, &h);
	else if (!strcmp(name, "kill"))
		ret = case_kill(arg);
	else if (!strcmp(name, "flood"))
		ret = case_flood((unsigned int)atoi(arg), 0);
	else if (!strcmp(name, "flood-rping"))
		ret = case_flood((unsigned int)atoi(arg), 1);
	else if (!strcmp(name, "steal"))
		ret = case_steal(&h, &h2);
	else if (!strcmp(name, "stale-rkey"))
		ret = case_stale(&h, &h2);
	else if (!strcmp(name, "least-read"))
		ret = case_least(&h, PROTO_OP_READ);
	else if (!strcmp(name, "least-write"))
		ret = case_least(&h, PROTO_OP_WRITE);
	else if (!strncmp(name, "psk-", 4))
		ret = case_psk(name, &h);
	else if (!strcmp(name, "expect-reject"))
		ret = case_expect_reject(&h, atoi(arg), 0);
	else if (!strcmp(name, "expect-reject-rping"))
		ret = case_expect_reject(&h, atoi(arg), 1);
	else if (!strcmp(name, "corrupt"))
		ret = case_corrupt();
	if (ret < 0) {
		fprintf(stderr, "rdmad-hostile: unknown case '%s'\n", name);
		usage(stderr);
		ret = 2;
	}
	hc_close(&h2);
	hc_close(&h);
	if (ret == 0 && then_honest) {
		case_name = "honest";
		ret = case_honest(&hv, key_path != NULL);
		hc_close(&hv);
	}
	return ret;
}

/* CASE "-": the cases from stdin, one a line ("CASE [ARG]"), each run as
 * run_case does and followed by a line "end STATUS"; at the end of the
 * input, 0 if every case passed.  Not kill: its child must fork from a
 * process that has not used RDMA yet.  One process for many cases: in a TCG
 * guest under ASan each start costs about a second. */
static int run_cases(int then_honest)
{
	char line[256], *name, *arg, *save = NULL;
	int ret, worst = 0;

	while (fgets(line, sizeof(line), stdin)) {
		name = strtok_r(line, " \t\n", &save);
		if (!name)
			continue;
		arg = strtok_r(NULL, " \t\n", &save);
		if (!strcmp(name, "kill")) {
			/* Its child would fork from a process that has used
			 * RDMA: such a child failed its READ (t-51). */
			case_name = name;
			ret = failed("not with -: a client of its own");
		} else {
			ret = run_case(name, arg, then_honest);
		}
		printf("end %d\n", ret);
		fflush(stdout);
		if (ret > worst)
			worst = ret;
	}
	return worst;
}

/* SIGUSR1 interrupts a hold's sleep: the test lets go when it is done. */
static void let_go(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = let_go };
	const char *arg = NULL, *name;
	int opt, then_honest = 0;

	while ((opt = getopt(argc, argv, "p:I:t:k:H:Vh")) != -1) {
		switch (opt) {
		case 'V':
			then_honest = 1;
			break;
		case 'H':
			hold_ms = atoi(optarg) * 1000;
			break;
		case 'p':
			port = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'I':
			src_host = optarg;
			break;
		case 't':
			tmo_ms = atoi(optarg) * 1000;
			break;
		case 'k':
			key_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && !strcmp(argv[optind], "list")) {
		for (opt = 0; cases[opt]; opt++)
			puts(cases[opt]);
		return 0;
	}
	if (argc - optind < 2) {
		usage(stderr);
		return 2;
	}
	name = argv[optind++];
	if (!strcmp(name, "kill") || !strncmp(name, "flood", 5) ||
	    !strncmp(name, "expect-reject", 13)) {
		if (argc - optind < 2) {
			usage(stderr);
			return 2;
		}
		arg = argv[optind++];
	}
	srv_host = argv[optind];
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: usleep returns */
	base = event_base_new();
	if (!base) {
		fprintf(stderr, "rdmad-hostile: cannot create an event loop\n");
		return 2;
	}
	if (!strcmp(name, "-"))
		return run_cases(then_honest);
	return run_case(name, arg, then_honest);
}
