/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.h - the JSON string writer of rdma-probe's --json and rdmad's
 * status document (pure).
 */
#ifndef RDMAD_JSON_H
#define RDMAD_JSON_H

#include <stdio.h>

/*
 * S as a JSON string, ASCII only: '"' and '\\' escaped, control
 * characters and bytes from 0x7f as \u00XX; NULL as null.
 */
void json_str(FILE *f, const char *s);

#endif /* RDMAD_JSON_H */
