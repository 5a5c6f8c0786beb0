/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 (FIPS 180-4), shared by the image tool and the static guest. */
#ifndef KIT_SHA256_H
#define KIT_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t n);
void sha256_final(struct sha256 *c, unsigned char out[32]);
/* out: 65 bytes, lower-case hex with a NUL. */
void sha256_hex(const unsigned char sum[32], char *out);
#endif
