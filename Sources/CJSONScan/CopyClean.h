// The copy of a JSON string's clean run, inlined where it runs per line: the output writer's escaping
// (`cjs_copy_clean`) and the Docker line reader's decoding, which calls it between escapes (several times a
// line) and paid a call each time.
#ifndef CJSONSCAN_COPY_CLEAN_H
#define CJSONSCAN_COPY_CLEAN_H

#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/// A byte JSON does not take as it is inside a string: a control byte, `"`, `\`, or any byte >= 0x80 (the
/// caller checks those as UTF-8).
static inline int cjs_needs_look(uint8_t b) { return b < 0x20 || b == '"' || b == '\\' || b >= 0x80; }

/// See `cjs_copy_clean` in CJSONScan.h.
__attribute__((always_inline)) static inline size_t cjs_copy_clean_inline(const uint8_t *src, size_t n, uint8_t *dst) {
    size_t i = 0;
#if defined(__x86_64__)
    // SSE2 is in every x86-64 CPU. Signed, a byte >= 0x80 is below 0x20 too.
    const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (i + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
        _mm_storeu_si128((__m128i *)(dst + i), v);
        __m128i flagged = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        unsigned mask = (unsigned)_mm_movemask_epi8(flagged);
        if (mask != 0) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
    if (i < n && n >= 16) {
        // The last 16 bytes, overlapping the clean ones before `i`: their flags are dropped.
        size_t from = n - 16;
        __m128i v = _mm_loadu_si128((const __m128i *)(src + from));
        _mm_storeu_si128((__m128i *)(dst + from), v);
        __m128i flagged = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        unsigned mask = ((unsigned)_mm_movemask_epi8(flagged)) >> (i - from);
        return mask != 0 ? i + (size_t)__builtin_ctz(mask) : n;
    }
#endif
    while (i < n && !cjs_needs_look(src[i])) {
        dst[i] = src[i];
        i++;
    }
    return i;
}

#endif
