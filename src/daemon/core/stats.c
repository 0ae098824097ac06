/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - rdmad's counters and latency histograms (see stats.h).
 */
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "core/stats.h"

#define US	1000ull
#define MS	1000000ull
#define S	1000000000ull

/* 10us .. 5min: RDMA operations at the bottom, whole sessions at the top. */
const uint64_t stats_hist_bounds_ns[STATS_HIST_BUCKETS] = {
	10 * US, 25 * US, 50 * US, 100 * US, 250 * US, 500 * US,
	1 * MS, 2500 * US, 5 * MS, 10 * MS, 25 * MS, 50 * MS,
	100 * MS, 250 * MS, 500 * MS, 1 * S, 2500 * MS, 5 * S,
	10 * S, 30 * S, 60 * S, 300 * S,
};

#define X_NAME(id, name)	name,
static const char *const proto_names[] = { STATS_PROTOS(X_NAME) };
static const char *const op_names[] = { STATS_OPS(X_NAME) };
static const char *const result_names[] = { STATS_RESULTS(X_NAME) };
static const char *const reject_names[] = { STATS_REJECTS(X_NAME) };
static const char *const http_names[] = { STATS_HTTP_REFUSALS(X_NAME) };
#undef X_NAME

/* Indexed by enum ibv_wc_status; the last slot is "other". */
static const char *const wc_names[STATS_WC_STATUS_N] = {
	[IBV_WC_SUCCESS] = "SUCCESS",
	[IBV_WC_LOC_LEN_ERR] = "LOC_LEN_ERR",
	[IBV_WC_LOC_QP_OP_ERR] = "LOC_QP_OP_ERR",
	[IBV_WC_LOC_EEC_OP_ERR] = "LOC_EEC_OP_ERR",
	[IBV_WC_LOC_PROT_ERR] = "LOC_PROT_ERR",
	[IBV_WC_WR_FLUSH_ERR] = "WR_FLUSH_ERR",
	[IBV_WC_MW_BIND_ERR] = "MW_BIND_ERR",
	[IBV_WC_BAD_RESP_ERR] = "BAD_RESP_ERR",
	[IBV_WC_LOC_ACCESS_ERR] = "LOC_ACCESS_ERR",
	[IBV_WC_REM_INV_REQ_ERR] = "REM_INV_REQ_ERR",
	[IBV_WC_REM_ACCESS_ERR] = "REM_ACCESS_ERR",
	[IBV_WC_REM_OP_ERR] = "REM_OP_ERR",
	[IBV_WC_RETRY_EXC_ERR] = "RETRY_EXC_ERR",
	[IBV_WC_RNR_RETRY_EXC_ERR] = "RNR_RETRY_EXC_ERR",
	[IBV_WC_LOC_RDD_VIOL_ERR] = "LOC_RDD_VIOL_ERR",
	[IBV_WC_REM_INV_RD_REQ_ERR] = "REM_INV_RD_REQ_ERR",
	[IBV_WC_REM_ABORT_ERR] = "REM_ABORT_ERR",
	[IBV_WC_INV_EECN_ERR] = "INV_EECN_ERR",
	[IBV_WC_INV_EEC_STATE_ERR] = "INV_EEC_STATE_ERR",
	[IBV_WC_FATAL_ERR] = "FATAL_ERR",
	[IBV_WC_RESP_TIMEOUT_ERR] = "RESP_TIMEOUT_ERR",
	[IBV_WC_GENERAL_ERR] = "GENERAL_ERR",
	[IBV_WC_TM_ERR] = "TM_ERR",
	[IBV_WC_TM_RNDV_INCOMPLETE] = "TM_RNDV_INCOMPLETE",
	[STATS_WC_STATUS_N - 1] = "other",
};

_Static_assert(IBV_WC_TM_RNDV_INCOMPLETE == STATS_WC_STATUS_N - 2,
	       "the verbs status table has grown: extend wc_names");

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
}

unsigned int stats_bucket(const uint64_t *bounds, unsigned int n, uint64_t v)
{
	unsigned int i = 0;

	while (i < n && v > bounds[i])
		i++;
	return i;
}

void stats_hist_add(struct stats_hist *h, uint64_t ns)
{
	h->bucket[stats_bucket(stats_hist_bounds_ns, STATS_HIST_BUCKETS, ns)]++;
	h->count++;
	h->sum_ns += ns;
}

void stats_accepted(struct stats *s, enum stats_proto p)
{
	s->accepted[p]++;
	s->active[p]++;
}

void stats_established(struct stats *s, enum stats_proto p, uint64_t ns)
{
	stats_hist_add(&s->connect[p], ns);
}

void stats_closed(struct stats *s, enum stats_proto p, enum stats_result r,
		  uint64_t ns)
{
	if (s->active[p])
		s->active[p]--;
	s->sessions[p][r]++;
	stats_hist_add(&s->session[p], ns);
}

void stats_rejected(struct stats *s, enum stats_reject why)
{
	s->rejects[why]++;
}

void stats_rdma(struct stats *s, enum stats_proto p, enum stats_op op,
		uint64_t n, uint64_t bytes, uint64_t lat_ns)
{
	s->ops[p][op] += n;
	s->bytes[p][op] += bytes;
	if (lat_ns)
		stats_hist_add(&s->rdma_op[op], lat_ns);
}

void stats_liveness_check(struct stats *s)
{
	s->liveness_checks++;
}

void stats_wc_error(struct stats *s, unsigned int status)
{
	if (status >= STATS_WC_STATUS_N - 1)
		status = STATS_WC_STATUS_N - 1;
	s->wc_errors[status]++;
}

/* The entry of DEV/PORT, added (*ADDED) if new; NULL when full. */
static struct stats_port *stats_port_entry(struct stats *s, const char *dev,
					   unsigned int port, bool *added)
{
	struct stats_port *p;
	unsigned int i;

	*added = false;
	for (i = 0; i < s->n_ports; i++) {
		p = &s->ports[i];
		if (p->port == port && !strncmp(p->device, dev,
						sizeof(p->device) - 1))
			return p;
	}
	if (s->n_ports == STATS_PORTS_MAX)
		return NULL;
	p = &s->ports[s->n_ports++];
	snprintf(p->device, sizeof(p->device), "%s", dev);
	p->port = port;
	*added = true;
	return p;
}

void stats_port(struct stats *s, const char *dev, unsigned int port, bool up)
{
	bool added;
	struct stats_port *p = stats_port_entry(s, dev, port, &added);

	if (!p)
		return;
	if (added || p->up != up)
		p->changes++;
	p->up = up;
}

void stats_port_seen(struct stats *s, const char *dev, unsigned int port,
		     bool up)
{
	bool added;
	struct stats_port *p = stats_port_entry(s, dev, port, &added);

	if (!p)
		return;
	if (!added && p->up != up)
		p->changes++;
	p->up = up;
}

void stats_port_rate(struct stats *s, const char *dev, unsigned int port,
		     uint64_t bytes_per_s)
{
	bool added;
	struct stats_port *p = stats_port_entry(s, dev, port, &added);

	if (p)
		p->rate = bytes_per_s;
}

uint64_t stats_sessions_failed(const struct stats *s)
{
	uint64_t n = 0;
	unsigned int p, r;

	for (p = 0; p < STATS_PROTO_N; p++)
		for (r = 0; r < STATS_RES_N; r++)
			if (r != STATS_RES_OK)
				n += s->sessions[p][r];
	return n;
}

uint64_t stats_rejects_total(const struct stats *s)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < STATS_REJ_N; i++)
		n += s->rejects[i];
	return n;
}

uint64_t stats_accepted_total(const struct stats *s)
{
	return s->accepted[STATS_PROTO_NATIVE] + s->accepted[STATS_PROTO_RPING];
}

uint64_t stats_active_total(const struct stats *s)
{
	return s->active[STATS_PROTO_NATIVE] + s->active[STATS_PROTO_RPING];
}

const char *stats_proto_name(enum stats_proto p)
{
	return (unsigned int)p < STATS_PROTO_N ? proto_names[p] : "?";
}

const char *stats_op_name(enum stats_op op)
{
	return (unsigned int)op < STATS_OP_N ? op_names[op] : "?";
}

const char *stats_result_name(enum stats_result r)
{
	return (unsigned int)r < STATS_RES_N ? result_names[r] : "?";
}

const char *stats_reject_name(enum stats_reject why)
{
	return (unsigned int)why < STATS_REJ_N ? reject_names[why] : "?";
}

const char *stats_http_refusal_name(enum stats_http_refusal why)
{
	return (unsigned int)why < STATS_HTTP_N ? http_names[why] : "?";
}

const char *stats_wc_status_name(unsigned int status)
{
	if (status >= STATS_WC_STATUS_N - 1)
		status = STATS_WC_STATUS_N - 1;
	return wc_names[status];
}

bool stats_wc_countable(unsigned int i)
{
	return i < STATS_WC_STATUS_N && i != IBV_WC_SUCCESS &&
	       i != IBV_WC_WR_FLUSH_ERR;
}
