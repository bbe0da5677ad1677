// libinotifytools (Debian: libinotifytools0-dev) has no pkg-config file; the module map links it.
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
