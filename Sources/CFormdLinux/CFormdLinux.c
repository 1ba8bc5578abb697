// The declarations are static inline in include/CFormdLinux.h; SwiftPM needs one source file.
#include "CFormdLinux.h"
