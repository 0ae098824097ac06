/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.h - the JSON string writer of rdma-probe's --json and rdmad's
 * status document (pure).
 */
#ifndef RDMAD_JSON_H
#define RDMAD_JSON_H

#include <stdio.h>

/*
 * S as a JSON string: '"' and '\\' escaped, control characters and
 * DEL as \u00XX, well-formed UTF-8 copied as is, and each byte that is
 * not part of a well-formed UTF-8 sequence as \ufffd (so the output is
 * valid JSON whatever S holds); NULL as null.
 */
void json_str(FILE *f, const char *s);

#endif /* RDMAD_JSON_H */
