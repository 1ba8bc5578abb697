#ifndef FORMD_CZLIB_SHIM_H
#define FORMD_CZLIB_SHIM_H
#include <zlib.h>
#endif
