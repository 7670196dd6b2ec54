// The shim is header-only (static inline functions); SwiftPM needs a source file in a C target.
#include "spawn_shim.h"
