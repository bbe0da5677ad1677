#include "CBuildInfo.h"

#ifndef SPYTAIL_COMMIT
#define SPYTAIL_COMMIT "unknown"
#endif
#ifndef SPYTAIL_BUILD_DATE
#define SPYTAIL_BUILD_DATE "unknown"
#endif

const char *spytail_build_commit(void) { return SPYTAIL_COMMIT; }
const char *spytail_build_date(void) { return SPYTAIL_BUILD_DATE; }
