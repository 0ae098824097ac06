/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * defaults.h - facts of an installation that rdmad and its tools share:
 * where the configuration lives, where the status endpoint listens by
 * default, and the media types of the metrics it serves.
 */
#ifndef RDMAD_DEFAULTS_H
#define RDMAD_DEFAULTS_H

#include "paths.h"	/* generated: RDMAD_SYSCONFDIR */

#define RDMAD_CONFIG_PATH	RDMAD_SYSCONFDIR "/rdmad/rdmad.ini"
#define RDMAD_HTTP_LISTEN	"127.0.0.1:9470"
#define RDMAD_HTTP_PORT		9470

#define RDMAD_CTYPE_PROMETHEUS \
	"text/plain; version=0.0.4; charset=utf-8"
#define RDMAD_CTYPE_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

#endif /* RDMAD_DEFAULTS_H */
