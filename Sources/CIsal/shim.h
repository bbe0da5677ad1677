#include <isa-l.h>
#include <isa-l/igzip_lib.h>
#include <stddef.h>

/// Where inflate_state's output buffer starts (Swift does not import a C array that large as a field): a seek
/// point copies the state up to there, plus the part of the buffer in use.
static inline size_t spytail_isal_inflate_history_offset(void) {
    return offsetof(struct inflate_state, tmp_out_buffer);
}
