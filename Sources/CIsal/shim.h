#include <isa-l.h>
#include <isa-l/igzip_lib.h>
