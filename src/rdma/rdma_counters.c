/* SPDX-License-Identifier: BSD-2-Clause */
/* rdma_counters.c - the RDMA ports' counters from sysfs (see rdma_counters.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma_counters.h"
#include "rdma_dev.h"
#include "rdma_log.h"

/* A port is a device's port: at most every port of every registered one. */
#define RDMA_COUNTERS_PORTS	(RDMA_DEV_MAX * 4)

struct rdma_counters_port {
	char device[PORT_COUNTER_DEVICE_MAX];
	unsigned int port;
};

struct rdma_counters {
	struct event_base *base;
	char root[256];
	struct event *tick;
	unsigned int interval_ms;
	struct port_counter_skip skip;
	struct rdma_counters_port ports[RDMA_COUNTERS_PORTS];
	unsigned int n_ports;
	struct port_counter *c;
	unsigned int n, cap;
	unsigned int next;		/* read at the next tick */
	bool full_logged;
};

static const char *const rdma_counters_dirs[] = {
	[PORT_COUNTER_PMA] = "counters",
	[PORT_COUNTER_HW] = "hw_counters",
};

/* The sysfs path of DEVICE's PORT, and of its directory DIR and file NAME
 * when given. */
static void rdma_counters_path(const struct rdma_counters *rc, char *buf,
			       size_t len, const char *device,
			       unsigned int port, enum port_counter_dir dir,
			       const char *name)
{
	snprintf(buf, len, "%s/class/infiniband/%s/ports/%u/%s%s%s", rc->root,
		 device, port, rdma_counters_dirs[dir], name ? "/" : "",
		 name ? name : "");
}

static int rdma_counters_cmp(const void *a, const void *b)
{
	const struct port_counter *x = a, *y = b;
	int d = strcmp(x->device, y->device);

	if (d)
		return d;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool rdma_counters_has(const struct rdma_counters *rc,
			      const char *device, unsigned int port,
			      const char *name)
{
	unsigned int i;

	for (i = 0; i < rc->n; i++)
		if (rc->c[i].port == port && !strcmp(rc->c[i].name, name) &&
		    !strcmp(rc->c[i].device, device))
			return true;
	return false;
}

/* Counter NAME of DIR of DEVICE's PORT, from now on. */
static void rdma_counters_append(struct rdma_counters *rc, const char *device,
				 unsigned int port, enum port_counter_dir dir,
				 const char *name)
{
	struct port_counter *c;

	if (rc->n == RDMA_COUNTERS_MAX) {
		if (!rc->full_logged)
			rdma_log(LOG_WARNING, "port counters: more than %d; "
				 "%s/%u/%s and later ones not read",
				 RDMA_COUNTERS_MAX, device, port, name);
		rc->full_logged = true;
		return;
	}
	if (rc->n == rc->cap) {
		unsigned int cap = rc->cap ? rc->cap * 2 : 64;

		c = realloc(rc->c, cap * sizeof(*c));
		if (!c) {
			rdma_log(LOG_ERR, "port counters: out of memory; "
				 "%s/%u/%s not read", device, port, name);
			return;
		}
		rc->c = c;
		rc->cap = cap;
	}
	port_counter_init(&rc->c[rc->n++], device, port, dir, name);
}

/* The files of DIR of DEVICE's PORT not read yet nor skipped. */
static void rdma_counters_list(struct rdma_counters *rc, const char *device,
			       unsigned int port, enum port_counter_dir dir)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	rdma_counters_path(rc, path, sizeof(path), device, port, dir, NULL);
	d = opendir(path);
	if (!d) {
		/* No PMA on rxe, no hw_counters on some drivers. */
		rdma_log(errno == ENOENT ? LOG_DEBUG : LOG_WARNING,
			 "port counters: %s: %s", path, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;

		if (name[0] == '.' || (de->d_type != DT_REG &&
				       de->d_type != DT_UNKNOWN))
			continue;
		/* hw_counters/lifespan is how long the driver keeps a
		 * reading (a setting), not a counter. */
		if (dir == PORT_COUNTER_HW && !strcmp(name, "lifespan"))
			continue;
		if (strlen(name) >= PORT_COUNTER_NAME_MAX) {
			rdma_log(LOG_WARNING, "port counters: %s/%s: name "
				 "longer than %d; not read", path, name,
				 PORT_COUNTER_NAME_MAX - 1);
			continue;
		}
		if (port_counter_skipped(&rc->skip, device, name))
			continue;
		if (rdma_counters_has(rc, device, port, name)) {
			rdma_log(LOG_DEBUG, "port counters: %s/%s: read from "
				 "counters/ already", path, name);
			continue;
		}
		rdma_counters_append(rc, device, port, dir, name);
	}
	closedir(d);
}

static void rdma_counters_list_port(struct rdma_counters *rc,
				    const struct rdma_counters_port *p)
{
	rdma_counters_list(rc, p->device, p->port, PORT_COUNTER_PMA);
	rdma_counters_list(rc, p->device, p->port, PORT_COUNTER_HW);
	if (rc->n)	/* none yet: rc->c is NULL, which qsort may not get */
		qsort(rc->c, rc->n, sizeof(*rc->c), rdma_counters_cmp);
}

/* C's port directory is gone from sysfs: its device is being removed. */
static bool rdma_counters_gone(const struct rdma_counters *rc,
			       const struct port_counter *c)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u",
		 rc->root, c->device, c->port);
	return access(path, F_OK) && errno == ENOENT;
}

/* Read counter C once: 0, or -ENODEV when its device is gone. */
static int rdma_counters_read(struct rdma_counters *rc, struct port_counter *c)
{
	char path[512], buf[32];
	uint64_t v;
	ssize_t len;
	int fd, err;

	rdma_counters_path(rc, path, sizeof(path), c->device, c->port, c->dir,
			   c->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err == -ENOENT && rdma_counters_gone(rc, c))
			return -ENODEV;
		goto fail;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	err = len < 0 ? -errno : 0;
	close(fd);
	/* sysfs (kernfs) says ENODEV for a file opened before its node was
	 * removed: the device is going away (seen in CI: read 0.7 s before
	 * the device's directory was gone, a warning the device's removal
	 * should not give) */
	if (err == -ENODEV)
		return -ENODEV;
	if (err)
		goto fail;
	buf[len] = '\0';
	err = port_counter_parse(buf, &v);
	if (err) {
		if (c->read_err != err)
			rdma_log(LOG_WARNING, "port counter %s: '%.*s' is not "
				 "a count (said once while it lasts)", path,
				 (int)strcspn(buf, "\n"), buf);
		c->read_err = err;
		return 0;
	}
	if (c->read_err)
		rdma_log(LOG_NOTICE, "port counter %s: read again", path);
	c->read_err = 0;
	port_counter_update(c, v);
	return 0;
fail:
	if (c->read_err != err)
		rdma_log(LOG_WARNING, "port counter %s: cannot read: %s", path,
			 strerror(-err));
	c->read_err = err;
	return 0;
}

/* The next tick: the interval shared by the counters. */
static void rdma_counters_arm(struct rdma_counters *rc)
{
	uint64_t us;
	struct timeval tv;

	if (!rc->interval_ms || !rc->n || evtimer_pending(rc->tick, NULL))
		return;
	us = (uint64_t)rc->interval_ms * 1000 / rc->n;
	if (!us)
		us = 1;
	tv.tv_sec = (time_t)(us / 1000000);
	tv.tv_usec = (suseconds_t)(us % 1000000);
	if (evtimer_add(rc->tick, &tv))
		rdma_log(LOG_ERR, "port counters: cannot arm the read timer; "
			 "counters no longer read");
}

static void rdma_counters_tick(evutil_socket_t fd, short what, void *arg)
{
	struct rdma_counters *rc = arg;
	char device[PORT_COUNTER_DEVICE_MAX];

	if (!rc->n)
		return;
	if (rc->next >= rc->n)
		rc->next = 0;
	if (rdma_counters_read(rc, &rc->c[rc->next]) == -ENODEV) {
		snprintf(device, sizeof(device), "%s", rc->c[rc->next].device);
		rdma_counters_drop_device(rc, device, "is gone from sysfs");
		rdma_counters_arm(rc);
		return;
	}
	rc->next++;
	if (rc->next == rc->n) {	/* a pass ended: the windows move */
		unsigned int i;

		for (i = 0; i < rc->n; i++)
			port_counter_pass(&rc->c[i]);
	}
	rdma_counters_arm(rc);
}

int rdma_counters_new(struct rdma_counters **out, struct event_base *base,
		      const char *root)
{
	struct rdma_counters *rc = calloc(1, sizeof(*rc));

	*out = NULL;
	if (!rc)
		return -ENOMEM;
	rc->base = base;
	snprintf(rc->root, sizeof(rc->root), "%s", root ? root : "/sys");
	rc->tick = evtimer_new(base, rdma_counters_tick, rc);
	if (!rc->tick) {
		free(rc);
		return -ENOMEM;
	}
	*out = rc;
	return 0;
}

void rdma_counters_free(struct rdma_counters *rc)
{
	if (!rc)
		return;
	event_free(rc->tick);
	free(rc->c);
	free(rc);
}

void rdma_counters_configure(struct rdma_counters *rc,
			     unsigned int interval_ms,
			     const struct port_counter_skip *skip)
{
	unsigned int i, kept = 0;

	rc->skip = *skip;
	for (i = 0; i < rc->n; i++)
		if (!port_counter_skipped(skip, rc->c[i].device,
					  rc->c[i].name))
			rc->c[kept++] = rc->c[i];
	rc->n = kept;
	for (i = 0; i < rc->n_ports; i++)
		rdma_counters_list_port(rc, &rc->ports[i]);
	if (rc->interval_ms != interval_ms) {
		evtimer_del(rc->tick);
		rc->interval_ms = interval_ms;
	}
	rdma_counters_arm(rc);
}

void rdma_counters_add_port(struct rdma_counters *rc, const char *device,
			    unsigned int port)
{
	struct rdma_counters_port *p;
	unsigned int i;

	for (i = 0; i < rc->n_ports; i++)
		if (rc->ports[i].port == port &&
		    !strcmp(rc->ports[i].device, device))
			return;
	if (rc->n_ports == RDMA_COUNTERS_PORTS) {
		rdma_log(LOG_WARNING, "port counters: more than %d ports; "
			 "%s port %u not read", RDMA_COUNTERS_PORTS, device,
			 port);
		return;
	}
	p = &rc->ports[rc->n_ports++];
	snprintf(p->device, sizeof(p->device), "%s", device);
	p->port = port;
	rdma_counters_list_port(rc, p);
	rdma_log(LOG_INFO, "port counters: %s port %u: %u counters in all "
		 "now, a pass every %u ms", device, port, rc->n,
		 rc->interval_ms);
	rdma_counters_arm(rc);
}

void rdma_counters_drop_device(struct rdma_counters *rc, const char *device,
			       const char *why)
{
	unsigned int i, kept = 0, ports = 0, next = rc->next;

	for (i = 0; i < rc->n_ports; i++)
		if (strcmp(rc->ports[i].device, device))
			rc->ports[ports++] = rc->ports[i];
	if (ports == rc->n_ports)
		return;		/* not read (or dropped already) */
	rc->n_ports = ports;
	for (i = 0; i < rc->n; i++) {
		if (strcmp(rc->c[i].device, device))
			rc->c[kept++] = rc->c[i];
		else if (i < rc->next)
			next--;
	}
	rdma_log(LOG_NOTICE, "port counters: device %s %s: its %u counters "
		 "dropped (read again when it is back)", device, why,
		 rc->n - kept);
	rc->n = kept;
	rc->next = next;
	if (!rc->n)
		evtimer_del(rc->tick);
}

const struct port_counter *rdma_counters_view(const struct rdma_counters *rc,
					      unsigned int *n)
{
	*n = rc->n;
	return rc->c;
}
