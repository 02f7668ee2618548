#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H

#include <malloc.h>
#include <stddef.h>

/// Bytes the process has allocated with malloc and not yet freed (glibc's `mallinfo2`):
/// arena bytes in use plus bytes in mmapped chunks. Unlike the resident set size, this
/// leaves out freed memory that malloc keeps around.
static inline size_t cms_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

/// Bytes the malloc arenas hold (in use or free; pages handed back with malloc_trim still count).
static inline size_t cms_arena_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.arena;
}

/// Free bytes in the malloc arenas.
static inline size_t cms_free_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.fordblks;
}

/// Returns free heap memory to the system (glibc's `malloc_trim(0)`).
static inline void cms_trim(void) {
    malloc_trim(0);
}

#endif
