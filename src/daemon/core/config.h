/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.h - rdmad configuration: INI file (inih) -> struct rdmad_config.
 *
 * config_load() parses a file (config.c: a table row per key names its
 * parser, config_key_parse.c); each unknown section or key and each bad
 * value is an error reported as "FILE:LINE: ...".  config_validate()
 * checks the whole (cross-key rules, config_check.c) after parsing.  See
 * docs/configuration.md and conf/rdmad.ini.
 */
#ifndef RDMAD_CONFIG_H
#define RDMAD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/acl_match.h"
#include "auth.h"
#include "defaults.h"
#include "port_counter.h"

#define CONFIG_DEFAULT_PATH	RDMAD_CONFIG_PATH
#define CONFIG_MAX_LISTEN	16
#define CONFIG_HTTP_DEFAULT	RDMAD_HTTP_LISTEN
#define CONFIG_HTTP_PORT	RDMAD_HTTP_PORT
/* [limits] max_registered_bytes: default and range. */
#define CONFIG_REGISTERED_DEFAULT	(1ull << 30)
#define CONFIG_REGISTERED_MIN		(64ull << 10)
#define CONFIG_REGISTERED_MAX		(1ull << 40)
/* [timeouts] liveness: 0 (off) or at least this much between checks. */
#define CONFIG_LIVENESS_MIN_MS	100

/* [mesh]: this rdmad probes its peers (docs/monitoring.md, "The mesh"). */
#define CONFIG_MESH_SIZES_MAX	8
/* [mesh] rails: subnets, rail r the r-th (as an inventory's rail=r) */
#define CONFIG_MESH_RAILS_MAX	8
#define CONFIG_MESH_PATHS_MAX	8
#define CONFIG_MESH_PEERS_MAX	4096	/* ceiling of max_peers, max_inbound */
#define CONFIG_MESH_PEERS_DEFAULT 1024
/* With an inventory that has topology (docs/fleet.md). */
#define CONFIG_MESH_CROSS_TOR_MAX	16
#define CONFIG_MESH_CROSS_TOR_DEFAULT	5
#define CONFIG_MESH_EPOCH_MIN_MS	60000u
#define CONFIG_MESH_EPOCH_MAX_MS	86400000u
#define CONFIG_MESH_EPOCH_DEFAULT_MS	300000u
/* [mesh] down_after: failures in a row that take a path down.  1: the
 * first, as the mesh always did (a verified round's failure is rarely
 * noise, and the alerts and tests count on a dead port showing within
 * one deadline).  10 at most: at the default backoff (1 s doubling to
 * 60 s) ten failures span about 5 minutes, longer would hide an outage. */
#define CONFIG_MESH_DOWN_AFTER_DEFAULT	1u
#define CONFIG_MESH_DOWN_AFTER_MAX	10u
/* [mesh] peer_series: what /metrics shows of each peer (docs/monitoring.md,
 * "Cardinality is bounded"); unset: compact with an inventory that has
 * topology, full otherwise (config_mesh_compact). */
enum config_peer_series {
	CONFIG_PEER_SERIES_DEFAULT,	/* not set: by the inventory */
	CONFIG_PEER_SERIES_FULL,	/* every family, per peer */
	CONFIG_PEER_SERIES_COMPACT,	/* 5 series a peer, the rest by rail */
};
/* [module.NAME]: probes run by GET /probe?module=NAME. */
#define CONFIG_MODULES_MAX	16
#define CONFIG_MODULE_NAME_MAX	32
#define CONFIG_MODULE_DEFAULT	"default"

struct config_mesh {
	char targets[256];		/* the peers' file; "": no mesh */
	uint16_t port;			/* for lines without one (7471) */
	unsigned int max_peers;		/* a host could probe more: refused */
	unsigned int max_inbound;	/* or be probed by more: refused */
	unsigned int cross_tor;		/* ToRs probing each ToR an epoch */
	unsigned int epoch_ms;		/* a cross-ToR slot's peers this long */
	unsigned int interval_ms;	/* between a peer's rounds */
	unsigned int jitter_pct;	/* 0..50 */
	uint32_t sizes[CONFIG_MESH_SIZES_MAX];	/* round sizes, in turn */
	unsigned int n_sizes;
	uint8_t ops;			/* PROTO_OP_*: WRITE|READ or READ */
	unsigned int paths;		/* connections per peer */
	unsigned int connect_timeout_ms;
	unsigned int round_timeout_ms;
	unsigned int backoff_min_ms;
	unsigned int backoff_max_ms;
	unsigned int down_after;	/* failures in a row: path down */
	int tos;			/* IP TOS byte; -1: not set */
	unsigned int bw_every_ms;	/* per peer; 0: no samples */
	unsigned int bw_duration_ms;	/* one sample's length */
	uint32_t bw_size;		/* its WRITEs' size */
	uint32_t bw_share_ppm;		/* of all time, all samples */
	struct sockaddr_storage source;	/* ss_family 0: rdma_cm picks */
	/* Rails without an inventory: a plain targets file's address is
	 * on rail r when rails[r] holds it, probed from this host's
	 * address in rails[r] (mesh_targets_check.c). */
	struct acl_entry rails[CONFIG_MESH_RAILS_MAX];
	unsigned int n_rails;
	enum config_peer_series peer_series;
	/* a round under local pressure (mesh_load_check.h); 0: that test off */
	unsigned int prober_lag_max_ms;
	unsigned int prober_wait_max_pct;
	/* a round slower than this is logged with the port counters that
	 * moved around it; 0: none are */
	unsigned int slow_round_ms;
	/* a path's health (docs/mesh.md, "Decided in the agent"): the share
	 * of bad rounds of a healthy path and of a lossy one, the bandwidth
	 * drop named slow, downs within a window named flapping */
	uint32_t healthy_bad_ppm;
	uint32_t lossy_bad_ppm;
	unsigned int slow_drop_pct;
	unsigned int flap_downs;
	unsigned int flap_window_ms;
};

/* [mesh] flap_downs: the downs a path's health remembers, at most. */
#define CONFIG_MESH_FLAP_DOWNS_MAX	16

/* Whether /metrics is compact under M, given whether the inventory in
 * force has topology (the default follows it). */
static inline bool config_mesh_compact(const struct config_mesh *m,
				       bool topology)
{
	return m->peer_series == CONFIG_PEER_SERIES_COMPACT ||
	       (m->peer_series == CONFIG_PEER_SERIES_DEFAULT && topology);
}

/* [counters]: this host's RDMA port counters (docs/monitoring.md, "Port
 * counters"): one pass over every counter this often, the skip list. */
#define CONFIG_COUNTERS_INTERVAL_DEFAULT_MS	10000u
struct config_counters {
	unsigned int interval_ms;	/* a whole pass; 0: not read */
	struct port_counter_skip skip;
};

struct config_module {
	char name[CONFIG_MODULE_NAME_MAX];
	uint8_t ops;			/* PROTO_OP_READ and/or WRITE */
	uint32_t size;			/* bytes per operation */
	uint32_t iterations;		/* per kind */
	unsigned int timeout_ms;	/* the whole probe */
	int tos;			/* -1: not set */
};

struct config_listen {
	struct sockaddr_storage addr;	/* port set */
	socklen_t addrlen;
	char text[64];			/* as the operator wrote it */
};

struct rdmad_config {
	struct config_listen listen[CONFIG_MAX_LISTEN];
	unsigned int n_listen;
	unsigned int listen_backlog;
	unsigned int max_connections;
	unsigned int max_per_host;	/* 0: only max_connections */
	unsigned int drain_timeout_ms;	/* SIGTERM: wait for live conns */
	uint32_t max_buffer_size;	/* bytes */
	uint64_t max_registered_bytes;	/* all connections' pinned memory */
	uint32_t max_iterations;
	unsigned int max_duration_ms;	/* whole connection, 0: none */
	/* [access]: deny wins, then a non-empty allow list must match */
	struct acl allow;
	struct acl deny;
	/* [auth]: pre-shared key, psk.len 0 when none */
	char psk_file[256];
	struct auth_key psk;
	int log_level;			/* LOG_ERR .. LOG_DEBUG */
	/* [http]: status and metrics endpoint (http.c); http_on 0: off */
	int http_on;
	struct config_listen http_listen;
	struct acl http_allow;		/* who may query; loopback default */
	/* exporter-toolkit web config (TLS, basic auth); "": none */
	char http_web_config[512];
	/* GET /probe targets that get the [auth] key; empty: none do */
	struct acl probe_key_allow;
	/* Deadlines, in milliseconds (see enum conn_deadline). */
	unsigned int accept_timeout_ms;
	unsigned int idle_timeout_ms;
	unsigned int session_timeout_ms;
	unsigned int io_timeout_ms;
	unsigned int linger_timeout_ms;
	unsigned int close_timeout_ms;
	unsigned int liveness_ms;	/* probe a quiet peer's QP; 0: off */
	struct config_mesh mesh;
	struct config_counters counters;
	/* [module.NAME] sections; "default" is built in unless defined */
	struct config_module modules[CONFIG_MODULES_MAX];
	unsigned int n_modules;
};

void config_defaults(struct rdmad_config *cfg);

/*
 * Parse PATH over the current contents of *cfg (call config_defaults()
 * first).  0 on success; -errno if the file cannot be read, -EINVAL on
 * any error in it.  The first error's message goes into err.
 */
int config_load(struct rdmad_config *cfg, const char *path, char *err,
		size_t errlen);
/* Same, from a string; NAME stands for the file name in messages. */
int config_load_string(struct rdmad_config *cfg, const char *text,
		       const char *name, char *err, size_t errlen);

/* Whole-configuration checks; 0 or -EINVAL with a message. */
int config_validate(const struct rdmad_config *cfg, const char *name,
		    char *err, size_t errlen);

/*
 * The module called NAME (NULL or "": "default"), or NULL when there is
 * none; "default" always exists (the built-in one unless configured).
 */
const struct config_module *config_module_find(const struct rdmad_config *cfg,
					       const char *name);

/* ADDRESS[:PORT] with rdma_cm's default port, or DEFPORT. */
int config_parse_listen(const char *s, struct config_listen *l);
int config_parse_addr(const char *s, unsigned int defport,
		      struct config_listen *l);
/* Same address and port (the text as written may differ). */
int config_listen_equal(const struct config_listen *a,
			const struct config_listen *b);

#endif /* RDMAD_CONFIG_H */
