#ifndef RETRYSTORM_PREFETCH_H
#define RETRYSTORM_PREFETCH_H

/* Swift has no prefetch intrinsic. The engine knows which operation slots the next events will
   touch (timeouts leave in FIFO order, a drained wheel bucket lists its events) long before it
   touches them; asking for those cache lines early overlaps the misses instead of taking them
   one after another. A hint only: it never faults and changes no result. */
static inline void rs_prefetch_write(const void *p) { __builtin_prefetch(p, 1, 3); }

#endif
