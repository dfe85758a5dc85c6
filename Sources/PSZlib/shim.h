#ifndef POPCORNSWIRL_CZLIB_SHIM_H
#define POPCORNSWIRL_CZLIB_SHIM_H

// zlib as the spliced gzip answers use it (raw deflate with sync and full flushes, CRC-32 combining),
// behind functions Swift can call: zlib's own names for these are macros.
#include <zlib.h>

static inline int ps_deflate_init_raw(z_streamp stream, int level, int window_bits, int mem_level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, -window_bits, mem_level, strategy);
}

static inline unsigned long ps_crc32(unsigned long crc, const unsigned char *bytes, unsigned int length) {
    return crc32(crc, bytes, length);
}

static inline unsigned long ps_crc32_combine_gen(long length) {
    return crc32_combine_gen(length);
}

static inline unsigned long ps_crc32_combine_op(unsigned long first, unsigned long second, unsigned long op) {
    return crc32_combine_op(first, second, op);
}

static inline unsigned long ps_crc32_combine(unsigned long first, unsigned long second, long second_length) {
    return crc32_combine(first, second, second_length);
}

#endif
