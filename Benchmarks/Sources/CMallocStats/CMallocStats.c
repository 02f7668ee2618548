// The functions are inline in include/CMallocStats.h; SwiftPM needs one source file per C target.
#include "CMallocStats.h"
