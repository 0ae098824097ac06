/* SPDX-License-Identifier: BSD-2-Clause */
/* crc32c.h - CRC-32C (Castagnoli), as carried in DONE messages. */
#ifndef RDMAD_CRC32C_H
#define RDMAD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* crc32c(0, buf, len) for a whole buffer; chain by passing the result. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The same without CPU-specific instructions (tests compare the two). */
uint32_t crc32c_portable(uint32_t crc, const void *buf, size_t len);

#endif /* RDMAD_CRC32C_H */
