/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * log.c - see log.h.
 *
 * systemd sets JOURNAL_STREAM=<dev>:<inode> for a service whose stderr
 * is a journal stream; when that matches our fd 2 we send native journal
 * entries (sd_journal_sendv) so that operators can filter on RDMAD_PEER=,
 * RDMAD_CONN=... fields.  Otherwise a line goes to stderr:
 *   2025-01-02T03:04:05.678 info conn=7 peer=10.0.0.2:40000 message
 */
#include "core/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

static int log_level = LOG_INFO;
static int log_journal;

static const char *const level_names[] = {
	[LOG_EMERG] = "emerg", [LOG_ALERT] = "alert", [LOG_CRIT] = "crit",
	[LOG_ERR] = "err", [LOG_WARNING] = "warning",
	[LOG_NOTICE] = "notice", [LOG_INFO] = "info", [LOG_DEBUG] = "debug",
};

static int stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return 0;
	if (fstat(STDERR_FILENO, &st) < 0)
		return 0;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

void log_init(int level)
{
	log_level = level;
	log_journal = stderr_is_journal();
}

void log_set_level(int level)
{
	log_level = level;
}

int log_get_level(void)
{
	return log_level;
}

int log_to_journal(void)
{
	return log_journal;
}

int log_level_parse(const char *s)
{
	int i;

	for (i = LOG_ERR; i <= LOG_DEBUG; i++)
		if (strcmp(s, level_names[i]) == 0)
			return i;
	if (strcmp(s, "error") == 0)
		return LOG_ERR;
	if (strcmp(s, "warn") == 0)
		return LOG_WARNING;
	return -1;
}

const char *log_level_name(int level)
{
	if (level < LOG_EMERG || level > LOG_DEBUG)
		return "?";
	return level_names[level];
}

/* Field "NAME=value" into a fixed slot; returns 1 if added. */
static int add_field(struct iovec *iov, char *slot, size_t len,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int add_field(struct iovec *iov, char *slot, size_t len,
		     const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(slot, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	iov->iov_base = slot;
	iov->iov_len = (size_t)n < len ? (size_t)n : len - 1;
	return 1;
}

static void emit_journal(int prio, const struct log_ctx *c, const char *msg)
{
	char f[9][256];		/* up to 9 fields, then MESSAGE */
	struct iovec iov[10];
	int n = 0;

	n += add_field(&iov[n], f[n], sizeof(f[n]), "PRIORITY=%d", prio);
	n += add_field(&iov[n], f[n], sizeof(f[n]), "SYSLOG_IDENTIFIER=rdmad");
	if (c) {
		if (c->conn)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_CONN=%" PRIu64, c->conn);
		if (c->peer)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_PEER=%s", c->peer);
		if (c->state)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_STATE=%s", c->state);
		if (c->proto)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_PROTO=%s", c->proto);
		if (c->bytes >= 0)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_BYTES=%" PRId64, c->bytes);
		if (c->result)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "RDMAD_RESULT=%s", c->result);
		if (c->msgid)
			n += add_field(&iov[n], f[n], sizeof(f[n]),
				       "MESSAGE_ID=%s", c->msgid);
	}
	/* MESSAGE last, unbounded by the slots above. */
	{
		size_t mlen = strlen(msg) + sizeof("MESSAGE=");
		char *m = malloc(mlen);

		if (!m)
			return;
		snprintf(m, mlen, "MESSAGE=%s", msg);
		iov[n].iov_base = m;
		iov[n].iov_len = mlen - 1;
		n++;
		sd_journal_sendv(iov, n);
		free(m);
	}
}

static void emit_stderr(int prio, const struct log_ctx *c, const char *msg)
{
	char ts[32], ctx[256] = "";
	struct timespec now;
	struct tm tm;
	size_t off = 0;

	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", &tm);
	if (c && c->conn)
		off += (size_t)snprintf(ctx + off, sizeof(ctx) - off,
					"conn=%" PRIu64 " ", c->conn);
	if (c && c->peer && off < sizeof(ctx))
		off += (size_t)snprintf(ctx + off, sizeof(ctx) - off,
					"peer=%s ", c->peer);
	fprintf(stderr, "%s.%03ld %s %s%s\n", ts, now.tv_nsec / 1000000,
		log_level_name(prio), ctx, msg);
}

static void log_vemit(int prio, const struct log_ctx *c, const char *fmt,
		      va_list ap) __attribute__((format(printf, 3, 0)));
static void log_vemit(int prio, const struct log_ctx *c, const char *fmt,
		      va_list ap)
{
	char msg[1024];
	int saved = errno;

	if (prio > log_level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_journal)
		emit_journal(prio, c, msg);
	else
		emit_stderr(prio, c, msg);
	errno = saved;
}

void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vemit(prio, NULL, fmt, ap);
	va_end(ap);
}

void log_conn(int prio, const struct log_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vemit(prio, ctx, fmt, ap);
	va_end(ap);
}

void fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vemit(LOG_CRIT, NULL, fmt, ap);
	va_end(ap);
	exit(code);
}
