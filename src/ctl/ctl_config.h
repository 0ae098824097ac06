/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctl_config.h - where rdmadctl finds rdmad: [http] listen of rdmad's
 * configuration file, and nothing else of it.  rdmadctl never reads the
 * other sections (the [auth] key file is the daemon's secret), so any
 * user who may read rdmad.ini can run it.
 */
#ifndef RDMAD_CTL_CONFIG_H
#define RDMAD_CTL_CONFIG_H

#include <stddef.h>

#include "addr.h"

/*
 * The endpoint of TEXT, the contents of the file NAME: [http] listen, the
 * default if the section or key is absent.  0; -ENOTCONN if the endpoint
 * is off (listen = off); -EINVAL for a bad value or a line inih cannot
 * parse.  ERR gets "NAME:LINE: ..." on failure.
 */
int ctl_config_http(const char *text, const char *name,
		    struct addr_endpoint *a, char *err, size_t errlen);
/* Same, from the file PATH; -errno (ERR says why) if it cannot be read. */
int ctl_config_http_file(const char *path, struct addr_endpoint *a,
			 char *err, size_t errlen);

#endif /* RDMAD_CTL_CONFIG_H */
