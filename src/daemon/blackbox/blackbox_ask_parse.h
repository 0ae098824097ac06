/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blackbox_ask_parse.h - what one GET /probe asks for, from its query
 * (target=, module=, debug=) and Prometheus' scrape timeout header (pure:
 * blackbox_ask_parse.c, test-blackbox-ask-parse).  A request this refuses
 * is malformed (400); anything it accepts is probed and answered 200.
 */
#ifndef RDMAD_BLACKBOX_ASK_PARSE_H
#define RDMAD_BLACKBOX_ASK_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "addr.h"
#include "core/config.h"

#define BLACKBOX_HOST_MAX	254	/* a DNS name's 253 bytes and NUL */
/* Prometheus' scrape timeout, in seconds ("10", "9.5"). */
#define BLACKBOX_SCRAPE_HEADER	"X-Prometheus-Scrape-Timeout-Seconds"
/* Taken off the scrape's timeout for the answer's way back (as
 * blackbox_exporter's --timeout-offset, 0.5 s); a scrape timeout of 1 s
 * or less gets half of it. */
#define BLACKBOX_MARGIN_MS	500

/* A query parameter, decoded. */
struct blackbox_param {
	const char *key;
	const char *value;
};

struct blackbox_ask {
	char target[BLACKBOX_HOST_MAX + 8];	/* as asked: "HOST:PORT" */
	char host[BLACKBOX_HOST_MAX];	/* a name, or the numeric address */
	unsigned int port;
	bool numeric;			/* ADDR holds the address */
	struct addr_endpoint addr;
	struct config_module m;		/* a copy: a reload may change it */
	unsigned int timeout_ms;	/* the probe's: the module's, bounded
					 * by the scrape's */
	unsigned int scrape_ms;		/* the header's; 0: absent */
	bool debug;			/* debug=true: the steps, not metrics */
};

/*
 * *A from the N parameters P (target= once, module= and debug= at most
 * once, nothing else) and SCRAPE (the header's value; NULL: absent), the
 * modules of CFG.  0, or -EINVAL with what is wrong in ERR.
 */
int blackbox_ask_parse(struct blackbox_ask *a, const struct rdmad_config *cfg,
		       const struct blackbox_param *p, unsigned int n,
		       const char *scrape, char *err, size_t errlen);
/*
 * TARGET: a numeric address (a.b.c.d[:PORT], [V6][:PORT]) or a host name
 * (letters, digits, '-', '_', dots; its last label not all digits) with
 * an optional :PORT (1..65535, PROTO_DEFAULT_PORT if left out) into
 * A->host, port, numeric, addr, target.  0 or -EINVAL.
 */
int blackbox_ask_parse_target(struct blackbox_ask *a, const char *target);
/* The header's seconds ("10", "0.25"; OWS around) in whole ms, at least
 * 1, capped at UINT_MAX.  0 or -EINVAL. */
int blackbox_ask_parse_scrape(const char *s, unsigned int *ms);
/* The probe's timeout: MODULE_MS, bounded by SCRAPE_MS (0: none) less
 * the margin; at least 1 ms. */
unsigned int blackbox_ask_parse_budget(unsigned int module_ms,
				       unsigned int scrape_ms);

#endif /* RDMAD_BLACKBOX_ASK_PARSE_H */
