/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log.h - rdmad logging: journald with structured fields when stderr is
 * connected to the journal, one readable line on stderr otherwise.
 * Levels are syslog priorities (LOG_ERR .. LOG_DEBUG).
 */
#ifndef RDMAD_LOG_H
#define RDMAD_LOG_H

#include <stdint.h>
#include <syslog.h>

/* Structured context of a message about one connection. */
struct log_ctx {
	uint64_t conn;		/* RDMAD_CONN, 0: none */
	const char *peer;	/* RDMAD_PEER */
	const char *state;	/* RDMAD_STATE */
	const char *proto;	/* RDMAD_PROTO */
	int64_t bytes;		/* RDMAD_BYTES, < 0: none */
	const char *result;	/* RDMAD_RESULT */
	const char *msgid;	/* MESSAGE_ID (128-bit hex), optional */
};

/*
 * Message ids (from systemd-id128 new) of the events the journal catalog
 * systemd/rdmad.catalog explains: `journalctl -x` or MESSAGE_ID=... .
 */
#define LOG_MSGID_CONN_OPEN	"5173b72cf38d4033bbe4dd2130c1e821"
#define LOG_MSGID_CONN_CLOSE	"a26788bf99c74f6a9855b09fe88e4fab"
#define LOG_MSGID_CONN_REJECT	"971be10ac2084bc8a7ae93e9fb4256fd"
#define LOG_MSGID_READY		"31885449d75b421cbb95b7d7ae329e82"
#define LOG_MSGID_RELOAD_FAIL	"9578674c0575496ea8a5ae039d549055"
#define LOG_MSGID_STOPPING	"808df6e32e004fb59b784969378c11a9"

void log_init(int level);
void log_set_level(int level);
int log_get_level(void);
int log_to_journal(void);
/* Parse "err", "warning", "notice", "info", "debug"; -1 if unknown. */
int log_level_parse(const char *s);
const char *log_level_name(int level);

__attribute__((format(printf, 2, 3)))
void log_msg(int prio, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
void log_conn(int prio, const struct log_ctx *ctx, const char *fmt, ...);

#define log_err(...)	log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...)	log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...)	log_msg(LOG_DEBUG, __VA_ARGS__)

/* Start-up failure: log and exit with CODE (sysexits). */
__attribute__((format(printf, 2, 3), noreturn))
void fatal(int code, const char *fmt, ...);

#endif /* RDMAD_LOG_H */
